// Reading times typed by users (command line, config, queries) as exact rationals.
//
// Going through Double would turn "0.1" into 0.1000000000000000055..., and a seek to a frame
// boundary typed in decimal would land one frame off. Instead a decimal with k fractional digits
// becomes value / 10^k exactly, a rational is kept as written, and a clock time is summed in
// integers.

/// Why user input is not a time; `reason` is meant to be shown to the user as is.
public struct MediaTimeParseError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The text as the user gave it, untrimmed, so messages quote exactly what was typed.
    public let input: String
    /// What is wrong, in words a user can act on.
    public let reason: String

    /// Errors are built by the parser, but callers wrapping other syntaxes may reuse the type.
    public init(input: String, reason: String) {
        self.input = input
        self.reason = reason
    }

    /// `not a time: "abc" (expected seconds such as 92.5, ...)`: the quoted input first so the
    /// user sees which argument was rejected.
    public var description: String { "not a time: \"\(input)\" (\(reason))" }

    /// The accepted forms, appended to messages about input that matched no form at all.
    static let expectedForms =
        "expected seconds such as 92.5, a rational such as 1001/30000, "
        + "or a clock time such as 00:01:32.500"
}

extension MediaTime {
    /// Parses a time typed by a user into an exact rational.
    ///
    /// Accepted, each with an optional leading `+` or `-` and surrounding spaces:
    /// - seconds: `92.5` (-> 925/10: the timescale is 10^digits, so `0.1` is exactly 1/10),
    ///   `5`, `.5`, optionally followed by `s` (`92.5s`, `92.5 s`);
    /// - a rational `value/timescale`: `1001/30000`, also with a trailing `s`;
    /// - a clock time `HH:MM:SS[.fraction]` or `MM:SS[.fraction]`: `00:01:32.500`, `01:32.5`,
    ///   with minutes and seconds below 60 (hours unbounded).
    ///
    /// Rejected with a specific reason: empty input, NaN and infinities (not a place to seek),
    /// more than 9 fractional digits (finer than nanoseconds, and 10^10 overflows `Int32`),
    /// a zero or beyond-`Int32` timescale, values overflowing `Int64` ticks, and anything else.
    public init(parsing text: String) throws(MediaTimeParseError) {
        func fail(_ reason: String) -> MediaTimeParseError {
            MediaTimeParseError(input: text, reason: reason)
        }
        var bytes = ArraySlice(text.utf8)
        MediaTime.trimSpaces(&bytes)
        guard !bytes.isEmpty else { throw fail("empty input; " + MediaTimeParseError.expectedForms) }

        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        let word = String(decoding: bytes, as: UTF8.self).lowercased()
        if word == "nan" { throw fail("NaN is not a time") }
        if ["inf", "infinity"].contains(word) { throw fail("infinity is not a time one can seek to") }

        let magnitude: Int128
        let timescale: Int128
        if bytes.contains(UInt8(ascii: ":")) {
            (magnitude, timescale) = try MediaTime.parseClock(bytes, fail: fail)
        } else {
            if bytes.last == UInt8(ascii: "s") {
                bytes = bytes.dropLast()
                MediaTime.trimSpaces(&bytes)
            }
            if let slash = bytes.firstIndex(of: UInt8(ascii: "/")) {
                guard let numerator = MediaTime.digits(bytes[..<slash]),
                    let denominator = MediaTime.digits(bytes[(slash + 1)...])
                else {
                    throw fail(MediaTimeParseError.expectedForms)
                }
                guard denominator != 0 else { throw fail("timescale 0: the part after / must be positive") }
                guard denominator <= Int128(Int32.max) else {
                    throw fail("timescale \(MediaTime.digitsText(bytes[(slash + 1)...])) is larger than \(Int32.max)")
                }
                (magnitude, timescale) = (numerator, denominator)
            } else {
                (magnitude, timescale) = try MediaTime.parseDecimal(bytes, fail: fail)
            }
        }
        guard let value = Int64(exactly: negative ? -magnitude : magnitude) else {
            throw fail("too large: the value does not fit in 64-bit ticks")
        }
        self.init(value: value, timescale: Int32(timescale))
    }

    /// Most digits a fraction may have: 10^9 is the largest power of ten that fits `Int32`.
    private static let maxFractionDigits = 9

