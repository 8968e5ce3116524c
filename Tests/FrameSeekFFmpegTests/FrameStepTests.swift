// Frame steps: by index in presentation order, landing on ffprobe's frames with ffmpeg's
// pixels, stopping at the edges with a typed reason, and stepping backward through the frame
// cache at O(1) decoded frames per step.
//
// Every expectation comes from the ffprobe table, the framemd5 lines and the barcodes, never
// from the engine's own output.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

/// Checks a step that must land on frame `expected` after moving `moved` frames: the result,
/// the landed time (exact, from ffprobe's PTS), the report's frame and counts, and the landed
/// picture's framemd5 MD5 and (synthetic fixtures) barcode.
func verifyStep(
    _ report: FrameStepReport, engine: FFmpegEngine, oracle: Oracle, direction: FrameStepDirection,
    count: Int, expected: Int, moved: Int, context: String
) {
    #expect(
        report.result == .stepped(direction, landedMediaTime: oracle.time(expected)),
        "\(context): \(report.result), expected stepped \(direction) to frame \(expected) at \(oracle.time(expected))")
    #expect(report.result.didStep && report.result.unavailableReason == nil, "\(context)")
    #expect(report.direction == direction && report.requestedCount == count, "\(context)")
    #expect(report.framesStepped == moved, "\(context): framesStepped \(report.framesStepped), expected \(moved)")
    #expect(report.frame?.index == expected, "\(context): frame \(report.frame.map { String($0.index) } ?? "nil")")
    #expect(report.frame?.pts == oracle.frames[expected].pts, "\(context): pts \(report.frame.map { String($0.pts) } ?? "nil")")
    #expect(report.frame?.time == oracle.time(expected), "\(context): frame time")
    #expect(report.framesDecoded >= 0 && report.latency >= .zero, "\(context)")
    verifyLandedPicture(engine: engine, oracle: oracle, expected: expected, context: context)
}

/// Checks a step that must be unavailable for `reason`, leaving frame `current` current.
func verifyUnavailable(
    _ report: FrameStepReport, engine: FFmpegEngine, oracle: Oracle, direction: FrameStepDirection,
    count: Int, reason: FrameStepUnavailableReason, current: Int?, context: String
) {
    #expect(report.result == .unavailable(reason), "\(context): \(report.result), expected unavailable(\(reason))")
    #expect(!report.result.didStep && report.result.unavailableReason == reason, "\(context)")
    #expect(!reason.explanation.isEmpty)
    #expect(report.direction == direction && report.requestedCount == count, "\(context)")
    #expect(report.framesStepped == 0, "\(context): framesStepped \(report.framesStepped)")
    #expect(
        report.frame?.index == current,
        "\(context): current frame \(report.frame.map { String($0.index) } ?? "nil"), expected \(current.map(String.init) ?? "nil")")
    if let current, oracle.fixture.isVideo, let md5s = oracle.md5s {
        #expect(landedPicture(engine, context)?.md5 == md5s[current], "\(context): the picture of frame \(current) is still the landed one")
    }
}

/// Seeks exactly onto frame `index` (its own PTS) and checks it landed there.
func land(_ engine: FFmpegEngine, on index: Int, oracle: Oracle, context: String) throws {
    let landing = try engine.seek(to: oracle.time(index), precision: .exact)
    try #require(landing.frame.index == index, "\(context): the seek to frame \(index) landed on \(landing.frame.index)")
    #expect(try engine.landedPicture()?.md5 == oracle.md5s?[index], "\(context): MD5 of the landing on frame \(index)")
}

/// Steps one frame at a time onto each of `indices` in turn, checking every landing, and
/// `afterEach` after it. Returns the reports, stopping at the first step that lands elsewhere
/// (one derailment would fail every later step).
@discardableResult
func walk(
    _ engine: FFmpegEngine, _ direction: FrameStepDirection, onto indices: some Sequence<Int>, oracle: Oracle,
    context: String, afterEach: (Int) -> Void = { _ in }
) -> [FrameStepReport] {
    var reports: [FrameStepReport] = []
    for index in indices {
        let report = engine.step(direction, count: 1)
        verifyStep(
            report, engine: engine, oracle: oracle, direction: direction, count: 1, expected: index, moved: 1,
            context: "\(context): \(direction) step to frame \(index)")
        reports.append(report)
        afterEach(index)
        if report.frame?.index != index { break }
    }
    return reports
}

