import Testing
@testable import FrameSeekCore

@Suite("MediaTime basics")
struct MediaTimeTests {
    @Test func initializerAndConstants() {
        let t = MediaTime(value: 1001, timescale: 30000)
        #expect(t.value == 1001 && t.timescale == 30000 && t.kind == .numeric && !t.hasBeenRounded)
        #expect(t.isNumeric && t.isValid)
        #expect(MediaTime(value: 1, timescale: 0).kind == .invalid)
        #expect(MediaTime(value: 1, timescale: -1).kind == .invalid)
        #expect(MediaTime.zero.value == 0 && MediaTime.zero.isNumeric)
        #expect(!MediaTime.invalid.isValid && !MediaTime.invalid.isNumeric)
        for kind in [MediaTime.positiveInfinity, .negativeInfinity, .indefinite] {
            #expect(kind.isValid && !kind.isNumeric)
        }
    }

    /// (seconds, timescale, expected value, expected rounded). Expected ticks worked out by hand.
    static let fromSeconds: [(Double, Int32, Int64, Bool)] = [
        (0.5, 2, 1, false),
        (0.0, 600, 0, false),
        (-0.0, 600, 0, false),
        // The literal 0.1 stands for 1/10, so no rounding is reported...
        (0.1, 10, 1, false),
        (1.0 / 3.0, 3, 1, false),
        (1001.0 / 30000.0, 30000, 1001, false),
        (92.5, 1000, 92500, false),
        // ...but a grid that cannot hold the value is.
        (0.1, 3, 0, true),
        (0.25, 10, 3, true),  // 2.5 ticks, half away from zero
        (-0.25, 10, -3, true),
        (2.5, 1, 3, true),
        (-2.5, 1, -3, true),
        (0.0333, 30000, 999, false),
        (0.03336, 30000, 1001, true),  // 1000.8 ticks
        (Double.leastNonzeroMagnitude, 1000, 0, true),
        (4_611_686_018_427_387_904.0, 1, 1 << 62, false),  // 2^62 s: exact and beyond 2^53
        (1e15, 1000, 1_000_000_000_000_000_000, false)
    ]

    @Test(arguments: fromSeconds)
    func initFromSeconds(row: (Double, Int32, Int64, Bool)) {
        let (seconds, scale, value, rounded) = row
        let t = MediaTime(seconds: seconds, preferredTimescale: scale)
        #expect(t.kind == .numeric && t.value == value && t.timescale == scale, "\(seconds) -> \(t)")
        #expect(t.hasBeenRounded == rounded, "\(seconds) -> \(t)")
    }

    @Test func initFromSpecialSeconds() {
        #expect(MediaTime(seconds: .nan, preferredTimescale: 600).kind == .invalid)
        #expect(MediaTime(seconds: .infinity, preferredTimescale: 600).kind == .positiveInfinity)
        #expect(MediaTime(seconds: -.infinity, preferredTimescale: 600).kind == .negativeInfinity)
        #expect(MediaTime(seconds: 1, preferredTimescale: 0).kind == .invalid)
        #expect(MediaTime(seconds: 1, preferredTimescale: -600).kind == .invalid)
        let huge = MediaTime(seconds: 1e300, preferredTimescale: 600)
        #expect(huge.kind == .positiveInfinity && huge.hasBeenRounded)
        #expect(MediaTime(seconds: -1e300, preferredTimescale: 600).kind == .negativeInfinity)
        // 2^63 ticks is one past Int64.max.
        #expect(MediaTime(seconds: 9_223_372_036_854_775_808.0, preferredTimescale: 1).kind == .positiveInfinity)
        #expect(MediaTime(seconds: -9_223_372_036_854_775_808.0, preferredTimescale: 1).value == .min)
    }

    /// k/1024 is exact in Double; converted to milliseconds the nearest tick is computed here with
    /// integers only (half away from zero), independently of the Double-bits path.
    @Test(arguments: [UInt64(5), 17, 2024])
    func initFromSecondsMatchesIntegerRounding(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<2000 {
            let k = Int64.random(in: -(1 << 40)...(1 << 40), using: &rng)
            let numerator = k * 1000
            var expected = numerator / 1024
            let remainder = numerator % 1024
            if 2 * abs(remainder) >= 1024 { expected += numerator < 0 ? -1 : 1 }
            let t = MediaTime(seconds: Double(k) / 1024, preferredTimescale: 1000)
            #expect(t.value == expected && t.timescale == 1000, "\(k)/1024")
            #expect(MediaTime(seconds: Double(k) / 1024, preferredTimescale: 1024).value == k)
        }
    }

    @Test func secondsAreForDisplay() {
        #expect(MediaTime(value: 1, timescale: 2).seconds == 0.5)
        #expect(MediaTime(value: -925, timescale: 10).seconds == -92.5)
        #expect(MediaTime.positiveInfinity.seconds == .infinity)
        #expect(MediaTime.negativeInfinity.seconds == -.infinity)
        #expect(MediaTime.invalid.seconds.isNaN && MediaTime.indefinite.seconds.isNaN)
    }

    static let descriptions: [(MediaTime, String)] = [
        (MediaTime(value: 1001, timescale: 30000), "1001/30000 (0.033367 s)"),
        (MediaTime(value: -1001, timescale: 30000), "-1001/30000 (-0.033367 s)"),
        (MediaTime(value: 925, timescale: 10), "925/10 (92.500000 s)"),
        (MediaTime(value: 1, timescale: 2_000_000), "1/2000000 (0.000001 s)"),  // 0.5 µs rounds up
        (MediaTime(value: -1, timescale: 3_000_000), "-1/3000000 (0.000000 s)"),
        (.zero, "0/1 (0.000000 s)"),
        (MediaTime(value: .max, timescale: 1), "9223372036854775807/1 (9223372036854775807.000000 s)"),
        (MediaTime(seconds: 0.1, preferredTimescale: 3), "0/3 (0.000000 s, rounded)"),
        (.invalid, "invalid"),
        (.positiveInfinity, "+infinity"),
        (.negativeInfinity, "-infinity"),
        (.indefinite, "indefinite")
    ]

    @Test(arguments: descriptions)
    func description(row: (MediaTime, String)) {
        #expect(row.0.description == row.1)
        #expect("\(row.0)" == row.1)
    }
}
