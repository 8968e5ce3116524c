/// The exact sum or difference of two `MediaTime`s, for the comparisons that decide a landing.
///
/// `MediaTime`'s own `+` and `-` follow CMTime: where the least common multiple of the two
/// timescales passes `Int32`, the result is rounded onto the larger one. A target given to the
/// nanosecond (timescale 10^9) against a 1/30000 time base is such a pair, and a window edge or
/// a distance rounded by half a nanosecond can move a landing by a frame, or across a tie
/// between two keyframes. Here the fraction is kept whole: `(a * tb + b * ta) / (ta * tb)`,
/// under 2^95 over 2^62, and two of them are compared by multiplying across in 256 bits.
package struct ExactTime: Sendable, Comparable {
    /// What kind of time: special kinds follow `MediaTime`'s `+` and `-` (`CMTimeAdd`).
    package let kind: MediaTime.Kind
    /// The numerator, for a numeric time.
    private let numerator: Int128
    /// The denominator, positive, for a numeric time.
    private let denominator: Int128

    /// `time` itself.
    package init(_ time: MediaTime) {
        self.init(time, .zero, subtracting: false)
    }

    /// `lhs + rhs`, exact.
    package init(_ lhs: MediaTime, plus rhs: MediaTime) {
        self.init(lhs, rhs, subtracting: false)
    }

    /// `lhs - rhs`, exact.
    package init(_ lhs: MediaTime, minus rhs: MediaTime) {
        self.init(lhs, rhs, subtracting: true)
    }

    private init(_ lhs: MediaTime, _ rhs: MediaTime, subtracting: Bool) {
        if let special = MediaTime.specialResult(lhs, rhs, subtracting: subtracting) {
            (kind, numerator, denominator) = (special, 0, 1)
            return
        }
        let (a, ta) = (Int128(lhs.value), Int128(lhs.timescale))
        let (b, tb) = (Int128(rhs.value), Int128(rhs.timescale))
        kind = .numeric
        numerator = subtracting ? a * tb - b * ta : a * tb + b * ta
        denominator = ta * tb
    }

    /// The number of whole ticks of `timeBase` in this time, rounded toward negative infinity
    /// (`TimeBase.ticks(in:)`); nil for a time that is not a number or past 64-bit ticks.
    package func ticks(in timeBase: TimeBase) -> Int64? {
        guard kind == .numeric, timeBase.numerator > 0, timeBase.denominator > 0 else { return nil }
        // Under 2^95 times 2^31, over 2^62 times 2^31: both fit 128 bits.
        let (ticks, _) = MediaTime.divide(
            numerator * Int128(timeBase.denominator), by: denominator * Int128(timeBase.numerator),
            rounding: .towardNegativeInfinity)
        return Int64(exactly: ticks)
    }

    package static func == (lhs: ExactTime, rhs: ExactTime) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    /// The order of `MediaTime`'s `<`: kinds as `CMTimeCompare` ranks them, numbers exactly.
    package static func < (lhs: ExactTime, rhs: ExactTime) -> Bool {
        let (l, r) = (MediaTime.rank(of: lhs.kind), MediaTime.rank(of: rhs.kind))
        guard l == r else { return l < r }
        guard lhs.kind == .numeric else { return false }
        // Denominators are positive, so multiplying across keeps the direction; each product
        // is under 2^157, so it is taken whole: high half signed, low half unsigned.
        let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return left.high != right.high ? left.high < right.high : left.low < right.low
    }
}
