import Testing
@testable import FrameSeekCore

@Suite("MediaTime arithmetic")
struct MediaTimeArithmeticTests {
    static let seeds: [UInt64] = [3, 99, 0xBADC_0FFE]

    /// Least common multiple by walking multiples: slow, obviously right, independent of gcd.
    static func bruteLCM(_ a: Int64, _ b: Int64) -> Int64 {
        var multiple = a
        while multiple % b != 0 { multiple += a }
        return multiple
    }

    @Test func sumOnTheLCMScaleIsExact() {
        let sum = MediaTime(value: 1, timescale: 3) + MediaTime(value: 1, timescale: 2)
        #expect(sum.value == 5 && sum.timescale == 6 && !sum.hasBeenRounded)
        #expect(sum == MediaTime(value: 5, timescale: 6))
        let difference = MediaTime(value: 1, timescale: 3) - MediaTime(value: 1, timescale: 2)
        #expect(difference.value == -1 && difference.timescale == 6 && !difference.hasBeenRounded)
        let ntsc = MediaTime(value: 1001, timescale: 30000) + MediaTime(value: 1, timescale: 90000)
        #expect(ntsc.value == 3004 && ntsc.timescale == 90000)
    }

    /// Random small operands: the result must sit on the brute-force LCM with the exact numerator.
    @Test(arguments: seeds)
    func randomSumsAreExactOnLCM(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<2000 {
            let ta = Int64.random(in: 1...2000, using: &rng), tb = Int64.random(in: 1...2000, using: &rng)
            let a = Int64.random(in: -(1 << 30)...(1 << 30), using: &rng)
            let b = Int64.random(in: -(1 << 30)...(1 << 30), using: &rng)
            let x = MediaTime(value: a, timescale: Int32(ta)), y = MediaTime(value: b, timescale: Int32(tb))
            let lcm = Self.bruteLCM(ta, tb)
            let sum = x + y, difference = x - y
            #expect(sum.timescale == Int32(lcm) && sum.value == a * (lcm / ta) + b * (lcm / tb), "\(x) + \(y)")
            #expect(difference.timescale == Int32(lcm) && difference.value == a * (lcm / ta) - b * (lcm / tb))
            #expect(!sum.hasBeenRounded && !difference.hasBeenRounded)
            #expect(sum - y == x && difference + y == x)
        }
    }

    /// lcm(2147483647, 2147483646) overflows Int32: the sum lands on the larger scale, rounded.
    @Test func fallbackToLargerTimescaleRoundsAndFlags() {
        let p = MediaTime(value: 1, timescale: 2_147_483_647), q = MediaTime(value: 1, timescale: 2_147_483_646)
        // Exact sum in ticks of 1/2147483647 s: 1 + 2147483647/2147483646 = 2.0000000005, nearest 2.
        let sum = p + q
        #expect(sum.timescale == 2_147_483_647 && sum.value == 2 && sum.hasBeenRounded)
        // 1 - 2147483647/2147483646 = -0.0000000005 ticks: rounds to 0, still flagged.
        let difference = p - q
        #expect(difference.value == 0 && difference.timescale == 2_147_483_647 && difference.hasBeenRounded)
        // When the larger scale happens to hold the exact result, nothing is flagged.
        let exact =
            MediaTime(value: 2_147_483_646, timescale: 2_147_483_646)
            + MediaTime(value: 2_147_483_647, timescale: 2_147_483_647)
        #expect(exact.value == 4_294_967_294 && exact.timescale == 2_147_483_647 && !exact.hasBeenRounded)
        let zero = MediaTime(value: 0, timescale: 2_147_483_647) + MediaTime(value: 0, timescale: 2_147_483_646)
        #expect(zero == .zero && !zero.hasBeenRounded)
    }

    /// lcm(2, 3) = 6 fits, but the value at 6 overflows Int64: fall back to scale 3.
    @Test func valueOverflowOnLCMFallsBackToLargerScale() {
        let exact = MediaTime(value: 4_000_000_000_000_000_000, timescale: 2) + MediaTime(value: 1, timescale: 3)
        #expect(exact.timescale == 3 && exact.value == 6_000_000_000_000_000_001 && !exact.hasBeenRounded)
        // (4e18 + 1)/2 + 1/3 = (6e18 + 2.5)/3: half away from zero gives 6e18 + 3.
        let rounded = MediaTime(value: 4_000_000_000_000_000_001, timescale: 2) + MediaTime(value: 1, timescale: 3)
        #expect(rounded.timescale == 3 && rounded.value == 6_000_000_000_000_000_003 && rounded.hasBeenRounded)
    }

