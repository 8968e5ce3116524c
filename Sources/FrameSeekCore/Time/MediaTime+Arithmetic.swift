// Sums, differences and timescale conversion.
//
// All intermediate products are done in Int128: an Int64 value times an Int32 timescale needs at
// most 95 bits, and one further Int32 factor at most 126 bits, so nothing here can overflow
// before we decide how to round or saturate.

/// How to pick a tick when an exact rational does not fall on the target grid.
///
/// The cases mirror `CMTimeRoundingMethod`; which one is right depends on the question (a frame
/// that *starts* at or before t wants `towardNegativeInfinity`, a display wants the nearest).
public enum MediaTimeRoundingMethod: Sendable {
    /// Nearest tick, ties away from zero; the default, as in CMTime.
    case roundHalfAwayFromZero
    /// Truncate.
    case towardZero
    /// Grow the magnitude to the next tick.
    case awayFromZero
    /// Floor.
    case towardNegativeInfinity
    /// Ceiling.
    case towardPositiveInfinity
}

extension MediaTime {
    /// Re-expresses the time in `newTimescale` ticks.
    ///
    /// Exact whenever the time falls on the new grid (1001/30000 -> 3003/90000); otherwise rounds
    /// with `rounding` and sets `hasBeenRounded`. A result beyond `Int64` ticks saturates to the
    /// matching infinity (flagged). Special kinds are returned unchanged, and a timescale <= 0
    /// gives ``invalid``, because there is no grid to land on.
    public func convertScale(
        _ newTimescale: Int32,
        rounding: MediaTimeRoundingMethod = .roundHalfAwayFromZero
    ) -> MediaTime {
        guard kind == .numeric else { return self }
        guard newTimescale > 0 else { return MediaTime(kind: .invalid, rounded: hasBeenRounded) }
        if newTimescale == timescale { return self }
        let (ticks, exact) = MediaTime.divide(
            Int128(value) * Int128(newTimescale),
            by: Int128(timescale), rounding: rounding)
        return MediaTime.make(ticks, timescale: newTimescale, rounded: hasBeenRounded || !exact)
    }

