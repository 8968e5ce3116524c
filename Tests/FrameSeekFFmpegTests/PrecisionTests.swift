// Clamping and keyframe precisions, with expectations computed from ffprobe's table.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("Clamping", .ffmpegLog)
struct ClampTests {
    @Test("-5 s lands on frame 0, clamped to start, delta exactly frame 0's time + 5 s", arguments: FixtureCatalog.all)
    func beforeStart(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        let minusFive = MediaTime(value: -5, timescale: 1)
        let landing = try engine.seek(to: minusFive, precision: .exact)
        #expect(landing.frame.index == 0)
        #expect(landing.frame.pts == oracle.frames[0].pts)
        #expect(landing.plan.clamp == .clampedToStart(oracle.time(0)), "clamp \(landing.plan.clamp)")
        #expect(landing.plan.clamp.didClamp)
        #expect(landing.plan.clamp.name == "start")
        #expect(landing.accuracy.requestedMediaTime == minusFive)
        #expect(landing.accuracy.landedMediaTime == oracle.time(0))
        #expect(
            landing.accuracy.deltaMediaTime == oracle.time(0) + MediaTime(value: 5, timescale: 1),
            "delta \(landing.accuracy.deltaMediaTime)")
        #expect(!landing.accuracy.withinRequestedTolerance, "frame 0 does not meet the window [-5 s, -5 s]")
        if let md5s = oracle.md5s { #expect(try engine.landedPicture()?.md5 == md5s[0]) }
    }

    @Test("10 s past the end lands on the last frame, clamped to end", arguments: FixtureCatalog.all)
    func pastEnd(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        let last = oracle.lastIndex
        let target = oracle.end(last) + MediaTime(value: 10, timescale: 1)
        let landing = try engine.seek(to: target, precision: .exact)
        #expect(landing.frame.index == last)
        #expect(landing.frame.pts == oracle.frames[last].pts)
        #expect(landing.plan.clamp == .clampedToEnd(oracle.time(last)), "clamp \(landing.plan.clamp)")
        #expect(landing.plan.clamp.name == "end")
        #expect(landing.accuracy.requestedMediaTime == target)
        #expect(landing.accuracy.deltaMediaTime == oracle.time(last) - target)
        if let md5s = oracle.md5s { #expect(try engine.landedPicture()?.md5 == md5s[last]) }
        // Back inside the range after a clamp: no clamp, the right frame.
        let back = try engine.seek(to: oracle.middle(0), precision: .exact)
        #expect(back.frame.index == 0)
        #expect(back.plan.clamp == SeekClamp.none)
    }
}

/// A precision with its window as the oracle computes it (nil = unbounded).
struct PrecisionCase: CustomStringConvertible {
    let precision: SeekPrecision
    let before: MediaTime?
    let after: MediaTime?
    var description: String { precision.description }

    static let previous = PrecisionCase(precision: .previousKeyframe, before: nil, after: .zero)
    static let next = PrecisionCase(precision: .nextKeyframe, before: .zero, after: nil)
    static func nearest(_ t: MediaTime) -> PrecisionCase {
        PrecisionCase(precision: .nearestKeyframe(tolerance: t), before: t, after: t)
    }
    static func tolerance(_ b: MediaTime, _ a: MediaTime) -> PrecisionCase {
        PrecisionCase(precision: .tolerance(before: b, after: a), before: b, after: a)
    }
}

@Suite("Keyframe precisions", .ffmpegLog)
struct KeyframePrecisionTests {
    /// Targets around keyframes, between them, and across the stream, all inside the range.
    static func targets(_ oracle: Oracle) -> [MediaTime] {
        let keys = oracle.keyframes
        let sampled = keys.count <= 6 ? keys : (0..<6).map { keys[$0 * (keys.count - 1) / 5] }
        var targets: [MediaTime] = []
        for k in sampled {
            targets.append(oracle.time(k))
            targets.append(oracle.middle(k))
            if k > 0 { targets.append(oracle.tickBefore(k)) }
        }
        for (a, b) in zip(sampled, sampled.dropFirst()) { targets.append(oracle.midpoint(a, b)) }
        for i in [0, oracle.count / 4, oracle.count / 2, 3 * oracle.count / 4, oracle.lastIndex] {
            targets.append(oracle.middle(i))
        }
        var unique: [MediaTime] = []
        for t in targets.sorted() where unique.last != t { unique.append(t) }
        return unique
    }

    static func cases(_ oracle: Oracle) -> [PrecisionCase] {
        let tick = oracle.time(ticks: 1)
        return [
            .previous, .next,
            .nearest(tick),
            .nearest(MediaTime(value: 1, timescale: 10)),
            .nearest(MediaTime(value: 1, timescale: 2)),
            .nearest(MediaTime(value: 2, timescale: 1)),
            .nearest(MediaTime(value: 100, timescale: 1)),
            .tolerance(MediaTime(value: 1, timescale: 4), MediaTime(value: 1, timescale: 1)),
            .tolerance(MediaTime(value: 3, timescale: 1), .zero)
        ]
    }

