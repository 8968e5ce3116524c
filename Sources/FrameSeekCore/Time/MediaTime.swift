/// A point on a media timeline, kept as an exact rational number of seconds.
///
/// Video timestamps live on integer grids such as 1001/30000 s per frame, which `Double` cannot
/// represent; a seconds-based comparison then flips exactly at the frame boundaries that precise
/// seeking cares about. `MediaTime` keeps the integer `value` and `timescale` (like `CMTime`),
/// compares by exact cross multiplication and only derives `Double` seconds for display.
///
/// Two times are equal when they denote the same rational: 1/2 == 2/4, and they hash alike.
/// The non-numeric kinds mirror `CMTime` so code ported from AVFoundation keeps its meaning.
public struct MediaTime: Sendable {
    /// The non-numeric states exist so that "unknown" and "unbounded" durations can flow through
    /// arithmetic and comparison without optionals or sentinel numbers.
    public enum Kind: Sendable, Hashable {
        /// An ordinary rational time `value / timescale`.
        case numeric
        /// The result of a meaningless operation (such as +infinity + -infinity) or a bad timescale;
        /// it poisons arithmetic so that errors are not silently turned into numbers.
        case invalid
        /// Later than any number, e.g. the end of an unbounded live stream.
        case positiveInfinity
        /// Earlier than any number.
        case negativeInfinity
        /// A time that exists but is not known yet, e.g. the duration of a live stream.
        case indefinite
    }

    /// Count of ticks; the time is `value / timescale` seconds. Zero for non-numeric kinds.
    public let value: Int64
    /// Ticks per second; always > 0 for numeric times and 0 for the other kinds.
    public let timescale: Int32
    /// Whether this is a number or one of the special states.
    public let kind: Kind
    /// Set when producing this time lost precision (a conversion or a sum had to round, or
    /// saturated to an infinity), like `kCMTimeFlags_HasBeenRounded`. Sticky: results of
    /// arithmetic on a rounded operand stay flagged. Not part of equality or hashing, because it
    /// describes the history of a value rather than the value.
    public let hasBeenRounded: Bool

    /// Builds the exact time `value / timescale` seconds.
    ///
    /// A timescale <= 0 has no meaning as "ticks per second", so it yields ``invalid`` rather
    /// than trapping: timescales often come straight from files.
    public init(value: Int64, timescale: Int32) {
        if timescale > 0 {
            self.init(uncheckedValue: value, timescale: timescale, kind: .numeric, rounded: false)
        } else {
            self.init(uncheckedValue: 0, timescale: 0, kind: .invalid, rounded: false)
        }
    }

    /// Single funnel for every stored representation, so non-numeric kinds always carry 0/0.
    init(uncheckedValue value: Int64, timescale: Int32, kind: Kind, rounded: Bool) {
        if kind == .numeric {
            self.value = value
            self.timescale = timescale
        } else {
            self.value = 0
            self.timescale = 0
        }
        self.kind = kind
        self.hasBeenRounded = rounded
    }

    /// A special kind, optionally flagged as the product of rounding (e.g. overflow saturation).
    init(kind: Kind, rounded: Bool = false) {
        self.init(uncheckedValue: 0, timescale: kind == .numeric ? 1 : 0, kind: kind, rounded: rounded)
    }

    /// The start of the API timeline (0/1 s).
    public static let zero = MediaTime(value: 0, timescale: 1)
    /// The result of meaningless operations; compares greater than everything else.
    public static let invalid = MediaTime(kind: .invalid)
    /// Later than every number.
    public static let positiveInfinity = MediaTime(kind: .positiveInfinity)
    /// Earlier than every number.
    public static let negativeInfinity = MediaTime(kind: .negativeInfinity)
    /// A time not known yet; orders after all numbers but before +infinity, as in `CMTimeCompare`.
    public static let indefinite = MediaTime(kind: .indefinite)

