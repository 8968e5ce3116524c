// Keyframes decoded while the file is scanned (`KeyframePrefetch`): a keyframe-only landing
// that takes one must land on ffprobe's keyframe with framemd5's pixels (and the barcode), as
// the decode it replaces does, and the pictures held must stay within the bound.

import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Keyframe prefetch: a keyframe decoded during the scan lands as its own decode", .ffmpegLog)
struct KeyframePrefetchTests {
    /// An engine whose prefetch decodes every keyframe the scan passes, so the landings below
    /// find them whatever the timing.
    static func openPrefetching(_ fixture: Fixture, boundBytes: Int? = nil) throws -> FFmpegEngine {
        var options = FFmpegEngine.Options(streamIndex: fixture.stream, threads: 1)
        options.prefetchesKeyframes = true
        options.prefetchesEveryKeyframe = true
        // An MP4 opened from its index is not scanned, so nothing is prefetched: scanned here.
        options.readsContainerIndex = false
        return try FFmpegEngine(path: fixture.path, options: options)
    }

    @Test(
        "Keyframes landed alone from the prefetch: ffprobe's keyframe, framemd5's pixels, no decode errors",
        arguments: FixtureCatalog.video)
    func landsAsDecoded(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try Self.openPrefetching(fixture)
        let prefetch = try #require(engine.keyframePrefetch, "\(fixture.id): no prefetch")
        #expect(prefetch.heldByteCount <= prefetch.boundBytes)
        let keyframes = oracle.frames.indices.filter { oracle.frames[$0].isKey && engine.frameTable.frames[$0].isKeyframe }
        var taken = 0
        // Backwards, so no landing is the decoder going on from the one before.
        for index in keyframes.reversed().prefix(12) {
            let context = "\(fixture.id) keyframe \(index)"
            let plan = try engine.plan(at: oracle.time(index), precision: .previousKeyframe)
            try #require(plan.frameIndex == index, "\(context): planned frame \(plan.frameIndex)")
            let before = prefetch.framesServed
            let landing = try engine.land(plan, mode: .keyframeOnly)
            if prefetch.framesServed > before {
                taken += 1
                #expect(landing.framesDecoded == 0 && landing.decodeErrors == 0, "\(context): \(landing)")
            }
            #expect(landing.frame.index == index, "\(context): landed on \(landing.frame.index)")
            verifyLandedPicture(engine: engine, oracle: oracle, expected: index, context: context)
        }
        #expect(taken > 0, "\(fixture.id): no landing took a prefetched keyframe, so nothing here was checked")
    }

    @Test("The pictures held stay within the bound: a bound of two keyframes holds two")
    func bound() throws {
        // Four keyframes, each a picture of its own size.
        let fixture = try #require(FixtureCatalog.fixture("h264_editlist_late.s0"))
        let full = try Self.openPrefetching(fixture)
        let prefetch = try #require(full.keyframePrefetch)
        let held = prefetch.heldPTS.count
        try #require(held > 2, "the fixture has \(held) keyframes to prefetch")
        let bytes = prefetch.heldByteCount / held
        let decoder = try Decoder(stream: full.pool.slots[0].demuxer.stream(full.frameTable.streamIndex), threads: 1, log: FFmpegLogSink())
        let bounded = KeyframePrefetch(decoder: decoder, boundBytes: 2 * bytes, decodesEveryOffer: true)
        let packet = Packet()
        let demuxer = try Demuxer(path: fixture.path, log: FFmpegLogSink())
        demuxer.selectOnly(streamIndex: full.frameTable.streamIndex)
        while try demuxer.read(into: packet) {
            if packet.isKeyframe { bounded.offer(packet) }
            packet.unref()
        }
        bounded.scanEnded()
        #expect(bounded.heldPTS.count == 2 && bounded.heldByteCount <= 2 * bytes)
        #expect(bounded.heldPTS == Array(prefetch.heldPTS.prefix(2)), "the first two keyframes offered are the ones kept")
    }
}
