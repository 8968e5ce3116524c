import Testing

@testable import FrameSeekCore

/// Targets given to the nanosecond against a 1/30000 time base: the least common multiple of the
/// two timescales passes Int32, where `MediaTime`'s own sums round. The landing must still be
/// decided exactly. The oracle works in 128-bit integers on one common grid of 1/L s, with no
/// `MediaTime` arithmetic, so a window edge or a tie off by half a nanosecond shows.
struct ExactLandingTests {
    /// The common grid: every time below is a whole number of 1/L s.
    static let grid: Int128 = 1_000_000_000 * 30_000 * 6

    struct Stream: Sendable, CustomTestStringConvertible {
        let name: String
        /// Frame i starts at `i * step` ticks of 1/30000 s.
        let step: Int64
        let count: Int
        let keys: Set<Int>
        var testDescription: String { name }

        var table: FrameTable {
            let timeBase = TimeBase(numerator: 1, denominator: 30000)
            let frames = (0..<count).map { i in
                FrameEntry(
                    index: i, pts: Int64(i) * step, time: timeBase.time(ofTicks: Int64(i) * step),
                    durationTicks: step, duration: timeBase.time(ofTicks: step), isKeyframe: keys.contains(i),
                    decodeOrder: i, packetPosition: nil)
            }
            let points = keys.sorted().map { RandomAccessPoint(pts: Int64($0) * step, dts: nil, decodeOrder: $0, frameIndex: $0) }
            return FrameTable(
                streamIndex: 0, timeBase: timeBase, originPTS: 0, frames: frames, randomAccessPoints: points, source: .packetScan)
        }

        /// Frame i's start on the grid.
        func start(_ i: Int) -> Int128 { Int128(i) * Int128(step) * (ExactLandingTests.grid / 30000) }
    }

    /// The landing rules read literally on the grid (targets inside the stream: no clamp).
    static func expected(_ stream: Stream, target: Int128, before: Int128, after: Int128) -> Int {
        let (low, high) = (target - before, target + after)
        var best: Int?
        for k in stream.keys.sorted() where stream.start(k) >= low && stream.start(k) <= high {
            let distance = abs(stream.start(k) - target)
            if let b = best, distance >= abs(stream.start(b) - target) { continue }
            best = k
        }
        return best ?? (0..<stream.count).last { stream.start($0) <= low } ?? 0
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let stream: Stream
        /// Targets in nanoseconds.
        let targets: ClosedRange<Int64>
        /// Tolerances as fractions of a second (numerator, denominator); denominators divide 6.
        let before: (Int64, Int64)
        let after: (Int64, Int64)
        var testDescription: String { "\(stream.name), targets \(targets) ns" }
    }

    static let cases: [Case] = [
        // Keyframes at 31031 and 61061 ticks: the midpoint is 1.5348666... s, between two
        // nanoseconds, so 1.534866667 s is 1/3 ns nearer the later keyframe.
        Case(
            stream: Stream(name: "29.97 fps, keyframes 31 and 61", step: 1001, count: 90, keys: [0, 31, 61]),
            targets: 1_534_866_660...1_534_866_673, before: (1, 1), after: (1, 1)),
        // Keyframes at 29/3 s and 10.4 s; a window reaching back 1/3 s from 10 s starts exactly
        // on the first.
        Case(
            stream: Stream(name: "30 fps, keyframes at 29/3 s and 10.4 s", step: 1000, count: 330, keys: [0, 290, 312]),
            targets: 9_999_999_995...10_000_000_005, before: (1, 3), after: (1, 2)),
        // No keyframe in the window: the frame covering `T - 1/3` lands, and 10 s - 1/3 s is a
        // frame's start exactly. That catches a window start rounded down to the nanosecond.
        Case(
            stream: Stream(name: "30 fps, one keyframe", step: 1000, count: 330, keys: [0]),
            targets: 9_999_999_995...10_000_000_005, before: (1, 3), after: (0, 1)),
        // The same, with the window starting 1/3 ns before frame 300 (10 s) at 10.333333333 s:
        // rounded to the nearest nanosecond that start is 10 s, and frame 300 would land
        // instead of 299.
        Case(
            stream: Stream(name: "30 fps, one keyframe, window 1/3 ns before a frame", step: 1000, count: 330, keys: [0]),
            targets: 10_333_333_328...10_333_333_338, before: (1, 3), after: (0, 1))
    ]

    @Test("nanosecond targets land where exact arithmetic says, at window edges and ties", arguments: cases)
    func landsExactly(_ check: Case) throws {
        let table = check.stream.table
        let precision = SeekPrecision.tolerance(
            before: MediaTime(value: check.before.0, timescale: Int32(check.before.1)),
            after: MediaTime(value: check.after.0, timescale: Int32(check.after.1)))
        let before = Self.grid * Int128(check.before.0) / Int128(check.before.1)
        let after = Self.grid * Int128(check.after.0) / Int128(check.after.1)
        for nanoseconds in check.targets {
            let target = MediaTime(value: nanoseconds, timescale: 1_000_000_000)
            let plan = try table.planLanding(at: target, precision: precision)
            let want = Self.expected(check.stream, target: Int128(nanoseconds) * (Self.grid / 1_000_000_000), before: before, after: after)
            #expect(plan.frameIndex == want, "\(nanoseconds) ns: landed on frame \(plan.frameIndex), want \(want)")
            // The verdict is decided on the same exact window.
            let frame = table.frames[plan.frameIndex]
            let accuracy = SeekAccuracy(
                requested: target, landed: frame.time, landedDuration: frame.duration,
                toleranceBefore: precision.window.before, toleranceAfter: precision.window.after)
            let (start, end) = (check.stream.start(want), check.stream.start(want + 1))
            let target128 = Int128(nanoseconds) * (Self.grid / 1_000_000_000)
            #expect(accuracy.withinRequestedTolerance == (start <= target128 + after && end > target128 - before), "\(nanoseconds) ns")
        }
    }

    @Test("ExactTime orders sums that MediaTime's + rounds to one value")
    func exactTimeOrdersWhatRoundingMerges() {
        let a = MediaTime(value: 61061, timescale: 30000), b = MediaTime(value: 31031, timescale: 30000)
        let target = MediaTime(value: 1_534_866_667, timescale: 1_000_000_000)
        // Rounded onto nanoseconds the two distances are equal; exactly, a's is 1/3 ns shorter.
        #expect(a - target == target - b)
        #expect(ExactTime(a, minus: target) < ExactTime(target, minus: b))
        #expect(ExactTime(target, minus: b) > ExactTime(a, minus: target))
        #expect(ExactTime(.negativeInfinity) < ExactTime(a) && ExactTime(a) < ExactTime(.positiveInfinity))
        #expect(ExactTime(a, minus: a) == ExactTime(.zero))
    }
}
