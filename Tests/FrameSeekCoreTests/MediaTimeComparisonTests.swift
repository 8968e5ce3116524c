import Testing
@testable import FrameSeekCore

// Shared helpers for the MediaTime tests. Names are prefixed because other test files share this
// module.

/// An oracle for `v1/t1` vs `v2/t2` that shares nothing with the implementation: schoolbook
/// multiplication in 32-bit limbs and a limb-by-limb comparison, no Int128 and no Double.
enum MediaTimeTestOracle {
    /// `x * y` as three little-endian 32-bit limbs (the product has at most 96 bits).
    static func multiply(_ x: UInt64, _ y: UInt32) -> [UInt64] {
        let mask: UInt64 = 0xFFFF_FFFF
        let low = (x & mask) * UInt64(y)
        let high = (x >> 32) * UInt64(y) + (low >> 32)
        return [low & mask, high & mask, high >> 32]
    }

    /// -1, 0 or 1 as `v1/t1` is less than, equal to or greater than `v2/t2` (t1, t2 > 0).
    static func compare(_ v1: Int64, _ t1: Int32, _ v2: Int64, _ t2: Int32) -> Int {
        let s1 = v1.signum(), s2 = v2.signum()
        if s1 != s2 { return s1 < s2 ? -1 : 1 }
        if s1 == 0 { return 0 }
        let left = multiply(v1.magnitude, UInt32(t2)), right = multiply(v2.magnitude, UInt32(t1))
        for limb in (0..<3).reversed() where left[limb] != right[limb] {
            let magnitudeOrder = left[limb] < right[limb] ? -1 : 1
            return s1 > 0 ? magnitudeOrder : -magnitudeOrder  // larger magnitude is smaller if negative
        }
        return 0
    }
}

func mediaTimeHash(_ time: MediaTime) -> Int {
    var hasher = Hasher()
    hasher.combine(time)
    return hasher.finalize()
}

@Suite("MediaTime comparison")
struct MediaTimeComparisonTests {
    static let seeds: [UInt64] = [1, 42, 0xF5EE_C0DE]
    /// Frame grids as (ticks per frame, timescale): NTSC, millisecond, film, and a maximal timescale.
    static let grids: [(Int64, Int32)] = [(1001, 30000), (1, 1000), (1001, 24000), (3600, 90000), (1, .max)]