    /// Converts seconds from a `Double` API to the nearest tick of `preferredTimescale`
    /// (half away from zero, as `CMTimeMakeWithSeconds` does).
    ///
    /// The product `seconds * timescale` is computed exactly from the Double's bits, not in
    /// floating point, so the nearest tick really is the nearest. `hasBeenRounded` is set only
    /// when the tick does not stand for the given Double: 0.1 at timescale 10 gives 1/10
    /// unflagged (1/10 is the number the literal 0.1 denotes), while 0.1 at timescale 3 gives
    /// 0/3, flagged. NaN gives ``invalid``; infinities, and finite values beyond `Int64` ticks,
    /// give the matching infinity (the latter flagged). A timescale <= 0 gives ``invalid``.
    public init(seconds: Double, preferredTimescale: Int32) {
        guard preferredTimescale > 0, !seconds.isNaN else {
            self = .invalid
            return
        }
        guard seconds.isFinite else {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
            return
        }
        let scale = Int128(preferredTimescale)
        let magnitude: Int128
        let exact: Bool
        if seconds == 0 {
            (magnitude, exact) = (0, true)
        } else {
            // |seconds| = significand * 2^exponent with an integer significand of <= 53 bits.
            let significand =
                Int128(seconds.significandBitPattern)
                | (seconds.isNormal ? Int128(1) << Double.significandBitCount : 0)
            // Subnormals have no implicit bit and a fixed exponent of -1074.
            let exponent =
                seconds.isNormal
                ? Int(seconds.exponentBitPattern) - 1075 : -1074
            let product = significand * scale  // < 2^85
            if exponent >= 0 {
                // The product is >= 2^52, so a shift beyond 40 overflows Int64 anyway; capping
                // keeps the shift inside Int128 (the product is < 2^85).
                let shifted = exponent > 40 ? Int128.max : product << exponent
                (magnitude, exact) = (shifted, true)
            } else if -exponent >= 100 {
                // The product is below 2^85, so the quotient is < 2^-15 tick: rounds to 0.
                (magnitude, exact) = (0, false)
            } else {
                let (q, isExact) = MediaTime.divide(
                    product, by: Int128(1) << -exponent,
                    rounding: .roundHalfAwayFromZero)
                (magnitude, exact) = (q, isExact)
            }
        }
        let signed = seconds < 0 ? -magnitude : magnitude
        guard let value = Int64(exactly: signed) else {
            self = MediaTime(kind: signed > 0 ? .positiveInfinity : .negativeInfinity, rounded: true)
            return
        }
        let standsForInput = Double(value) / Double(preferredTimescale) == seconds
        self.init(
            uncheckedValue: value, timescale: preferredTimescale, kind: .numeric,
            rounded: !(exact || standsForInput))
    }

    /// Seconds as a `Double`, for display and for `Double`-based APIs only: never compare or
    /// round-trip through it. Infinities map to ±infinity, invalid and indefinite to NaN.
    public var seconds: Double {
        switch kind {
        case .numeric: return Double(value) / Double(timescale)
        case .positiveInfinity: return .infinity
        case .negativeInfinity: return -.infinity
        case .invalid, .indefinite: return .nan
        }
    }

    /// True for ordinary rational times; arithmetic on anything else follows the kind rules.
    public var isNumeric: Bool { kind == .numeric }

    /// False only for ``invalid``; infinities and indefinite are valid, as in `CMTime`.
    public var isValid: Bool { kind != .invalid }
}

extension MediaTime: CustomStringConvertible {
    /// Shows the exact rational first, because that is what comparisons use, and the seconds
    /// (6 decimals, computed exactly rather than via `Double`) for humans, e.g.
    /// `1001/30000 (0.033367 s)`. Special kinds print as `invalid`, `+infinity`, `-infinity`,
    /// `indefinite`; a rounded time says so (`, rounded` inside the parentheses, or
    /// ` (rounded)` after a kind name) because silent precision loss is what we hunt for.
    public var description: String {
        let suffix = hasBeenRounded ? " (rounded)" : ""
        switch kind {
        case .invalid: return "invalid" + suffix
        case .positiveInfinity: return "+infinity" + suffix
        case .negativeInfinity: return "-infinity" + suffix
        case .indefinite: return "indefinite" + suffix
        case .numeric:
            let (micro, _) = MediaTime.divide(
                Int128(value) * 1_000_000, by: Int128(timescale),
                rounding: .roundHalfAwayFromZero)
            let sign = micro < 0 ? "-" : ""
            let whole = String(micro.magnitude / 1_000_000)
            let fraction = String(micro.magnitude % 1_000_000)
            let padded = String(repeating: "0", count: 6 - fraction.count) + fraction
            let rounded = hasBeenRounded ? ", rounded" : ""
            return "\(value)/\(timescale) (\(sign)\(whole).\(padded) s\(rounded))"
        }
    }
}