    @Test func overflowSaturatesToInfinities() {
        let one = MediaTime(value: 1, timescale: 1)
        let up = MediaTime(value: .max, timescale: 1) + one
        #expect(up.kind == .positiveInfinity && up.hasBeenRounded)
        let down = MediaTime(value: .min, timescale: 1) - one
        #expect(down.kind == .negativeInfinity && down.hasBeenRounded)
        let twice = MediaTime(value: .max, timescale: 7) + MediaTime(value: .max, timescale: 7)
        #expect(twice.kind == .positiveInfinity)
        let flipped = MediaTime.zero - MediaTime(value: .min, timescale: 1)  // 2^63 s does not fit
        #expect(flipped.kind == .positiveInfinity && flipped.hasBeenRounded)
        // Int64.min is fine as long as the result fits.
        #expect(
            MediaTime(value: .min, timescale: 1) - MediaTime(value: -1, timescale: 1)
                == MediaTime(value: .min + 1, timescale: 1))
        #expect(MediaTime(value: .min, timescale: 1) + one == MediaTime(value: .min + 1, timescale: 1))
    }

    static let number = MediaTime(value: 1001, timescale: 30000)
    static let kinds: [MediaTime] = [.invalid, .positiveInfinity, .negativeInfinity, .indefinite, number]

    /// (lhs, rhs, kind of lhs + rhs, kind of lhs - rhs), following CMTimeAdd / CMTimeSubtract.
    static let kindRules: [(MediaTime, MediaTime, MediaTime.Kind, MediaTime.Kind)] = [
        (.positiveInfinity, .positiveInfinity, .positiveInfinity, .invalid),
        (.positiveInfinity, .negativeInfinity, .invalid, .positiveInfinity),
        (.negativeInfinity, .positiveInfinity, .invalid, .negativeInfinity),
        (.negativeInfinity, .negativeInfinity, .negativeInfinity, .invalid),
        (.positiveInfinity, number, .positiveInfinity, .positiveInfinity),
        (number, .positiveInfinity, .positiveInfinity, .negativeInfinity),
        (.negativeInfinity, number, .negativeInfinity, .negativeInfinity),
        (number, .negativeInfinity, .negativeInfinity, .positiveInfinity),
        (.indefinite, number, .indefinite, .indefinite),
        (number, .indefinite, .indefinite, .indefinite),
        (.indefinite, .indefinite, .indefinite, .indefinite),
        // An infinity beats indefinite, as in CMTimeAdd.
        (.indefinite, .positiveInfinity, .positiveInfinity, .negativeInfinity),
        (.positiveInfinity, .indefinite, .positiveInfinity, .positiveInfinity),
        (.negativeInfinity, .indefinite, .negativeInfinity, .negativeInfinity),
        (number, number, .numeric, .numeric)
    ]

    @Test(arguments: kindRules)
    func specialKindsFollowCMTime(rule: (MediaTime, MediaTime, MediaTime.Kind, MediaTime.Kind)) {
        let (lhs, rhs, plus, minus) = rule
        #expect((lhs + rhs).kind == plus, "\(lhs) + \(rhs)")
        #expect((lhs - rhs).kind == minus, "\(lhs) - \(rhs)")
    }

    /// Invalid poisons everything, on either side.
    @Test(arguments: kinds)
    func invalidWinsOverEverything(other: MediaTime) {
        #expect((MediaTime.invalid + other).kind == .invalid)
        #expect((other + .invalid).kind == .invalid)
        #expect((MediaTime.invalid - other).kind == .invalid)
        #expect((other - .invalid).kind == .invalid)
    }

    @Test func roundedFlagIsSticky() {
        let rounded = MediaTime(seconds: 0.25, preferredTimescale: 10)  // 2.5 ticks -> 3, flagged
        #expect(rounded.value == 3 && rounded.hasBeenRounded)
        #expect((rounded + .zero).hasBeenRounded && (MediaTime.zero - rounded).hasBeenRounded)
        #expect((-rounded).hasBeenRounded && rounded.convertScale(20).hasBeenRounded)
        #expect(!(MediaTime.zero + MediaTime(value: 3, timescale: 10)).hasBeenRounded)
    }

    /// (time, expected negation, expected rounded flag).
    static let negations: [(MediaTime, MediaTime, Bool)] = [
        (MediaTime(value: 5, timescale: 3), MediaTime(value: -5, timescale: 3), false),
        (.zero, .zero, false),
        // -Int64.min does not fit; an even timescale halves exactly, an odd one is one tick short.
        (MediaTime(value: .min, timescale: 2), MediaTime(value: 1 << 62, timescale: 1), false),
        (MediaTime(value: .min, timescale: 1), MediaTime(value: .max, timescale: 1), true),
        (.positiveInfinity, .negativeInfinity, false),
        (.negativeInfinity, .positiveInfinity, false),
        (.invalid, .invalid, false),
        (.indefinite, .indefinite, false)
    ]

    @Test(arguments: negations)
    func negation(row: (MediaTime, MediaTime, Bool)) {
        let (time, expected, rounded) = row
        let negated = -time
        #expect(negated == expected && negated.kind == expected.kind, "-(\(time))")
        #expect(negated.hasBeenRounded == rounded)
    }

    @Test func magnitude() {
        #expect(MediaTime(value: -1001, timescale: 30000).magnitude == MediaTime(value: 1001, timescale: 30000))
        #expect(MediaTime(value: 1001, timescale: 30000).magnitude == MediaTime(value: 1001, timescale: 30000))
        #expect(MediaTime.negativeInfinity.magnitude == .positiveInfinity)
        #expect(MediaTime.positiveInfinity.magnitude == .positiveInfinity)
        #expect(MediaTime.indefinite.magnitude == .indefinite && MediaTime.invalid.magnitude == .invalid)
        #expect(MediaTime(value: .min, timescale: 4).magnitude == MediaTime(value: 1 << 62, timescale: 2))
    }

    /// (value, timescale, new timescale, method, expected value, expected rounded).
    static let conversions: [(Int64, Int32, Int32, MediaTimeRoundingMethod, Int64, Bool)] = [
        (1001, 30000, 90000, .roundHalfAwayFromZero, 3003, false),
        (1001, 30000, 90000, .towardZero, 3003, false),
        (3, 6, 2, .towardNegativeInfinity, 1, false),
        (1, 3, 10, .roundHalfAwayFromZero, 3, true),
        (1, 3, 10, .towardZero, 3, true),
        (1, 3, 10, .awayFromZero, 4, true),
        (1, 3, 10, .towardNegativeInfinity, 3, true),
        (1, 3, 10, .towardPositiveInfinity, 4, true),
        (-1, 3, 10, .roundHalfAwayFromZero, -3, true),
        (-1, 3, 10, .towardZero, -3, true),
        (-1, 3, 10, .awayFromZero, -4, true),
        (-1, 3, 10, .towardNegativeInfinity, -4, true),
        (-1, 3, 10, .towardPositiveInfinity, -3, true),
        (1, 4, 2, .roundHalfAwayFromZero, 1, true),
        (-1, 4, 2, .roundHalfAwayFromZero, -1, true),
        (2, 3, 1, .roundHalfAwayFromZero, 1, true),
        (1001, 30000, 1000, .roundHalfAwayFromZero, 33, true),  // 33.3667 ms
        (.max, 1, 1, .towardZero, .max, false)
    ]

    @Test(arguments: conversions)
    func convertScale(row: (Int64, Int32, Int32, MediaTimeRoundingMethod, Int64, Bool)) {
        let (value, scale, newScale, method, expected, rounded) = row
        let converted = MediaTime(value: value, timescale: scale).convertScale(newScale, rounding: method)
        #expect(converted.value == expected && converted.timescale == newScale, "\(converted)")
        #expect(converted.hasBeenRounded == rounded)
    }

    @Test func convertScaleEdges() {
        let up = MediaTime(value: .max, timescale: 1).convertScale(2)
        #expect(up.kind == .positiveInfinity && up.hasBeenRounded)
        let down = MediaTime(value: .min, timescale: 1).convertScale(2)
        #expect(down.kind == .negativeInfinity && down.hasBeenRounded)
        #expect(MediaTime(value: 1, timescale: 2).convertScale(0).kind == .invalid)
        #expect(MediaTime(value: 1, timescale: 2).convertScale(-5).kind == .invalid)
        for special in [MediaTime.invalid, .positiveInfinity, .negativeInfinity, .indefinite] {
            #expect(special.convertScale(1000).kind == special.kind)
        }
    }

    /// Floor and ceiling conversions must bracket the original within one new tick.
    @Test(arguments: seeds)
    func floorAndCeilingBracketTheTime(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<1000 {
            let time = MediaTime(
                value: Int64.random(in: -(1 << 50)...(1 << 50), using: &rng),
                timescale: Int32.random(in: 1...1_000_000, using: &rng))
            let scale = Int32.random(in: 1...1_000_000, using: &rng)
            let floor = time.convertScale(scale, rounding: .towardNegativeInfinity)
            let ceiling = time.convertScale(scale, rounding: .towardPositiveInfinity)
            let tick = MediaTime(value: 1, timescale: scale)
            #expect(floor <= time && time < floor + tick, "\(time) -> \(floor)")
            #expect(ceiling >= time && time > ceiling - tick, "\(time) -> \(ceiling)")
            #expect((floor == ceiling) == !floor.hasBeenRounded)
        }
    }
}