@Suite("Frame steps", .ffmpegLog)
struct FrameStepTests {
    static let longGOP = "h264_bframes_gop250.s0"

    /// Bytes of one decoded yuv420p frame of the fixture, from ffprobe's width and height.
    static func frameBytes(_ oracle: Oracle) throws -> Int {
        let width = try #require(oracle.frames[0].width), height = try #require(oracle.frames[0].height)
        return width * height * 3 / 2
    }

    /// What a seek per backward step would decode: from each frame's keyframe up to it.
    static func seekPerStepCost(_ oracle: Oracle) -> Int {
        var key = 0, total = 0
        for index in 0..<oracle.lastIndex {
            if oracle.frames[index].isKey { key = index }
            total += index - key + 1
        }
        return total
    }

    @Test(
        "Forward from frame 0, one at a time: frames 1...last as ffprobe lists them, then endOfStream",
        arguments: FixtureCatalog.video)
    func forwardWalk(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        try land(engine, on: 0, oracle: oracle, context: fixture.id)
        let reports = walk(engine, .forward, onto: 1...oracle.lastIndex, oracle: oracle, context: fixture.id)
        guard reports.count == oracle.lastIndex else { return }
        verifyUnavailable(
            engine.step(.forward, count: 1), engine: engine, oracle: oracle, direction: .forward, count: 1,
            reason: .endOfStream, current: oracle.lastIndex, context: "\(fixture.id) forward step from the last frame")
    }

