// Exact decimals as they appear in playlists and dates.
//
// EXTINF durations, HOLD-BACK and the seconds of a date are written in decimal. Reading them as
// `Double` would make "2.000000" and six "0.333333" segments drift off the frame grid, so the
// text becomes value / 10^k exactly, as `MediaTime(parsing:)` does for user input. This reader
// is stricter than that one (no sign, no units, no rationals, no clock form): playlists are
// machine-written and anything else is a mistake worth reporting.

enum HLSDecimal {
    /// Finest kept precision: 10^9 is the largest power of ten that fits a `MediaTime` timescale.
    static let maxFractionDigits = 9

    /// `digits[.digits]` as an exact non-negative time, or nil when the text is not of that form
    /// or does not fit 64-bit ticks.
    ///
    /// More than nine fractional digits are rounded (half away from zero) to nanoseconds and the
    /// result flagged `hasBeenRounded`, rather than refused: a finer-than-nanosecond digit cannot
    /// matter to a seek, and refusing would make a whole playlist unreadable.
    static func nonNegative<S: StringProtocol>(_ text: S) -> MediaTime? {
        let bytes = Array(text.utf8)
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        let integerBytes = bytes[..<(point ?? bytes.endIndex)]
        let fractionBytes = point.map { bytes[($0 + 1)...] } ?? []
        guard let integer = digits(integerBytes) else { return nil }
        if point != nil && fractionBytes.isEmpty { return nil }
        guard let fraction = fractionBytes.isEmpty ? 0 : digits(fractionBytes) else { return nil }
        let kept = min(fractionBytes.count, maxFractionDigits)
        let scale = power10(kept)
        var ticks = integer * scale
        var rounded = false
        if fractionBytes.count > maxFractionDigits {
            let dropped = power10(fractionBytes.count - maxFractionDigits)
            let (quotient, exact) = MediaTime.divide(fraction, by: dropped, rounding: .roundHalfAwayFromZero)
            ticks += quotient
            rounded = !exact
        } else {
            ticks += fraction
        }
        guard Int64(exactly: ticks) != nil else { return nil }
        return MediaTime.make(ticks, timescale: Int32(scale), rounded: rounded)
    }

    /// A run of ASCII digits, or nil if empty or not all digits. Saturates at 2^100 so that very
    /// long inputs cannot overflow `Int128`; callers then see a value too large for `Int64`.
    static func digits<C: Collection>(_ bytes: C) -> Int128? where C.Element == UInt8 {
        guard !bytes.isEmpty else { return nil }
        var result: Int128 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            result = min(result * 10 + Int128(byte - UInt8(ascii: "0")), Int128(1) << 100)
        }
        return result
    }

    /// A decimal-integer (RFC 8216 4.2: digits only, no sign) that fits `Int`.
    static func integer<S: StringProtocol>(_ text: S) -> Int? {
        digits(Array(text.utf8)).flatMap { Int(exactly: $0) }
    }

    static func power10(_ exponent: Int) -> Int128 {
        (0..<exponent).reduce(Int128(1)) { product, _ in product * 10 }
    }
}
