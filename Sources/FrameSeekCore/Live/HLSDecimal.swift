// Exact decimals as they appear in playlists and dates.
//
// EXTINF durations, HOLD-BACK and the seconds of a date are written in decimal. Reading them as
// `Double` would make "2.000000" and six "0.333333" segments drift off the frame grid, so the
// text becomes value / 10^k exactly, as `MediaTime(parsing:)` does for user input. This reader
// is stricter than that one (no sign, no units, no rationals, no clock form): playlists are
// machine-written and anything else is a mistake worth reporting.
//
// The text comes from a server, so any number of digits may arrive: every step is bounded so
// that no digit string can overflow, and a number that does not fit is told apart from one
// that is not a number, because the two call for different messages.

enum HLSDecimal {
    /// Why a text is not a number the caller can use.
    enum Failure: Error, Equatable {
        /// Not of the form asked for (a sign, a letter, an empty part).
        case malformed
        /// Well formed, but too large for the type it must fit.
        case outOfRange
    }

    /// Finest kept precision: 10^9 is the largest power of ten that fits a `MediaTime` timescale.
    static let maxFractionDigits = 9

    /// `digits[.digits]` as an exact non-negative time, or why not: `.malformed` when the text
    /// is not of that form, `.outOfRange` when it does not fit 64-bit ticks.
    ///
    /// More than nine fractional digits are rounded (half away from zero) to nanoseconds and the
    /// result flagged `hasBeenRounded`, rather than refused: a finer-than-nanosecond digit cannot
    /// matter to a seek, and refusing would make a whole playlist unreadable.
    static func nonNegative<S: StringProtocol>(_ text: S) -> Result<MediaTime, Failure> {
        let bytes = Array(text.utf8)
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        let integerBytes = bytes[..<(point ?? bytes.endIndex)]
        let fractionBytes = point.map { bytes[($0 + 1)...] } ?? []
        guard let integer = digits(integerBytes) else { return .failure(.malformed) }
        if point != nil && fractionBytes.isEmpty { return .failure(.malformed) }
        guard fractionBytes.isEmpty || digits(fractionBytes) != nil else { return .failure(.malformed) }
        let keptDigits = fractionBytes.prefix(maxFractionDigits)
        let scale = power10(keptDigits.count)
        // Capped at 2^64 (already beyond Int64) so that times 10^9 < 2^30 the product fits Int128.
        var ticks = min(integer, Int128(1) << 64) * scale + (digits(keptDigits) ?? 0)
        let droppedDigits = fractionBytes.dropFirst(maxFractionDigits)
        // Half away from zero on a non-negative number: the first dropped digit decides.
        if let firstDropped = droppedDigits.first, firstDropped >= UInt8(ascii: "5") { ticks += 1 }
        guard Int64(exactly: ticks) != nil else { return .failure(.outOfRange) }
        let rounded = droppedDigits.contains { $0 != UInt8(ascii: "0") }
        return .success(MediaTime.make(ticks, timescale: Int32(scale), rounded: rounded))
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

    /// A decimal-integer (RFC 8216 4.2: digits only, no sign) as an `Int`, or why not.
    static func integer<S: StringProtocol>(_ text: S) -> Result<Int, Failure> {
        guard let value = digits(text.utf8) else { return .failure(.malformed) }
        guard let number = Int(exactly: value) else { return .failure(.outOfRange) }
        return .success(number)
    }

    /// Why `text`, a decimal-integer that does not fit `Int`, is refused, for
    /// ``HLSPlaylistError/Cause/numberOutOfRange(tag:reason:)``; a long run of digits is cut.
    static func integerTooLarge<S: StringProtocol>(_ text: S) -> String {
        "\(HLSPlaylistError.excerpt(text)) is above the largest integer FrameSeek reads, \(Int.max)"
    }

    static func power10(_ exponent: Int) -> Int128 {
        (0..<exponent).reduce(Int128(1)) { product, _ in product * 10 }
    }
}
