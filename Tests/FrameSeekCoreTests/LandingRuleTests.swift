import Testing
@testable import FrameSeekCore

/// The landing rules checked against a brute-force reading of DESIGN.md on synthetic frame
/// tables, where every time is a whole number of ticks and the expected landing comes from a
/// linear scan in integers (no MediaTime arithmetic in the oracle).
struct LandingRuleTests {
    /// A synthetic stream: frame i at `starts[i]` ticks of 1001/30000-style time base.
    struct Stream: CustomTestStringConvertible, Sendable {
        let name: String
        let starts: [Int64]  // presentation start of each frame, in ticks, increasing
        let keys: Set<Int>  // keyframe indices
        let lastDuration: Int64
        let timeBase = TimeBase(numerator: 1001, denominator: 30000)
        var testDescription: String { name }

        var table: FrameTable {
            let frames = starts.indices.map { i in
                let duration = i + 1 < starts.count ? starts[i + 1] - starts[i] : lastDuration
                return FrameEntry(
                    index: i, pts: starts[i], time: timeBase.time(ofTicks: starts[i]),
                    durationTicks: duration, duration: timeBase.time(ofTicks: duration),
                    isKeyframe: keys.contains(i), decodeOrder: i, packetPosition: nil)
            }
            var points = keys.sorted().map { RandomAccessPoint(pts: starts[$0], dts: nil, decodeOrder: $0, frameIndex: $0) }
            if !keys.contains(0) {
                // An edit list dropped the keyframe the first frames need.
                points.insert(RandomAccessPoint(pts: starts[0] - 5, dts: nil, decodeOrder: -1, frameIndex: nil), at: 0)
            }
            return FrameTable(
                streamIndex: 0, timeBase: timeBase, originPTS: 0, frames: frames,
                randomAccessPoints: points, source: .packetScan)
        }

        func end(_ i: Int) -> Int64 { i + 1 < starts.count ? starts[i + 1] : starts[i] + lastDuration }
    }

    static let streams: [Stream] = {
        var vfrStarts: [Int64] = [0]
        var generator = SeededGenerator(seed: 7)
        for _ in 1..<90 { vfrStarts.append(vfrStarts.last! + 1 + Int64(generator.next() % 3)) }
        return [
            Stream(name: "cfr gop 10", starts: (0..<60).map { Int64($0) }, keys: [0, 10, 20, 30, 40, 50], lastDuration: 1),
            Stream(name: "vfr sparse keys", starts: vfrStarts, keys: [0, 37, 61], lastDuration: 2),
            Stream(name: "edit list, first frame not key", starts: (0..<40).map { Int64($0) * 2 + 3 }, keys: [12, 30], lastDuration: 2),
            Stream(name: "single keyframe", starts: (0..<18).map { Int64($0) }, keys: [0], lastDuration: 1)
        ]
    }()

    /// Tolerances in ticks; nil means infinite.
    struct Window { let before: Int64?; let after: Int64? }

    static func precision(_ w: Window, _ tb: TimeBase) -> SeekPrecision {
        switch (w.before, w.after) {
        case (nil, 0): return .previousKeyframe
        case (0, nil): return .nextKeyframe
        case (0, 0): return .exact
        case let (b?, a?) where a == b: return .nearestKeyframe(tolerance: tb.time(ofTicks: b))
        case let (b, a):
            return .tolerance(
                before: b.map { tb.time(ofTicks: $0) } ?? .positiveInfinity,
                after: a.map { tb.time(ofTicks: $0) } ?? .positiveInfinity)
        }
    }

    static let windows: [Window] = [
        Window(before: 0, after: 0), Window(before: nil, after: 0), Window(before: 0, after: nil),
        Window(before: 3, after: 3), Window(before: 7, after: 7), Window(before: 2, after: 9), Window(before: 0, after: 4)
    ]

    /// DESIGN.md's rules, read literally, in integer ticks. Targets are in half ticks so that
    /// targets inside a frame are covered too.
    static func expected(_ s: Stream, halfTicks target: Int64, _ w: Window) -> (frame: Int, clamp: String) {
        let first = s.starts[0] * 2, lastStart = s.starts.last! * 2, lastEnd = s.end(s.starts.count - 1) * 2
        var t = target, clamp = "none"
        if t < first { t = first; clamp = "start" } else if t >= lastEnd { t = lastStart; clamp = "end" }
        let lo = w.before.map { t - $0 * 2 }, hi = w.after.map { t + $0 * 2 }
        var best: Int?
        for k in s.keys.sorted() {
            let kt = s.starts[k] * 2
            if let lo, kt < lo { continue }
            if let hi, kt > hi { continue }
            if let b = best, abs(kt - t) >= abs(s.starts[b] * 2 - t) { continue }
            best = k
        }
        if let best { return (best, clamp) }
        let from = lo ?? Int64.min
        let covering = s.starts.indices.last { s.starts[$0] * 2 <= from } ?? 0
        return (covering, clamp)
    }

