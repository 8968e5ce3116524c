// Thumbnails on two decoders at once: the same pictures, frames and order as one decoder, and
// the landings checked against ffprobe's frame table (the oracle): with the previous-keyframe
// precision every picture is the keyframe ffprobe lists at or before its time.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("Thumbnails: two decoders give what one gives", .ffmpegLog)
struct ThumbnailDecodersTests {
    /// The last keyframe ffprobe lists at or before `time`, nil before the first.
    static func keyframe(atOrBefore time: MediaTime, in oracle: Oracle) -> Int? {
        oracle.frames.indices.last { oracle.frames[$0].isKey && oracle.time($0) <= time }
    }

    /// Several times per GOP, so both decoders take some, and pairs that share a keyframe.
    static func times(_ oracle: Oracle) -> [MediaTime] {
        var times: [MediaTime] = []
        var t = MediaTime.zero
        let end = oracle.end(oracle.lastIndex)
        while t < end {
            times.append(t)
            t = t + seconds(1, 3)
        }
        return times
    }

    @Test(
        "Previous keyframe: the keyframe ffprobe lists at or before each time, in time order, the same pixels as one decoder",
        arguments: videoFixtures, [true, false])
    func previousKeyframe(fixture: Fixture, callerDecodes: Bool) throws {
        let oracle = try Oracle(fixture)
        let times = Self.times(oracle).filter { Self.keyframe(atOrBefore: $0, in: oracle) != nil }
        let one = try makeGenerator(fixture, precision: .previousKeyframe)
        let sequential = try one.thumbnails(at: times, decoders: 1)
        #expect(one.framesMadeByOtherDecoders == 0)
        let two = try makeGenerator(fixture, precision: .previousKeyframe)
        two.callerDecodes = callerDecodes
        var delivered: [Thumbnail] = []
        try two.forEachThumbnail(at: times, decoders: 2) { delivered.append($0) }
        if !callerDecodes {
            // The second decoder made every frame: its pictures are the ones checked below. (A
            // single frame is made where the run is, with no second decoder opened for it.)
            let frames = Set(sequential.map(\.frameIndex)).count
            #expect(two.framesMadeByOtherDecoders == (frames > 1 ? frames : 0), "\(fixture.id): \(frames) frames")
        }
        #expect(delivered.map(\.requestedTime) == times, "\(fixture.id): not delivered in time order")
        for (i, (a, b)) in zip(sequential, delivered).enumerated() {
            let expected = try #require(Self.keyframe(atOrBefore: times[i], in: oracle))
            #expect(
                b.frameIndex == expected, "\(fixture.id) at \(times[i].seconds) s: frame \(b.frameIndex), ffprobe's keyframe \(expected)")
            #expect(b.actualTime == oracle.time(expected))
            #expect(a.frameIndex == b.frameIndex && a.actualTime == b.actualTime && a.fromKeyframeOnly == b.fromKeyframeOnly)
            #expect(
                a.image == b.image,
                "\(fixture.id) at \(times[i].seconds) s: the pixels differ (max \(a.image.maximumDifference(from: b.image)))")
        }
        #expect(sequential.count == times.count && delivered.count == times.count)
    }

    @Test(
        "Keyframes decoded while the file is scanned: the thumbnails each decode gives, on ffprobe's keyframes, on 1 and 2 decoders",
        arguments: videoFixtures)
    func prefetchedKeyframes(fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let times = Self.times(oracle).filter { Self.keyframe(atOrBefore: $0, in: oracle) != nil }
        let decoded = try makeGenerator(fixture, precision: .previousKeyframe).thumbnails(at: times, decoders: 1)
        var options = FFmpegEngine.Options(streamIndex: fixture.stream, threads: 1)
        // Every keyframe the scan passes, so that which thumbnails take one does not hang on timing.
        options.prefetchesEveryKeyframe = true
        // An MP4 opened from its index is not scanned, so nothing is prefetched: scanned here.
        options.readsContainerIndex = false
        for decoders in [1, 2] {
            let generator = try ThumbnailGenerator(
                path: fixture.path, options: options, precision: .previousKeyframe,
                prefetchingKeyframes: true)
            let prefetched = try generator.thumbnails(at: times, decoders: decoders)
            let served = try #require(generator.engine.keyframePrefetch).framesServed
            #expect(served > 0, "\(fixture.id), \(decoders) decoders: no thumbnail took a prefetched keyframe")
            #expect(prefetched == decoded, "\(fixture.id), \(decoders) decoders: the thumbnails differ from decoding each")
            for (thumbnail, time) in zip(prefetched, times) {
                #expect(thumbnail.frameIndex == Self.keyframe(atOrBefore: time, in: oracle), "\(fixture.id) at \(time.seconds) s")
            }
        }
    }

    @Test(
        "Exact frames and the default tolerance: two decoders give one decoder's thumbnails, in the order asked",
        arguments: FixtureCatalog.barcoded)
    func sameAsOne(fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        var random = SeededGenerator("decoders-\(fixture.id)")
        let asked = timesAcross(oracle, step: seconds(1, 2)).shuffled(using: &random)
        for precision in [SeekPrecision.exact, .tolerance(before: .positiveInfinity, after: .positiveInfinity)] {
            let one = try makeGenerator(fixture, precision: precision).thumbnails(at: asked, decoders: 1)
            for callerDecodes in [true, false] {
                let generator = try makeGenerator(fixture, precision: precision)
                generator.callerDecodes = callerDecodes
                let two = try generator.thumbnails(at: asked, decoders: 2)
                #expect(one == two, "\(fixture.id), \(precision), caller decodes \(callerDecodes): two decoders differ from one")
                #expect(two.map(\.requestedTime) == asked)
            }
        }
    }

    @Test("With two decoders: a failure in delivery stops both and is thrown; the generator goes on working after it")
    func deliveryFailure() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let generator = try ThumbnailGenerator(path: fixture.path, options: .init(streamIndex: fixture.stream))
        let times = (0..<20).map { seconds(Int64($0), 2) }
        struct Stop: Error {}
        var delivered = 0
        #expect(throws: Stop.self) {
            try generator.forEachThumbnail(at: times, decoders: 2) { _ in
                delivered += 1
                if delivered == 3 { throw Stop() }
            }
        }
        #expect(delivered == 3)
        let again = try generator.thumbnails(at: times, decoders: 2)
        #expect(again == (try makeGenerator(fixture).thumbnails(at: times, decoders: 1)))
    }

    @Test("A second decoder that cannot open the file (removed since) leaves every frame to the first")
    func helperCannotOpen() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let directory = try temporaryDirectory("thumbs-removed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: fixture.path), to: copy)
        let generator = try ThumbnailGenerator(path: copy.path)
        try FileManager.default.removeItem(at: copy)
        generator.callerDecodes = false
        let times = (0..<12).map { seconds(Int64($0)) }
        let thumbnails = try generator.thumbnails(at: times, decoders: 2)
        #expect(thumbnails.map(\.requestedTime) == times && generator.framesMadeByOtherDecoders == 0)
    }

    @Test("An engine handed in has no file to open again: more decoders asked for, one used")
    func handedInEngine() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.path)))
        let generator = try ThumbnailGenerator(engine: FFmpegEngine(bytes: bytes, name: "memory.mp4"))
        let thumbnails = try generator.thumbnails(at: [.zero, seconds(5), seconds(9)], decoders: 2)
        #expect(thumbnails.count == 3 && generator.framesMadeByOtherDecoders == 0)
    }
}
