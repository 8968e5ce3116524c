/// Literals and `Double` seconds as a person means them.
///
/// `0.5` written in code, or `92.5` passed as a `Double`, means the decimal the person typed,
/// not the nearest binary fraction. These initializers go through the shortest decimal that
/// round-trips the `Double` (Swift's own `description`), so `0.1` becomes exactly 1/10.
///
/// Only float literals: with integer literals too, `seek(to: -5)` would be ambiguous between
/// the `MediaTime` and the `Double` overloads.
extension MediaTime: ExpressibleByFloatLiteral {
    /// A time from a floating-point literal such as `0.5`.
    public init(floatLiteral value: Double) { self.init(decimalSeconds: value) }

    /// A time from `Double` seconds, read as the shortest decimal that round-trips them.
    ///
    /// NaN is invalid and infinities are the infinite kinds. A value whose shortest decimal
    /// needs more than nanoseconds is rounded to the nearest nanosecond and flagged.
    public init(decimalSeconds seconds: Double) {
        if seconds.isNaN { self = .invalid; return }
        if seconds.isInfinite { self = seconds > 0 ? .positiveInfinity : .negativeInfinity; return }
        if let exact = try? MediaTime(parsing: "\(seconds)") {
            self = exact
        } else {
            self.init(seconds: seconds, preferredTimescale: 1_000_000_000)
        }
    }
}
