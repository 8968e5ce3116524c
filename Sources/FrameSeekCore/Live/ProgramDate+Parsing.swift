// Reading RFC 3339 / ISO 8601 date-times, as EXT-X-PROGRAM-DATE-TIME writes them.
//
// Hand-written because `ISO8601DateFormatter` keeps at most milliseconds (and only when told
// to), rejects offsets without a colon and goes through `Double`; the exact instant matters
// here because seeks subtract dates. The grammar is small enough to check field by field.

/// Why a text is not a date-time; `reason` names the offending field.
public struct ProgramDateParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as given.
    public let input: String
    /// What is wrong, in words that point at the field.
    public let reason: String

    /// Built by the parser; public so wrappers of other syntaxes can reuse the type.
    public init(input: String, reason: String) {
        self.input = input
        self.reason = reason
    }

    /// `not a date: "2024-13-01T00:00:00Z" (month 13 is not 01...12)`.
    public var description: String { "not a date: \"\(input)\" (\(reason))" }
}

extension ProgramDate {
    /// The accepted form, quoted in messages about text that does not have it.
    static let expectedForm = "expected YYYY-MM-DDThh:mm:ss[.fraction] followed by Z, ±hh:mm, ±hhmm or ±hh"

    /// Parses an RFC 3339 date-time such as `2024-03-04T23:02:17.684Z` exactly.
    ///
    /// Accepted: a four-digit year; `T`, `t` or a space between date and time (RFC 3339 5.6
    /// allows the last two); seconds with any number of fraction digits (kept exactly up to
    /// nanoseconds, rounded beyond and flagged `hasBeenRounded`); `Z`/`z` or an offset
    /// `+hh:mm`, `-hh:mm`, `+hhmm` or `+hh` (ISO 8601 forms some encoders write). Surrounding
    /// spaces are ignored.
    ///
    /// Refused with the field named: months outside 1...12, days the month does not have
    /// (2023-02-29, 04-31), hour 24, minutes or seconds above 59, second 60 (a leap second has
    /// no place on the POSIX scale dates are kept on), offsets beyond 23:59, and missing parts.
    public init(parsing text: String) throws(ProgramDateParseError) {
        func fail(_ reason: String) -> ProgramDateParseError {
            ProgramDateParseError(input: text, reason: reason)
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let bytes = Array(trimmed.utf8)
        var cursor = 0
        /// Exactly `count` digits at the cursor, named `field` in errors.
        func number(_ count: Int, _ field: String) throws(ProgramDateParseError) -> Int64 {
            guard cursor + count <= bytes.count,
                let value = HLSDecimal.digits(bytes[cursor..<(cursor + count)])
            else {
                throw fail("\(field) must be \(count) digits; " + ProgramDate.expectedForm)
            }
            cursor += count
            return Int64(value)
        }
        func expect(_ separators: String, after field: String) throws(ProgramDateParseError) {
            guard cursor < bytes.count, separators.utf8.contains(bytes[cursor]) else {
                throw fail(
                    "expected \(separators.first.map { "\"\($0)\"" } ?? "") after the \(field); "
                        + ProgramDate.expectedForm)
            }
            cursor += 1
        }

        let year = try number(4, "year")
        try expect("-", after: "year")
        let month = try number(2, "month")
        try expect("-", after: "month")
        let day = try number(2, "day")
        try expect("Tt ", after: "date")
        let hour = try number(2, "hour")
        try expect(":", after: "hour")
        let minute = try number(2, "minute")
        try expect(":", after: "minute")

        // Seconds run up to the zone designator; their decimal is read exactly.
        let zoneStart = bytes[cursor...].firstIndex { "Zz+-".utf8.contains($0) } ?? bytes.count
        let secondsText = String(decoding: bytes[cursor..<zoneStart], as: UTF8.self)
        guard secondsText.utf8.prefix(while: { $0 != UInt8(ascii: ".") }).count == 2,
            let wholeSeconds = HLSDecimal.digits(secondsText.utf8.prefix(2)),
            case let .success(seconds) = HLSDecimal.nonNegative(secondsText)
        else {
            throw fail(
                "seconds \"\(secondsText)\" must be two digits with an optional fraction; "
                    + ProgramDate.expectedForm)
        }
        cursor = zoneStart

        guard (1...12).contains(month) else { throw fail("month \(month) is not 01...12") }
        let monthDays = CivilCalendar.daysIn(month: month, year: year)
        guard (1...monthDays).contains(day) else {
            throw fail("day \(day) does not exist in \(year)-\(month < 10 ? "0" : "")\(month), which has \(monthDays) days")
        }
        guard hour <= 23 else { throw fail("hour \(hour) is not 00...23") }
        guard minute <= 59 else { throw fail("minute \(minute) is not 00...59") }
        // The whole seconds as written, not `seconds`: a fraction rounded to nanoseconds can make
        // 59.9999999996 into 60, which carries into the next minute like any other sum.
        guard wholeSeconds < 60 else {
            throw fail(
                wholeSeconds == 60
                    ? "second 60 (a leap second) cannot be placed on the POSIX time scale"
                    : "seconds \(secondsText) are not below 60")
        }
        let offsetSeconds = try ProgramDate.zoneOffset(bytes[cursor...], fail: fail)

        // Four-digit years keep `whole` within ±2^39 s, but its sum with the seconds is kept in
        // ticks of their fraction: nanoseconds reach only to 2262 in 64 bits.
        let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        let whole = days * 86_400 + hour * 3600 + minute * 60 - offsetSeconds
        let sinceEpoch = MediaTime(value: whole, timescale: 1) + seconds
        guard sinceEpoch.isNumeric else {
            throw fail(
                "the date is too far from 1970 to be kept to \(secondsText.utf8.count - 3) fraction digits "
                    + "in 64 bits; write fewer fraction digits")
        }
        self.init(sinceEpoch: sinceEpoch)
    }

    /// `Z`, `±hh:mm`, `±hhmm` or `±hh` as seconds east of UTC.
    private static func zoneOffset(
        _ zone: ArraySlice<UInt8>, fail: (String) -> ProgramDateParseError
    ) throws(ProgramDateParseError) -> Int64 {
        guard let sign = zone.first else {
            throw fail("no time zone: a date needs Z or an offset such as +01:00 to be an instant")
        }
        if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
            guard zone.count == 1 else { throw fail("text after the Z; " + expectedForm) }
            return 0
        }
        var digits = Array(zone.dropFirst())
        if digits.count == 5, digits[2] == UInt8(ascii: ":") { digits.remove(at: 2) }
        guard digits.count == 4 || digits.count == 2,
            let hours = HLSDecimal.digits(digits.prefix(2)),
            let minutes = digits.count == 4 ? HLSDecimal.digits(digits.suffix(2)) : 0
        else {
            throw fail("offset \"\(String(decoding: zone, as: UTF8.self))\" is not ±hh:mm, ±hhmm or ±hh")
        }
        guard hours <= 23, minutes <= 59 else {
            throw fail("offset \"\(String(decoding: zone, as: UTF8.self))\" is beyond ±23:59")
        }
        let magnitude = Int64(hours * 3600 + minutes * 60)
        return sign == UInt8(ascii: "-") ? -magnitude : magnitude
    }
}