    /// n*g vs m*g must order exactly as n vs m, across the whole Int64 range of the grid.
    @Test(arguments: seeds, grids)
    func gridMultiplesOrderLikeTheirIndices(seed: UInt64, grid: (Int64, Int32)) {
        var rng = SeededGenerator(seed: seed)
        let limit = Int64.max / grid.0
        for _ in 0..<1000 {
            let n = Int64.random(in: -limit...limit, using: &rng)
            // Half of the pairs are neighbours (or identical) to exercise the one-tick boundary.
            let m =
                Bool.random(using: &rng)
                ? Int64.random(in: -limit...limit, using: &rng)
                : min(max(n + Int64.random(in: -2...2, using: &rng), -limit), limit)
            let a = MediaTime(value: n * grid.0, timescale: grid.1)
            let b = MediaTime(value: m * grid.0, timescale: grid.1)
            #expect((a < b) == (n < m), "\(a) vs \(b)")
            #expect((a == b) == (n == m), "\(a) vs \(b)")
            #expect((a > b) == (n > m), "\(a) vs \(b)")
            if n == m { #expect(mediaTimeHash(a) == mediaTimeHash(b)) }
        }
    }

    /// The same rational written at two timescales (p/q and pk/qk) is equal and hashes equal.
    @Test(arguments: seeds)
    func scaledRepresentationsAreEqualAndHashEqual(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<2000 {
            let q = Int32.random(in: 1...50_000, using: &rng)
            let k = Int32.random(in: 1...(Int32.max / q), using: &rng)
            let bound = Int64.max / Int64(k)
            let p = Int64.random(in: -bound...bound, using: &rng)
            let a = MediaTime(value: p, timescale: q)
            let b = MediaTime(value: p * Int64(k), timescale: q * k)
            #expect(a == b, "\(a) vs \(b)")
            #expect(!(a < b) && !(b < a), "\(a) vs \(b)")
            #expect(mediaTimeHash(a) == mediaTimeHash(b), "\(a) vs \(b)")
            #expect(Set([a, b]).count == 1)
        }
        #expect(MediaTime(value: 1, timescale: 2) == MediaTime(value: 2, timescale: 4))
        #expect(MediaTime(value: 0, timescale: 7) == .zero)
        #expect(mediaTimeHash(MediaTime(value: 0, timescale: 7)) == mediaTimeHash(.zero))
    }

    /// a/b vs (a*c ± 1)/(b*c): the second differs from the first by exactly 1/(b*c) by construction.
    @Test(arguments: seeds)
    func neighboursAcrossTimescalesByConstruction(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<2000 {
            let b = Int32.random(in: 1...100_000, using: &rng)
            let c = Int32.random(in: 2...(Int32.max / b), using: &rng)
            let bound = (Int64.max - 1) / Int64(c)
            let a = Int64.random(in: -bound...bound, using: &rng)
            let base = MediaTime(value: a, timescale: b)
            let above = MediaTime(value: a * Int64(c) + 1, timescale: b * c)
            let below = MediaTime(value: a * Int64(c) - 1, timescale: b * c)
            #expect(base < above && above > base && base != above, "\(base) vs \(above)")
            #expect(below < base && base > below && base != below, "\(below) vs \(base)")
        }
    }

    /// Arbitrary values and timescales, judged by the limb-arithmetic oracle.
    @Test(arguments: seeds)
    func randomPairsMatchIndependentOracle(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for index in 0..<3000 {
            // Mix full-range values with small ones so both signs, zero and ties all occur.
            let small = index % 3 == 0
            let v1 = small ? Int64.random(in: -50...50, using: &rng) : Int64.random(in: .min ... .max, using: &rng)
            var v2 = small ? Int64.random(in: -50...50, using: &rng) : Int64.random(in: .min ... .max, using: &rng)
            let t1 = small ? Int32.random(in: 1...12, using: &rng) : Int32.random(in: 1 ... .max, using: &rng)
            let t2 = small ? Int32.random(in: 1...12, using: &rng) : Int32.random(in: 1 ... .max, using: &rng)
            if index % 3 == 1 {
                // Near-ties: aim v2/t2 at v1/t1 with Double (only to pick candidates; the oracle
                // judges), then nudge by a tick so that either order and equality all occur.
                let aim = (Double(v1) / Double(t1) * Double(t2)).rounded()
                if let near = Int64(exactly: min(max(aim, -9.2e18), 9.2e18)) {
                    v2 = near + Int64.random(in: -1...1, using: &rng)
                }
            }
            let a = MediaTime(value: v1, timescale: t1), b = MediaTime(value: v2, timescale: t2)
            let truth = MediaTimeTestOracle.compare(v1, t1, v2, t2)
            #expect((a < b) == (truth < 0), "\(a) vs \(b)")
            #expect((a == b) == (truth == 0), "\(a) vs \(b)")
            if truth == 0 { #expect(mediaTimeHash(a) == mediaTimeHash(b), "\(a) vs \(b)") }
        }
    }

    /// Near 2^63 ticks of 1001/30000, neighbouring frames are 0.033 s apart but Double seconds
    /// (spacing 0.0625 s at 3e14 s) merge them; the exact comparison still separates them.
    @Test func oneTickApartWhereDoubleCannotTell() throws {
        var merged: [(MediaTime, MediaTime)] = []
        let top = Int64.max / 1001 - 1
        for n in (top - 999)...top {
            let a = MediaTime(value: n * 1001, timescale: 30000)
            let b = MediaTime(value: (n + 1) * 1001, timescale: 30000)
            #expect(a < b && a != b && b > a)
            if (n + 1) % 2 == 0 {
                // The same instant as b on a halved grid: exactly equal, and still after a.
                let b2 = MediaTime(value: (n + 1) * 1001 / 2, timescale: 15000)
                #expect(b2 == b && a < b2 && mediaTimeHash(b2) == mediaTimeHash(b))
            }
            if !(a.seconds < b.seconds) { merged.append((a, b)) }
        }
        // What a Double-based comparison would see: the same instant for two different frames.
        let (a, b) = try #require(merged.first, "expected Double seconds to merge neighbouring frames")
        #expect(a.seconds == b.seconds)
        #expect(a < b)
    }

    /// The classic: in Double 0.1 + 0.2 != 0.3; as rationals it is equal.
    @Test func decimalSumsAreExact() throws {
        #expect(0.1 + 0.2 != 0.3)
        let sum = try MediaTime(parsing: "0.1") + MediaTime(parsing: "0.2")
        #expect(sum == (try MediaTime(parsing: "0.3")))
        #expect(!sum.hasBeenRounded)
    }

    static let kindOrder: [MediaTime] = [
        .negativeInfinity,
        MediaTime(value: .min, timescale: 1),
        MediaTime(value: -1, timescale: .max),
        .zero,
        MediaTime(value: 1001, timescale: 30000),
        MediaTime(value: .max, timescale: 1),
        .indefinite,
        .positiveInfinity,
        .invalid
    ]

    /// -infinity < numbers < indefinite < +infinity < invalid, as CMTimeCompare orders them.
    @Test(arguments: kindOrder.indices, kindOrder.indices)
    func kindsOrderAsCMTimeCompare(i: Int, j: Int) {
        let a = Self.kindOrder[i], b = Self.kindOrder[j]
        #expect((a < b) == (i < j), "\(a) vs \(b)")
        #expect((a == b) == (i == j), "\(a) vs \(b)")
    }

    @Test func sameKindsAreEqualAndSortTotally() {
        #expect(MediaTime(value: 5, timescale: 0) == .invalid)
        #expect(MediaTime(value: 5, timescale: -3) == MediaTime.invalid)
        #expect(mediaTimeHash(MediaTime(value: 5, timescale: 0)) == mediaTimeHash(.invalid))
        #expect(MediaTime.indefinite == .indefinite && !(MediaTime.indefinite < .indefinite))
        #expect(MediaTime.positiveInfinity != .negativeInfinity)
        var rng = SeededGenerator(seed: 7)
        #expect(Self.kindOrder.shuffled(using: &rng).sorted() == Self.kindOrder)
        #expect(min(MediaTime.indefinite, .zero) == .zero)
        #expect(max(MediaTime.positiveInfinity, .invalid).kind == .invalid)
    }

    /// hasBeenRounded records history, not value: it must not affect ==, < or hashing.
    @Test func roundedFlagIsIgnoredByEqualityAndHashing() {
        let rounded = MediaTime(seconds: 0.1, preferredTimescale: 3)
        #expect(rounded.hasBeenRounded && rounded.value == 0)
        #expect(rounded == .zero && mediaTimeHash(rounded) == mediaTimeHash(.zero))
        let saturated = MediaTime(value: .max, timescale: 1) + MediaTime(value: 1, timescale: 1)
        #expect(saturated.hasBeenRounded && saturated == .positiveInfinity)
        #expect(mediaTimeHash(saturated) == mediaTimeHash(.positiveInfinity))
    }
}