    @Test(
        "Backward from the last frame, one at a time: frames last-1...0, then startOfStream",
        arguments: FixtureCatalog.video)
    func backwardWalk(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        try land(engine, on: oracle.lastIndex, oracle: oracle, context: fixture.id)
        let reports = walk(
            engine, .backward, onto: stride(from: oracle.lastIndex - 1, through: 0, by: -1),
            oracle: oracle, context: fixture.id)
        guard reports.count == oracle.lastIndex else { return }
        verifyUnavailable(
            engine.step(.backward, count: 1), engine: engine, oracle: oracle, direction: .backward, count: 1,
            reason: .startOfStream, current: 0, context: "\(fixture.id) backward step from frame 0")

        // The design's point 4: the frame cache makes a backward step cost O(1) decoded frames
        // amortized, where a seek per step would decode O(GOP) frames each time.
        let perStep = reports.map(\.framesDecoded)
        let decoded = perStep.reduce(0, +), bound = 2 * oracle.count
        #expect(
            decoded <= bound,
            "\(fixture.id): \(oracle.lastIndex) backward steps decoded \(decoded) frames (bound \(bound); a seek per step would decode \(Self.seekPerStepCost(oracle))); most in one step: \(perStep.max() ?? 0)"
        )
        // Most steps are served from the cache: decoding happens in a few refills.
        let refills = perStep.filter { $0 > 0 }.count
        #expect(
            refills <= max(2, oracle.lastIndex / 4),
            "\(fixture.id): \(refills) of \(oracle.lastIndex) backward steps decoded something")
    }

    @Test(
        "Steps of 5 near an edge move as far as they can and say how far; then the edge is unavailable",
        arguments: FixtureCatalog.video)
    func countNearEdges(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let last = oracle.lastIndex
        try #require(oracle.count >= 12, "\(fixture.id) is too short for this test")
        let engine = try openEngine(fixture)

        try land(engine, on: 2, oracle: oracle, context: fixture.id)
        verifyStep(
            engine.step(.backward, count: 5), engine: engine, oracle: oracle, direction: .backward, count: 5,
            expected: 0, moved: 2, context: "\(fixture.id) backward 5 from frame 2")
        verifyUnavailable(
            engine.step(.backward, count: 5), engine: engine, oracle: oracle, direction: .backward, count: 5,
            reason: .startOfStream, current: 0, context: "\(fixture.id) backward 5 from frame 0")

        try land(engine, on: last - 2, oracle: oracle, context: fixture.id)
        verifyStep(
            engine.step(.forward, count: 5), engine: engine, oracle: oracle, direction: .forward, count: 5,
            expected: last, moved: 2, context: "\(fixture.id) forward 5 from frame \(last - 2)")
        verifyUnavailable(
            engine.step(.forward, count: 5), engine: engine, oracle: oracle, direction: .forward, count: 5,
            reason: .endOfStream, current: last, context: "\(fixture.id) forward 5 from the last frame")

        let middle = oracle.count / 2
        try land(engine, on: middle, oracle: oracle, context: fixture.id)
        verifyStep(
            engine.step(.forward, count: 5), engine: engine, oracle: oracle, direction: .forward, count: 5,
            expected: middle + 5, moved: 5, context: "\(fixture.id) forward 5 from frame \(middle)")
        verifyStep(
            engine.step(.backward, count: 5), engine: engine, oracle: oracle, direction: .backward, count: 5,
            expected: middle, moved: 5, context: "\(fixture.id) backward 5 from frame \(middle + 5)")
        verifyStep(
            engine.step(.backward, count: 5), engine: engine, oracle: oracle, direction: .backward, count: 5,
            expected: middle - 5, moved: 5, context: "\(fixture.id) backward 5 from frame \(middle)")
    }

    @Test(
        "Before any landing the current frame is frame 0: forward lands on 1, backward is startOfStream",
        arguments: FixtureCatalog.video)
    func beforeAnyLanding(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let backward = try openEngine(fixture)
        let report = backward.step(.backward, count: 1)
        #expect(report.result == .unavailable(.startOfStream), "\(fixture.id): \(report.result)")
        #expect(report.framesStepped == 0)
        let forward = try openEngine(fixture)
        verifyStep(
            forward.step(.forward, count: 1), engine: forward, oracle: oracle, direction: .forward, count: 1,
            expected: 1, moved: 1, context: "\(fixture.id) first step of a fresh engine")
    }

    @Test("Audio-only media: both directions are unavailable with audioOnly", arguments: FixtureCatalog.audio)
    func audioOnly(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        #expect(engine.media.selectedStream.mediaType == .audio)
        for direction in [FrameStepDirection.forward, .backward] {
            for count in [1, 5] {
                let report = engine.step(direction, count: count)
                #expect(report.result == .unavailable(.audioOnly), "\(fixture.id) \(direction) \(count): \(report.result)")
                #expect(report.result.unavailableReason == .audioOnly && !report.result.didStep)
                #expect(report.framesStepped == 0 && report.framesDecoded == 0)
                #expect(try engine.landedPicture() == nil)
            }
        }
        // After a landing too, and the landing stays current.
        let middle = oracle.count / 2
        let landing = try engine.seek(to: oracle.middle(middle), precision: .exact)
        #expect(landing.frame.index == middle)
        for direction in [FrameStepDirection.forward, .backward] {
            verifyUnavailable(
                engine.step(direction, count: 1), engine: engine, oracle: oracle, direction: direction,
                count: 1, reason: .audioOnly, current: middle, context: "\(fixture.id) \(direction) after a seek")
        }
        #expect(FrameStepUnavailableReason.audioOnly.explanation.lowercased().contains("video"))
    }

    @Test("A small cache stays within its byte bound through a backward walk over a 250-frame GOP")
    func smallCacheBound() throws {
        let fixture = try #require(FixtureCatalog.fixture(Self.longGOP))
        let oracle = try Oracle(fixture)
        let keyframes = oracle.keyframes
        try #require(keyframes.count >= 2 && keyframes[1] >= 200, "\(fixture.id): keyframes \(keyframes)")
        let start = keyframes[1] - 1  // the last frame of the first GOP
        let cacheBytes = 20 * (try Self.frameBytes(oracle)) + 1000
        let engine = try FFmpegEngine(
            path: fixture.path,
            options: .init(streamIndex: fixture.stream, threads: 1, cacheBytes: cacheBytes))
        try land(engine, on: start, oracle: oracle, context: fixture.id)
        #expect(engine.cacheUsedBytes <= cacheBytes)
        walk(
            engine, .backward, onto: stride(from: start - 1, through: 0, by: -1), oracle: oracle,
            context: "\(fixture.id) cache \(cacheBytes) B"
        ) { index in
            #expect(
                engine.cacheUsedBytes <= cacheBytes,
                "\(fixture.id): after the step to frame \(index) the cache holds \(engine.cacheUsedBytes) B > \(cacheBytes) B")
        }
        #expect(engine.cachePeakBytes <= cacheBytes, "peak \(engine.cachePeakBytes) B > bound \(cacheBytes) B")
        #expect(engine.cachePeakBytes > 0, "the cache held frames (room for about 20)")
    }

    @Test("With the cache off, backward steps across a keyframe still land right and nothing is cached")
    func cacheOff() throws {
        let fixture = try #require(FixtureCatalog.fixture(Self.longGOP))
        let oracle = try Oracle(fixture)
        let key = try #require(oracle.keyframes.last { $0 > 0 })
        let start = min(key + 8, oracle.lastIndex), end = key - 8
        let engine = try FFmpegEngine(
            path: fixture.path,
            options: .init(streamIndex: fixture.stream, threads: 1, cacheBytes: 0))
        try land(engine, on: start, oracle: oracle, context: fixture.id)
        walk(
            engine, .backward, onto: stride(from: start - 1, through: end, by: -1), oracle: oracle,
            context: "\(fixture.id) cache off")
        #expect(
            engine.cacheUsedBytes == 0 && engine.cachePeakBytes == 0,
            "cache off, yet used \(engine.cacheUsedBytes) B, peak \(engine.cachePeakBytes) B")
        // Forward again from there decodes on and lands right.
        verifyStep(
            engine.step(.forward, count: 3), engine: engine, oracle: oracle, direction: .forward, count: 3,
            expected: end + 3, moved: 3, context: "\(fixture.id) cache off: forward 3 from frame \(end)")
    }

    @Test("Variable frame rate: steps land on ffprobe's PTS by index, never on duration x n")
    func variableFrameRate() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_vfr.s0"))
        let oracle = try Oracle(fixture)
        let gaps = Set(oracle.frames.indices.dropLast().map { oracle.frames[$0 + 1].pts - oracle.frames[$0].pts })
        try #require(gaps.count >= 2, "\(fixture.id) has one frame gap \(gaps): not variable frame rate")
        let firstGap = oracle.frames[1].pts - oracle.frames[0].pts
        let driftsFrom = oracle.frames.indices.first { oracle.frames[$0].pts != oracle.frames[0].pts + Int64($0) * firstGap }
        #expect(driftsFrom != nil, "duration x n would land right everywhere: the fixture does not test VFR")

        for count in [1, 3] {
            let engine = try openEngine(fixture)
            try land(engine, on: 0, oracle: oracle, context: fixture.id)
            var landed: [MediaTime] = []
            var index = 0
            while index < oracle.lastIndex {
                let expected = min(index + count, oracle.lastIndex)
                let report = engine.step(.forward, count: count)
                verifyStep(
                    report, engine: engine, oracle: oracle, direction: .forward, count: count, expected: expected,
                    moved: expected - index, context: "\(fixture.id) forward \(count) from frame \(index)")
                guard case .stepped(_, let time) = report.result, report.frame?.index == expected else { return }
                landed.append(time)
                index = expected
            }
            let expectedTimes =
                stride(from: count, through: oracle.lastIndex, by: count).map { oracle.time($0) }
                + (oracle.lastIndex % count == 0 ? [] : [oracle.time(oracle.lastIndex)])
            #expect(landed == expectedTimes, "\(fixture.id) steps of \(count): landed times are ffprobe's PTS sequence")
            #expect(engine.step(.forward, count: count).result == .unavailable(.endOfStream))
        }
    }
}