    /// Seeks, then checks the landing against `expected` from the oracle.
    static func check(
        _ engine: FFmpegEngine, _ oracle: Oracle, target: MediaTime, _ c: PrecisionCase,
        expected: Int, context: String
    ) throws {
        let landing = try engine.seek(to: target, precision: c.precision)
        #expect(landing.frame.index == expected, "\(context): landed on frame \(landing.frame.index), expected \(expected)")
        #expect(landing.frame.isKeyframe == oracle.frames[expected].isKey, "\(context)")
        #expect(landing.accuracy.requestedMediaTime == target, "\(context)")
        #expect(landing.accuracy.landedMediaTime == oracle.time(expected), "\(context)")
        #expect(landing.accuracy.deltaMediaTime == oracle.time(expected) - target, "\(context)")
        #expect(landing.plan.clamp == SeekClamp.none, "\(context): clamp \(landing.plan.clamp.name)")
        let within = oracle.intersects(expected, requested: target, before: c.before, after: c.after)
        #expect(landing.accuracy.withinRequestedTolerance == within, "\(context): withinRequestedTolerance")
        guard oracle.fixture.isVideo else {
            #expect(try engine.landedPicture() == nil, "\(context)")
            return
        }
        let picture = try #require(try engine.landedPicture(), "\(context): no picture")
        if let md5s = oracle.md5s, landing.frame.index == expected {
            #expect(picture.md5 == md5s[expected], "\(context): MD5 differs from framemd5 line \(expected)")
        }
        if oracle.fixture.hasBarcode {
            #expect(readBarcode(picture) == expected + oracle.fixture.barcodeOffset, "\(context): barcode")
        }
    }

    @Test(
        "previous / next / nearest keyframe and general tolerances land where the rules say",
        arguments: FixtureCatalog.all)
    func precisions(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        let targets = Self.targets(oracle)
        for c in Self.cases(oracle) {
            for target in targets {
                let expected = oracle.expectedLanding(at: target, before: c.before, after: c.after)
                try Self.check(
                    engine, oracle, target: target, c, expected: expected,
                    context: "\(fixture.id) \(c) at \(target) (\(target.seconds) s)")
            }
        }
    }

    @Test(
        "A target midway between two keyframes with both in the window goes to the earlier one",
        arguments: FixtureCatalog.all)
    func tiesGoToTheEarlierKeyframe(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let keys = oracle.keyframes
        let pairs = Array(zip(keys, keys.dropFirst()).prefix(4))
        guard !pairs.isEmpty else { return }  // a single keyframe: no tie possible
        let engine = try openEngine(fixture)
        for (a, b) in pairs {
            let middle = oracle.midpoint(a, b)
            let half = MediaTime(
                value: (oracle.frames[b].pts - oracle.frames[a].pts) * oracle.timeBaseNumerator,
                timescale: Int32(2 * oracle.timeBaseDenominator))
            for c in [PrecisionCase.nearest(half), .nearest(half + half), .tolerance(half, half)] {
                #expect(oracle.expectedLanding(at: middle, before: c.before, after: c.after) == a)
                try Self.check(
                    engine, oracle, target: middle, c, expected: a,
                    context: "\(fixture.id) tie between keyframes \(a) and \(b), \(c)")
            }
            // Just past the midpoint (one half tick) the later keyframe is nearer.
            let later = middle + MediaTime(value: oracle.timeBaseNumerator, timescale: Int32(2 * oracle.timeBaseDenominator))
            try Self.check(
                engine, oracle, target: later, .nearest(half + half), expected: b,
                context: "\(fixture.id) just past the midpoint of keyframes \(a) and \(b)")
        }
    }

    @Test(
        "With no keyframe at or before the target, previous-keyframe lands on frame 0",
        arguments: FixtureCatalog.all.filter { $0.id.hasPrefix("h264_editlist_midgop") || $0.id.hasPrefix("iphone_hevc_editlist") })
    func previousKeyframeWithoutKeyframe(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let firstKey = try #require(oracle.keyframes.first)
        #expect(firstKey > 0, "\(fixture.id): the first presented frame is not a keyframe")
        let engine = try openEngine(fixture)
        for index in [0, firstKey / 2, firstKey - 1] {
            try Self.check(
                engine, oracle, target: oracle.middle(index), .previous, expected: 0,
                context: "\(fixture.id) previous-keyframe from frame \(index)")
            try Self.check(
                engine, oracle, target: oracle.middle(index), .next, expected: firstKey,
                context: "\(fixture.id) next-keyframe from frame \(index)")
        }
    }
}
