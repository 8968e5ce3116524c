// Equality, ordering and hashing compare the rational numbers exactly.
//
// Cross multiplication of an Int64 value by an Int32 timescale needs at most 95 bits, so Int128
// holds it without overflow; going through Double would merge neighbouring ticks once values are
// large (about 2^53 ticks) and would misorder 1001/30000 grids against decimal times.

extension MediaTime: Equatable {
    /// Equal when they denote the same rational (1/2 == 2/4), or when both are the same special
    /// kind (two invalid times are equal, as `CMTimeCompare` reports 0 for them).
    /// `hasBeenRounded` is ignored: it is history, not value.
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        guard lhs.kind == rhs.kind else { return false }
        guard lhs.kind == .numeric else { return true }
        if lhs.timescale == rhs.timescale { return lhs.value == rhs.value }
        return Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
    }
}

extension MediaTime: Comparable {
    /// Position of each kind in the `CMTimeCompare` order:
    /// -infinity < numbers < indefinite < +infinity < invalid.
    /// Invalid sorts last so that sorted arrays keep the garbage at the end.
    private var kindRank: Int { Self.rank(of: kind) }

    /// Where `kind` stands in that order (`ExactTime` orders by it too).
    static func rank(of kind: Kind) -> Int {
        switch kind {
        case .negativeInfinity: return 0
        case .numeric: return 1
        case .indefinite: return 2
        case .positiveInfinity: return 3
        case .invalid: return 4
        }
    }

    /// Exact order on numbers; kinds order as in `CMTimeCompare` (see ``Kind``), so the order is
    /// total and `min`/`max`/`sorted()` behave even with special values mixed in.
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        let (l, r) = (lhs.kindRank, rhs.kindRank)
        guard l == r else { return l < r }
        guard lhs.kind == .numeric else { return false }
        if lhs.timescale == rhs.timescale { return lhs.value < rhs.value }
        // Timescales are positive, so multiplying through keeps the direction.
        return Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
    }
}

extension MediaTime: Hashable {
    /// Hashes the reduced fraction so that equal rationals written at different timescales
    /// (1/2 and 2/4) hash alike, as `Hashable` requires given value-based `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        guard kind == .numeric else { return }
        let (numerator, denominator) = reduced
        hasher.combine(numerator)
        hasher.combine(denominator)
    }

    /// The fraction in lowest terms; 0 reduces to 0/1. Computed on magnitudes so that
    /// `Int64.min` does not overflow.
    var reduced: (value: Int64, timescale: Int32) {
        let divisor = MediaTime.gcd(value.magnitude, UInt64(timescale))
        // The divisor is positive (timescale > 0), so not even Int64.min can trap here.
        let scale = Int64(divisor)
        return (value / scale, Int32(Int64(timescale) / scale))
    }

    /// Euclid's algorithm; gcd(0, n) == n.
    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
