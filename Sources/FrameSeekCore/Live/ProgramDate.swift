import Foundation

/// An exact wall-clock instant: seconds since 1970-01-01T00:00:00Z as a ``MediaTime``.
///
/// EXT-X-PROGRAM-DATE-TIME ties media time to dates, and a seek by date subtracts a segment's
/// date from the requested one to find the offset inside the segment. `Foundation.Date` is a
/// `Double` of seconds since 2001, whose step near today's dates is about 0.1 µs: the offset
/// would come out as 9.999999881 s instead of 10 s, just off a frame boundary. So dates are kept
/// as exact rationals, every written fraction digit included ("…17.684Z" is 1709593337684/1000),
/// and `Date` is only used at the public API's edges.
///
/// The scale is POSIX time: every day has 86,400 seconds, so leap seconds do not exist here
/// (which is also how `Date` and HLS servers count).
public struct ProgramDate: Sendable, Hashable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z (negative before it), exact.
    public let sinceEpoch: MediaTime

    /// The instant `sinceEpoch` seconds after 1970-01-01T00:00:00Z.
    public init(sinceEpoch: MediaTime) {
        self.sinceEpoch = sinceEpoch
    }

    /// The instant a `Date` stands for, through the shortest decimal of its seconds since 1970.
    ///
    /// A `Date` made from a decimal such as `Date(timeIntervalSince1970: 1709593337.684)` gives
    /// back exactly that decimal (to the nanosecond), so a date typed by a user compares equal to
    /// the same date written in a playlist. Going through the binary value instead would give
    /// 1709593337.6840000152…
    public init(_ date: Date) {
        self.init(sinceEpoch: MediaTime(decimalSeconds: date.timeIntervalSince1970))
    }

    /// The nearest `Date`, for APIs that speak Foundation; precision below ~0.1 µs is lost.
    public var date: Date {
        Date(timeIntervalSince1970: sinceEpoch.seconds)
    }

    /// The instant `interval` later (earlier when negative).
    public func advanced(by interval: MediaTime) -> ProgramDate {
        ProgramDate(sinceEpoch: sinceEpoch + interval)
    }

    /// The exact time from `self` to `other` (negative when `other` is earlier).
    public func interval(to other: ProgramDate) -> MediaTime {
        other.sinceEpoch - sinceEpoch
    }

    /// Chronological order, exact.
    public static func < (lhs: ProgramDate, rhs: ProgramDate) -> Bool {
        lhs.sinceEpoch < rhs.sinceEpoch
    }

    /// RFC 3339 in UTC with milliseconds, e.g. `2024-03-04T23:02:17.684Z`, the form HLS
    /// playlists and most logs use. Finer digits are cut (not rounded) so that a date never
    /// prints as the next millisecond, or the next day, before it happens.
    public var iso8601: String { iso8601(fractionDigits: 3) }

    /// RFC 3339 in UTC with `fractionDigits` (0...9, clamped) fraction digits, cut toward the
    /// past like ``iso8601``.
    public func iso8601(fractionDigits: Int) -> String {
        let digits = max(0, min(fractionDigits, HLSDecimal.maxFractionDigits))
        let scale = HLSDecimal.power10(digits)
        guard sinceEpoch.isNumeric else { return sinceEpoch.description }
        let (ticks, _) = MediaTime.divide(
            Int128(sinceEpoch.value) * scale, by: Int128(sinceEpoch.timescale),
            rounding: .towardNegativeInfinity)
        // Floor division so that instants before 1970 land on the right day.
        let (wholeSeconds, fraction) = ProgramDate.floorDivide(ticks, scale)
        let (days, secondOfDay) = ProgramDate.floorDivide(wholeSeconds, 86_400)
        let (year, month, day) = CivilCalendar.date(fromDaysSinceEpoch: Int64(days))
        // A year before 0000 (a date derived from one near it, less durations) is signed, as
        // ISO 8601's expanded years are: -0001 is the year before 0000.
        let pad = { (number: Int128, width: Int) -> String in
            let text = String(number.magnitude)
            return (number < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(Int128(year), 4))-\(pad(Int128(month), 2))-\(pad(Int128(day), 2))"
        text += "T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if digits > 0 { text += "." + pad(fraction, digits) }
        return text + "Z"
    }

    private static func floorDivide(_ numerator: Int128, _ denominator: Int128) -> (Int128, Int128) {
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        return remainder < 0 ? (quotient - 1, remainder + denominator) : (quotient, remainder)
    }
}

extension ProgramDate: CustomStringConvertible {
    /// RFC 3339 in UTC with as many fraction digits as the instant needs (at least 3, at most
    /// 9), so that two different dates never print alike in test failures and logs.
    public var description: String {
        guard sinceEpoch.isNumeric else { return sinceEpoch.description }
        let exactDigits = (3...HLSDecimal.maxFractionDigits).first { digits in
            Int128(sinceEpoch.value) * HLSDecimal.power10(digits) % Int128(sinceEpoch.timescale) == 0
        }
        return iso8601(fractionDigits: exactDigits ?? HLSDecimal.maxFractionDigits)
    }
}

/// The proleptic Gregorian calendar as day counts, after Howard Hinnant's public-domain
/// `days_from_civil` / `civil_from_days`: exact integer arithmetic, no time zones, no tables.
enum CivilCalendar {
    /// Days from 1970-01-01 to the given date (negative before it).
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    static func date(fromDaysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days in `month` of `year`: February has 29 in leap years (every 4th, except centuries
    /// not divisible by 400).
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