    /// `12`, `12.5` or `.5` as an exact fraction over 10^k.
    private static func parseDecimal(
        _ bytes: ArraySlice<UInt8>, fail: (String) -> MediaTimeParseError
    ) throws(MediaTimeParseError) -> (Int128, Int128) {
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        let integerBytes = bytes[..<(point ?? bytes.endIndex)]
        let fractionBytes = point.map { bytes[($0 + 1)...] } ?? []
        // An omitted integer part (".5") is common; an empty fraction ("5.") is more likely a typo.
        let integer = integerBytes.isEmpty && point != nil ? 0 : digits(integerBytes)
        let fraction = point == nil ? 0 : digits(fractionBytes)
        guard let integer, let fraction else { throw fail(MediaTimeParseError.expectedForms) }
        guard fractionBytes.count <= maxFractionDigits else {
            throw fail("more than \(maxFractionDigits) fractional digits; nanoseconds are the finest supported")
        }
        let scale = power10(fractionBytes.count)
        return (integer * scale + fraction, scale)
    }

    /// `HH:MM:SS[.f]` or `MM:SS[.f]`, summed in integers over 10^k.
    private static func parseClock(
        _ bytes: ArraySlice<UInt8>, fail: (String) -> MediaTimeParseError
    ) throws(MediaTimeParseError) -> (Int128, Int128) {
        let fields = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { throw fail(MediaTimeParseError.expectedForms) }
        let secondsField = fields[fields.count - 1]
        // The seconds field must start with a digit: "01:.5" and "01:+5" are not clock times.
        guard let first = secondsField.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw fail(MediaTimeParseError.expectedForms)
        }
        let (seconds, scale) = try parseDecimal(secondsField, fail: fail)
        var whole: [Int128] = []
        for field in fields.dropLast() {
            guard let number = digits(field) else { throw fail(MediaTimeParseError.expectedForms) }
            whole.append(number)
        }
        let minutes = whole[whole.count - 1]
        let hours = whole.count == 2 ? whole[0] : 0
        guard minutes < 60 else { throw fail("minutes field \(digitsText(fields[fields.count - 2])) must be below 60") }
        guard seconds < 60 * scale else {
            throw fail("seconds field \(digitsText(secondsField)) must be below 60")
        }
        return ((hours * 3600 + minutes * 60) * scale + seconds, scale)
    }

    /// A run of ASCII digits as a number, or nil if empty or not all digits. Saturates at 2^80
    /// (far beyond any `Int64` result) so that absurdly long inputs cannot overflow `Int128`
    /// while the caller still sees "too large".
    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int128? {
        guard !bytes.isEmpty else { return nil }
        let cap = Int128(1) << 80
        var result: Int128 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            result = min(result * 10 + Int128(byte - UInt8(ascii: "0")), cap)
        }
        return result
    }

    /// The bytes as text, for quoting a field back in a message.
    private static func digitsText(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    private static func power10(_ exponent: Int) -> Int128 {
        (0..<exponent).reduce(Int128(1)) { product, _ in product * 10 }
    }

    /// Without Foundation there is no `trimmingCharacters`; spaces and tabs are all users type.
    private static func trimSpaces(_ bytes: inout ArraySlice<UInt8>) {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
    }
}

extension MediaTime {
    /// `value/timescale` exactly as stored (`45/10`), which `init(parsing:)` reads back to the
    /// same rational: the spelling for files that must round-trip, such as landing manifests.
    /// Non-numeric times spell their kind (`+infinity`, `invalid`, ...), which does not parse.
    public var rationalText: String {
        kind == .numeric ? "\(value)/\(timescale)" : description
    }

    /// The shortest spelling `init(parsing:)` reads back to exactly this time: decimal seconds
    /// when the time is a decimal of at most 9 fractional digits (`0.5`, `2`, `-1.25`), else
    /// the rational (`1001/30000`). `+infinity` spells `inf`, as tolerances accept it.
    public var exactText: String {
        switch kind {
        case .positiveInfinity: return "inf"
        case .numeric: break
        default: return description
        }
        let scale = Int128(timescale)
        for digits in 0...MediaTime.maxFractionDigits {
            let scaled = Int128(value) * MediaTime.power10(digits)
            guard scaled % scale == 0 else { continue }
            let units = scaled / scale
            let sign = units < 0 ? "-" : ""
            let whole = String(units.magnitude / UInt128(MediaTime.power10(digits)))
            guard digits > 0 else { return sign + whole }
            let fraction = String(units.magnitude % UInt128(MediaTime.power10(digits)))
            return sign + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return rationalText
    }
}
