// Forward steps decoded ahead (FFmpegEngine.Options.decodesAhead, DecodeAhead): while the
// caller works with a step's frame, the next step lands on another thread. Every landing and
// every picture must be what it is without that: ffprobe's frame, ffmpeg's framemd5 MD5 (each
// picture is checked while the next step is being decoded), the same report and the same
// cache. Whatever the caller does instead of the next step must find the engine where the
// step left it.

import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Steps decoded ahead", .ffmpegLog)
struct DecodeAheadTests {
    static let fixtures = [FrameStepTests.longGOP, "hevc_opengop.s0", "vp9_altref.s0", "h264_vfr.s0"]

    static func openEngine(
        _ fixture: Fixture, decodesAhead: Bool, cacheBytes: Int = FFmpegEngine.Options.defaultCacheBytes
    ) throws
        -> FFmpegEngine
    {
        var options = FFmpegEngine.Options(streamIndex: fixture.stream, threads: 1, cacheBytes: cacheBytes)
        options.decodesAhead = decodesAhead
        return try FFmpegEngine(path: fixture.path, options: options)
    }

    @Test(
        "Steps of 1 and of 3 over a GOP boundary land on ffmpeg's frames, taken from the thread ahead, with the reports and the cache of steps without it",
        arguments: fixtures)
    func sameAsWithout(id: String) throws {
        let fixture = try #require(FixtureCatalog.fixture(id))
        let oracle = try Oracle(fixture)
        let boundary = oracle.keyframes.dropFirst().first ?? oracle.lastIndex / 2
        let start = max(0, boundary - 12)
        for count in [1, 3] {
            let ahead = try Self.openEngine(fixture, decodesAhead: true)
            let plain = try Self.openEngine(fixture, decodesAhead: false)
            try land(ahead, on: start, oracle: oracle, context: fixture.id)
            try land(plain, on: start, oracle: oracle, context: fixture.id)
            // The seek's landing is the one frame cached so far.
            let frameBytes = plain.cacheUsedBytes
            var expected = start
            var steps = 0
            while expected + count <= min(oracle.lastIndex, boundary + 12) {
                expected += count
                steps += 1
                let context = "\(fixture.id): step \(steps) of \(count) to frame \(expected)"
                let report = ahead.step(.forward, count: count)
                verifyStep(
                    report, engine: ahead, oracle: oracle, direction: .forward, count: count, expected: expected, moved: count,
                    context: context)
                let without = plain.step(.forward, count: count)
                #expect(
                    report.framesDecoded == without.framesDecoded && report.decodeErrors == without.decodeErrors
                        && report.frame == without.frame && report.isIndexed == without.isIndexed,
                    "\(context): \(report) against \(without) without decoding ahead")
                if report.frame?.index != expected { break }
            }
            // Every step after the first comes from the thread ahead; none without it.
            #expect(ahead.stepsDecodedAhead == steps - 1, "\(fixture.id): \(ahead.stepsDecodedAhead) of \(steps) steps of \(count)")
            #expect(plain.stepsDecodedAhead == 0)
            // The same cache, but for the frames the step decoded ahead of the last one passed on
            // the way (kept for a drag back, as a step of more than one keeps them), which no
            // step took.
            let passed = (count - 1) * frameBytes
            #expect(ahead.cacheUsedBytes == plain.cacheUsedBytes + passed, "\(fixture.id): the cache after steps of \(count)")
            #expect(ahead.cachePeakBytes == plain.cachePeakBytes + passed, "\(fixture.id): the cache's peak over steps of \(count)")
        }
    }

    @Test("After a step decoded ahead, a seek, a step back and a step of another count land where they must")
    func somethingElseNext() throws {
        let fixture = try #require(FixtureCatalog.fixture(FrameStepTests.longGOP))
        let oracle = try Oracle(fixture)
        let engine = try Self.openEngine(fixture, decodesAhead: true)
        try land(engine, on: 40, oracle: oracle, context: fixture.id)
        walk(engine, .forward, onto: 41...43, oracle: oracle, context: "\(fixture.id) forward")
        #expect(engine.currentFrameIndex == 43, "\(fixture.id): the current frame while the next decodes")

        // A step back: the frame ahead is not taken, and the one before lands.
        walk(engine, .backward, onto: [42], oracle: oracle, context: "\(fixture.id) back")
        // A step of 2 from there is not the step of 1 decoded ahead before the step back, but it
        // lands on that step's frame, 44: found beside the cache, decoding nothing, though the
        // decoder has gone past it.
        let two = engine.step(.forward, count: 2)
        verifyStep(two, engine: engine, oracle: oracle, direction: .forward, count: 2, expected: 44, moved: 2, context: "\(fixture.id) +2")
        #expect(two.framesDecoded == 0, "\(fixture.id): the step onto the frame decoded ahead decoded \(two.framesDecoded) frames")
        // A seek elsewhere, then a step: from the seek's frame, not from the step ahead.
        try land(engine, on: 10, oracle: oracle, context: fixture.id)
        walk(engine, .forward, onto: 11...12, oracle: oracle, context: "\(fixture.id) after the seek")
        // A seek back onto the frame a step ahead was decoded from: the kept step is still not
        // taken, since a landing came between.
        let taken = engine.stepsDecodedAhead
        try land(engine, on: 12, oracle: oracle, context: fixture.id)
        let thirteen = walk(engine, .forward, onto: [13], oracle: oracle, context: "\(fixture.id) after the seek onto the same frame")
        #expect(engine.stepsDecodedAhead == taken, "a step decoded before a landing was taken after it")
        #expect(thirteen.first?.framesDecoded == 0, "the frame decoded ahead was decoded again")
        walk(engine, .forward, onto: [14], oracle: oracle, context: "\(fixture.id) on")
        #expect(engine.stepsDecodedAhead == taken + 1)
    }

    /// `bitflip_mdat.mp4`, whose frame 222 no decoder produces, opened by an engine that decodes
    /// ahead and by one that does not.
    static func openDamagedPair() throws -> (ahead: FFmpegEngine, plain: FFmpegEngine) {
        let path = Repository.fixture("bad/bitflip_mdat.mp4")
        var options = FFmpegEngine.Options()
        let ahead = try FFmpegEngine(path: path, options: options)
        options.decodesAhead = false
        return (ahead, try FFmpegEngine(path: path, options: options))
    }

    /// Takes `count` forward steps on both engines, expecting the same frames, moves, damage
    /// and pictures from the one that decodes ahead as from the one that does not.
    static func expectSameSteps(_ count: Int, ahead: FFmpegEngine, plain: FFmpegEngine, context: String) throws {
        for step in 1...count {
            let report = ahead.step(.forward)
            let without = plain.step(.forward)
            #expect(
                report.frame == without.frame && report.framesStepped == without.framesStepped
                    && report.decodeErrors == without.decodeErrors && report.result.didStep == without.result.didStep,
                "\(context), step \(step): \(report) against \(without)")
            #expect(try ahead.landedPicture()?.md5 == plain.landedPicture()?.md5, "\(context), step \(step): the picture")
        }
    }

    @Test(
        "Over a frame no decoder produces (bitflip_mdat.mp4, frame 222), steps decoded ahead land, move and count damage as steps without it"
    )
    func overUndecodableFrame() throws {
        let (ahead, plain) = try Self.openDamagedPair()
        for engine in [ahead, plain] { _ = try engine.seek(to: engine.frameTable.frames[200].time, precision: .exact) }
        try Self.expectSameSteps(40, ahead: ahead, plain: plain, context: "over frame 222")
        #expect(ahead.currentFrameIndex == plain.currentFrameIndex && ahead.currentFrameIndex.map { $0 > 223 } == true)
        #expect(ahead.stepsDecodedAhead > 30, "\(ahead.stepsDecodedAhead) of 40 steps taken from the thread ahead")
    }

    @Test(
        "A seek, or a step back, while the step ahead retries over bitflip_mdat.mp4's undecodable frame stops that step instead of waiting for it; what lands after is what lands without decoding ahead",
        arguments: ["seek", "step back"])
    func abandonedOverDamage(next: String) throws {
        let (ahead, plain) = try Self.openDamagedPair()
        // The engine that decodes ahead last, so that its next call comes right after its last
        // step, while the step ahead retries.
        for engine in [plain, ahead] {
            _ = try engine.seek(to: engine.frameTable.frames[219].time, precision: .exact)
            // Onto 220, then 221: the step decoded ahead from there is the one onto frame 222,
            // which no decoder produces, so it retries, decoding the GOP from its keyframe.
            _ = engine.step(.forward)
            _ = engine.step(.forward)
        }
        #expect(ahead.currentFrameIndex == 221 && plain.currentFrameIndex == 221)
        if next == "seek" {
            let landing = try ahead.seek(to: ahead.frameTable.frames[100].time, precision: .exact)
            let without = try plain.seek(to: plain.frameTable.frames[100].time, precision: .exact)
            #expect(landing.frame == without.frame && landing.frame.index == 100, "\(landing.frame) against \(without.frame)")
        } else {
            let report = ahead.step(.backward)
            let without = plain.step(.backward)
            #expect(report.frame == without.frame && report.frame?.index == 220, "\(report) against \(without)")
        }
        #expect(try ahead.landedPicture()?.md5 == plain.landedPicture()?.md5, "the picture after the \(next)")
        // The step ahead was under way (it decodes at least 222 frames of its GOP before it
        // could give up) when the call stopped it.
        #expect(ahead.stepsAbandonedAhead == 1, "\(ahead.stepsAbandonedAhead) steps ahead stopped")
        #expect(ahead.undecodable.isEmpty, "a stopped step proves nothing undecodable")
        // On from there, over the damage again when the step went back: the same steps as without.
        try Self.expectSameSteps(12, ahead: ahead, plain: plain, context: "after the \(next)")
        #expect(ahead.stepsAbandonedAhead == 1, "steps that follow one another are never stopped")
    }

    @Test(
        "A conversion that fails after steps over bitflip_mdat.mp4's undecodable frame quotes its own cause, never a decoder's message (left by a landing, or logged by the step decoding ahead)",
        arguments: [true, false])
    func conversionCauseIsItsOwn(decodesAhead: Bool) throws {
        let transcript = FFmpegLogTranscript()
        try FFmpegLogTranscript.$current.withValue(transcript) {
            var options = FFmpegEngine.Options()
            options.decodesAhead = decodesAhead
            let engine = try FFmpegEngine(path: Repository.fixture("bad/bitflip_mdat.mp4"), options: options)
            _ = try engine.seek(to: engine.frameTable.frames[215].time, precision: .exact)
            var causes: [String] = []
            for _ in 1...12 {
                _ = engine.step(.forward)
                // A width of 0 is refused before swscale logs anything: the cause can only be
                // what the conversion itself says, or a message left by someone else.
                do {
                    _ = try engine.landedImage(width: 0, height: 90)
                    Issue.record("a 0x90 picture converted")
                } catch let error as MediaError {
                    causes.append(error.cause)
                }
            }
            // What the decoder logged over frame 222, from FFmpeg's own lines ("error [h264] ...").
            let decoderLines = transcript.text.filter { $0.hasPrefix("error [h264]") }.map { $0.dropFirst("error [h264] ".count) }
            #expect(!decoderLines.isEmpty, "the steps crossed frame 222 and the decoder said so")
            for cause in causes {
                #expect(decoderLines.allSatisfy { !cause.contains($0) }, "\(cause)")
            }
        }
    }

    @Test("Without a frame cache, steps decoded ahead still land right; an engine closed while one decodes closes cleanly")
    func noCacheAndClose() throws {
        let fixture = try #require(FixtureCatalog.fixture(FrameStepTests.longGOP))
        let oracle = try Oracle(fixture)
        let engine = try Self.openEngine(fixture, decodesAhead: true, cacheBytes: 0)
        try land(engine, on: 0, oracle: oracle, context: fixture.id)
        walk(engine, .forward, onto: 1...30, oracle: oracle, context: "\(fixture.id) without a cache")
        #expect(engine.stepsDecodedAhead == 29)
        for round in 0..<5 {
            let closing = try Self.openEngine(fixture, decodesAhead: true)
            try land(closing, on: round, oracle: oracle, context: fixture.id)
            walk(closing, .forward, onto: [round + 1], oracle: oracle, context: "\(fixture.id) round \(round)")
            // Dropped here, with the next step decoding on another thread.
        }
    }
}