    @Test("landings follow the rules for every precision", arguments: streams)
    func landingsMatchBruteForce(stream: Stream) throws {
        let table = stream.table
        let lastEnd = stream.end(stream.starts.count - 1) * 2
        for w in Self.windows {
            let precision = Self.precision(w, stream.timeBase)
            for target in stride(from: Int64(-6), through: lastEnd + 6, by: 1) {
                let time = MediaTime(value: target * 1001, timescale: 60000)
                let plan = try table.planLanding(at: time, precision: precision)
                let want = Self.expected(stream, halfTicks: target, w)
                #expect(
                    plan.frameIndex == want.frame && plan.clamp.name == want.clamp,
                    "\(stream.name) \(precision) target \(target) half-ticks: got \(plan.frameIndex)/\(plan.clamp.name), want \(want.frame)/\(want.clamp)"
                )
                #expect(plan.requested == time)
                // Decoding starts at the last random access point at or before the landing.
                let point = plan.randomAccessPoint
                #expect(point.pts <= stream.starts[plan.frameIndex])
                #expect(!table.randomAccessPoints.contains { $0.pts > point.pts && $0.pts <= stream.starts[plan.frameIndex] })

            }
        }
    }

    @Test("exact: one tick before a frame lands on the frame before", arguments: streams)
    func tickBoundaries(stream: Stream) throws {
        let table = stream.table
        for i in 1..<stream.starts.count {
            let on = stream.timeBase.time(ofTicks: stream.starts[i])
            let before = on - MediaTime(value: 1, timescale: 30000 * 1001)
            #expect(try table.planLanding(at: on, precision: .exact).frameIndex == i)
            #expect(try table.planLanding(at: before, precision: .exact).frameIndex == i - 1)
        }
    }

    @Test("clamped targets keep the requested time and report the move")
    func clampReportsMove() throws {
        let table = Self.streams[0].table
        let plan = try table.planLanding(at: MediaTime(value: -5, timescale: 1), precision: .exact)
        #expect(plan.frameIndex == 0)
        #expect(plan.clamp == .clampedToStart(.zero))
        #expect(plan.clamp.didClamp)
        #expect(plan.requested == MediaTime(value: -5, timescale: 1))
        let landing = SeekLanding(
            plan: plan, frame: table.frames[0], keyframeIndex: 0, framesDecoded: 1,
            demuxerSeeks: 1, latency: .zero)
        #expect(landing.accuracy.deltaMediaTime == MediaTime(value: 5, timescale: 1))
        #expect(!landing.accuracy.withinRequestedTolerance)
        let late = try table.planLanding(at: .positiveInfinity, precision: .exact)
        #expect(late.frameIndex == 59 && late.clamp.name == "end")
    }

    @Test("invalid and indefinite targets are refused", arguments: [MediaTime.invalid, .indefinite])
    func invalidTargets(time: MediaTime) {
        #expect(throws: LandingError.self) { try Self.streams[0].table.planLanding(at: time, precision: .exact) }
    }

    @Test("within tolerance is decided on the frame interval, exactly")
    func withinToleranceOnInterval() {
        let frameTime = MediaTime(value: 1001, timescale: 30000)
        let duration = MediaTime(value: 1001, timescale: 30000)
        func accuracy(_ requested: MediaTime) -> SeekAccuracy {
            SeekAccuracy(
                requested: requested, landed: frameTime, landedDuration: duration,
                toleranceBefore: .zero, toleranceAfter: .zero)
        }
        #expect(accuracy(frameTime).withinRequestedTolerance)
        #expect(accuracy(MediaTime(value: 3003, timescale: 60000)).withinRequestedTolerance)  // inside
        #expect(!accuracy(MediaTime(value: 2002, timescale: 30000)).withinRequestedTolerance)  // next frame's start
        #expect(accuracy(MediaTime(value: 2002 * 1000 - 1, timescale: 30_000_000)).withinRequestedTolerance)
        #expect(!accuracy(MediaTime(value: 1001 * 1000 - 1, timescale: 30_000_000)).withinRequestedTolerance)
    }

    @Test("precisions parse from the command-line spelling")
    func precisionParsing() throws {
        #expect(try SeekPrecision(parsing: "exact") == .exact)
        #expect(try SeekPrecision(parsing: "previous-keyframe") == .previousKeyframe)
        #expect(try SeekPrecision(parsing: "next-keyframe") == .nextKeyframe)
        #expect(try SeekPrecision(parsing: "nearest-keyframe:0.5") == .nearestKeyframe(tolerance: MediaTime(value: 1, timescale: 2)))
        #expect(
            try SeekPrecision(parsing: "tolerance:1001/30000,2")
                == .tolerance(before: MediaTime(value: 1001, timescale: 30000), after: MediaTime(value: 2, timescale: 1)))
        for bad in ["", "fast", "nearest-keyframe:", "nearest-keyframe:-1", "tolerance:1", "tolerance:nan,1"] {
            #expect(throws: SeekPrecisionParseError.self) { try SeekPrecision(parsing: bad) }
        }
    }
}