    /// Exact sum when the least common multiple of the timescales fits `Int32` and the value
    /// fits `Int64`; otherwise the sum is rounded (half away from zero) to the larger of the two
    /// timescales and flagged, and if even that overflows it saturates to ±infinity (flagged).
    ///
    /// Special kinds follow `CMTimeAdd`: invalid wins over everything; +inf + -inf is invalid;
    /// otherwise an infinity wins over numbers *and over indefinite* (indefinite + +inf ==
    /// +inf); indefinite wins over numbers.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        combine(lhs, rhs, subtracting: false)
    }

    /// `lhs + (-rhs)`, computed without negating `rhs` so that `Int64.min` values are safe.
    /// So +inf - +inf is invalid and a number - +inf is -inf.
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        combine(lhs, rhs, subtracting: true)
    }

    /// Mirrors the time around zero; infinities swap, invalid and indefinite stay.
    ///
    /// `-Int64.min` does not fit, so that one value is halved onto `timescale / 2` when the
    /// timescale is even (still exact) and otherwise becomes `Int64.max` ticks, one tick short,
    /// flagged as rounded.
    public static prefix func - (time: MediaTime) -> MediaTime {
        switch time.kind {
        case .positiveInfinity: return MediaTime(kind: .negativeInfinity, rounded: time.hasBeenRounded)
        case .negativeInfinity: return MediaTime(kind: .positiveInfinity, rounded: time.hasBeenRounded)
        case .invalid, .indefinite: return time
        case .numeric: break
        }
        if time.value != .min {
            return MediaTime(
                uncheckedValue: -time.value, timescale: time.timescale,
                kind: .numeric, rounded: time.hasBeenRounded)
        }
        if time.timescale % 2 == 0 {
            return MediaTime(
                uncheckedValue: 1 << 62, timescale: time.timescale / 2,
                kind: .numeric, rounded: time.hasBeenRounded)
        }
        return MediaTime(uncheckedValue: .max, timescale: time.timescale, kind: .numeric, rounded: true)
    }

    /// Absolute value, so durations between two times can be taken without caring about order.
    /// -infinity becomes +infinity; see prefix `-` for the `Int64.min` case.
    public var magnitude: MediaTime {
        switch kind {
        case .negativeInfinity: return -self
        case .numeric where value < 0: return -self
        default: return self
        }
    }

    // MARK: - Internals

    /// The kind rules shared by `+` and `-` (and `ExactTime`); `nil` means both operands are numeric.
    static func specialResult(_ lhs: MediaTime, _ rhs: MediaTime, subtracting: Bool) -> Kind? {
        var right = rhs.kind
        if subtracting {
            if right == .positiveInfinity { right = .negativeInfinity } else if right == .negativeInfinity { right = .positiveInfinity }
        }
        let left = lhs.kind
        if left == .invalid || right == .invalid { return .invalid }
        let isInfinite = { (kind: Kind) in kind == .positiveInfinity || kind == .negativeInfinity }
        switch (isInfinite(left), isInfinite(right)) {
        case (true, true): return left == right ? left : .invalid
        case (true, false): return left
        case (false, true): return right
        case (false, false):
            return left == .indefinite || right == .indefinite ? .indefinite : nil
        }
    }

    private static func combine(_ lhs: MediaTime, _ rhs: MediaTime, subtracting: Bool) -> MediaTime {
        let wasRounded = lhs.hasBeenRounded || rhs.hasBeenRounded
        if let kind = specialResult(lhs, rhs, subtracting: subtracting) {
            return MediaTime(kind: kind, rounded: wasRounded)
        }
        let (a, ta) = (Int128(lhs.value), Int128(lhs.timescale))
        let (b, tb) = (subtracting ? -Int128(rhs.value) : Int128(rhs.value), Int128(rhs.timescale))
        let common = ta / Int128(gcd(UInt64(lhs.timescale), UInt64(rhs.timescale))) * tb
        if common <= Int128(Int32.max) {
            let sum = a * (common / ta) + b * (common / tb)
            if let value = Int64(exactly: sum) {
                return MediaTime(
                    uncheckedValue: value, timescale: Int32(common), kind: .numeric,
                    rounded: wasRounded)
            }
        }
        // Exact sum is (a*tb + b*ta) / (ta*tb) (< 2^95 over < 2^62); land it on the larger scale.
        let target = max(lhs.timescale, rhs.timescale)
        let (ticks, exact) = divide(
            (a * tb + b * ta) * Int128(target), by: ta * tb,
            rounding: .roundHalfAwayFromZero)
        return make(ticks, timescale: target, rounded: wasRounded || !exact)
    }

    /// A numeric time from 128-bit ticks, saturating to an infinity (flagged) beyond `Int64`.
    static func make(_ ticks: Int128, timescale: Int32, rounded: Bool) -> MediaTime {
        guard let value = Int64(exactly: ticks) else {
            return MediaTime(kind: ticks > 0 ? .positiveInfinity : .negativeInfinity, rounded: true)
        }
        return MediaTime(uncheckedValue: value, timescale: timescale, kind: .numeric, rounded: rounded)
    }

    /// `numerator / denominator` rounded as asked, and whether no rounding was needed.
    /// `denominator` must be > 0. Shared with `init(seconds:)` and `description` so that every
    /// rounding in the type follows the same rules.
    static func divide(
        _ numerator: Int128, by denominator: Int128,
        rounding: MediaTimeRoundingMethod
    ) -> (quotient: Int128, exact: Bool) {
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        if remainder == 0 { return (quotient, true) }
        let awayStep: Int128 = numerator < 0 ? -1 : 1  // truncation went toward zero
        switch rounding {
        case .towardZero:
            return (quotient, false)
        case .awayFromZero:
            return (quotient + awayStep, false)
        case .towardNegativeInfinity:
            return (numerator < 0 ? quotient - 1 : quotient, false)
        case .towardPositiveInfinity:
            return (numerator > 0 ? quotient + 1 : quotient, false)
        case .roundHalfAwayFromZero:
            // |remainder| < denominator < 2^127, so doubling fits in UInt128.
            let half = remainder.magnitude * 2 >= denominator.magnitude
            return (half ? quotient + awayStep : quotient, false)
        }
    }
}
