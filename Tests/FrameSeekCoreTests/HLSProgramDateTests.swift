import Foundation
import FrameSeekTestSupport
import Testing
@testable import FrameSeekCore

/// Dates are checked against epoch seconds from `date -u -d TEXT +%s` (GNU coreutils), an
/// implementation independent of this parser, with the fraction digits written out by hand.
@Suite("HLS program dates")
struct HLSProgramDateTests {
    /// (text, exact seconds since the epoch as value/timescale).
    static let accepted: [(String, Int64, Int32)] = [
        ("2024-03-04T23:02:17.684Z", 1_709_593_337_684, 1000),
        ("2024-03-04T23:02:17Z", 1_709_593_337, 1),
        ("2024-03-05T04:32:17.684+05:30", 1_709_593_337_684, 1000),
        ("2024-03-05T04:32:17.684+0530", 1_709_593_337_684, 1000),
        ("2024-03-04T15:02:17.684-08:00", 1_709_593_337_684, 1000),
        ("2024-03-04T15:02:17.684-08", 1_709_593_337_684, 1000),
        ("2024-03-04t23:02:17.684z", 1_709_593_337_684, 1000),
        ("2024-03-04 23:02:17.684Z", 1_709_593_337_684, 1000),
        ("  2024-03-04T23:02:17.684Z ", 1_709_593_337_684, 1000),
        ("2000-02-29T00:00:00Z", 951_782_400, 1),
        ("2024-02-29T12:34:56Z", 1_709_210_096, 1),
        ("2100-03-01T12:00:00Z", 4_107_585_600, 1),
        ("1970-01-01T00:00:00Z", 0, 1),
        ("1969-12-31T23:59:59.5Z", -1, 2),
        ("1601-01-01T00:00:00Z", -11_644_473_600, 1),
        ("9999-12-31T23:59:59Z", 253_402_300_799, 1),
        // Every fraction length from 1 to 9 digits is kept exactly.
        ("2024-03-04T23:02:17.6Z", 17_095_933_376, 10),
        ("2024-03-04T23:02:17.68Z", 170_959_333_768, 100),
        ("2024-03-04T23:02:17.6841Z", 17_095_933_376_841, 10000),
        ("2024-03-04T23:02:17.68412Z", 170_959_333_768_412, 100_000),
        ("2024-03-04T23:02:17.684123Z", 1_709_593_337_684_123, 1_000_000),
        ("2024-03-04T23:02:17.6841234Z", 17_095_933_376_841_234, 10_000_000),
        ("2024-03-04T23:02:17.68412345Z", 170_959_333_768_412_345, 100_000_000),
        ("2024-03-04T23:02:17.684123456Z", 1_709_593_337_684_123_456, 1_000_000_000)
    ]

    @Test(arguments: accepted)
    func parsesExactly(row: (String, Int64, Int32)) throws {
        let (text, value, timescale) = row
        let date = try ProgramDate(parsing: text)
        #expect(date.sinceEpoch == MediaTime(value: value, timescale: timescale), "\(text) -> \(date.sinceEpoch)")
        #expect(!date.sinceEpoch.hasBeenRounded)
    }

    /// (text, a fragment the reason must contain).
    static let rejected: [(String, String)] = [
        ("2024-13-01T00:00:00Z", "month 13"),
        ("2024-00-01T00:00:00Z", "month 0"),
        ("2024-02-30T00:00:00Z", "day 30"),
        ("2023-02-29T00:00:00Z", "day 29"),
        ("2100-02-29T00:00:00Z", "day 29"),
        ("2024-04-31T00:00:00Z", "day 31"),
        ("2024-03-04T24:00:00Z", "hour 24"),
        ("2024-03-04T23:60:00Z", "minute 60"),
        ("2024-03-04T23:59:60Z", "leap second"),
        ("2024-03-04T23:59:60.0000000001Z", "leap second"),
        ("2024-03-04T23:59:61Z", "not below 60"),
        ("2024-03-04T23:02:17.684", "no time zone"),
        ("2024-03-04T23:02:17.684+25:00", "beyond"),
        ("2024-03-04T23:02:17.684+05:3", "offset"),
        ("2024-03-04T23:02:17.Z", "seconds"),
        ("2024-03-04T23:02:7Z", "seconds"),
        ("2024-03-04T23:02Z", "after the minute"),
        ("2024-3-04T23:02:17Z", "month must be 2 digits"),
        ("24-03-04T23:02:17Z", "year must be 4 digits"),
        ("2024/03/04T23:02:17Z", "after the year"),
        ("2024-03-04X23:02:17Z", "after the date"),
        ("2024-03-04T23:02:17ZZ", "after the Z"),
        ("", "year")
    ]

    @Test(arguments: rejected)
    func refusesInvalidDates(row: (String, String)) {
        let (text, fragment) = row
        #expect {
            _ = try ProgramDate(parsing: text)
        } throws: { error in
            let reason = (error as? ProgramDateParseError)?.reason ?? ""
            return reason.contains(fragment) && "\(error)".contains("\"\(text)\"")
        }
    }

    /// (seconds since the epoch, RFC 3339 with milliseconds, cut toward the past).
    static let printed: [(MediaTime, String)] = [
        (MediaTime(value: 1_709_593_337_684, timescale: 1000), "2024-03-04T23:02:17.684Z"),
        (MediaTime(value: 1_709_593_337_684_999_999, timescale: 1_000_000_000), "2024-03-04T23:02:17.684Z"),
        (MediaTime(value: 951_782_400, timescale: 1), "2000-02-29T00:00:00.000Z"),
        (MediaTime(value: -1, timescale: 2), "1969-12-31T23:59:59.500Z"),
        (MediaTime(value: -1, timescale: 1000), "1969-12-31T23:59:59.999Z"),
        (MediaTime(value: 253_402_300_799, timescale: 1), "9999-12-31T23:59:59.000Z")
    ]

    @Test(arguments: printed)
    func printsMillisecondsInUTC(row: (MediaTime, String)) {
        #expect(ProgramDate(sinceEpoch: row.0).iso8601 == row.1)
    }

    @Test func descriptionShowsEveryDigitNeeded() throws {
        #expect(
            try ProgramDate(parsing: "2024-03-04T23:02:17.684123456Z").description
                == "2024-03-04T23:02:17.684123456Z")
        #expect(try ProgramDate(parsing: "2024-03-04T23:02:17.5Z").description == "2024-03-04T23:02:17.500Z")
        #expect(
            try ProgramDate(parsing: "2024-03-04T23:02:17.684Z").iso8601(fractionDigits: 0)
                == "2024-03-04T23:02:17Z")
    }

    @Test func roundTripsPrintedDates() throws {
        for (time, text) in Self.printed where time.timescale <= 1000 {
            #expect(try ProgramDate(parsing: text).sinceEpoch == time)
        }
    }

    @Test func moreThanNineFractionDigitsRoundToNanosecondsFlagged() throws {
        let date = try ProgramDate(parsing: "2024-03-04T23:02:17.6841234565Z")
        #expect(date.sinceEpoch == MediaTime(value: 1_709_593_337_684_123_457, timescale: 1_000_000_000))
        #expect(date.sinceEpoch.hasBeenRounded)
    }

    /// Seconds that round up to 60 at the ninth fraction digit carry into the next minute, day
    /// and year, as Foundation's parser of the instant they round to says; a written 60 is still
    /// a leap second.
    @Test(arguments: [
        ("2024-12-31T23:59:59.9999999996Z", "2025-01-01T00:00:00Z"),
        ("2024-02-28T23:59:59.99999999951+01:00", "2024-02-28T23:00:00Z"),
        ("2023-02-28T23:59:59.9999999999Z", "2023-03-01T00:00:00Z")
    ])
    func secondsRoundedUpTo60Carry(text: String, instant: String) throws {
        let expected = try #require(ISO8601DateFormatter().date(from: instant))
        let date = try ProgramDate(parsing: text)
        #expect(date == ProgramDate(expected), "\(text) -> \(date)")
        #expect(date.sinceEpoch.hasBeenRounded)
    }

    /// Years before 0000 print signed, with at least four digits; the fields are GNU date's
    /// (`date -u -d @N`, whose proleptic Gregorian calendar runs before year 0).
    @Test(arguments: [-62_167_219_201, -62_198_755_200, -65_000_000_000, -1_000_000_000_000, -62_167_219_200] as [Int64])
    func yearsBeforeZeroPrintSigned(seconds: Int64) throws {
        let fields = try runTool(["date", "-u", "-d", "@\(seconds)", "+%Y|%m-%dT%H:%M:%S"])
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|")
        let year = try #require(Int(fields[0]))
        let digits = String(year.magnitude)
        let expected = (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        #expect(ProgramDate(sinceEpoch: MediaTime(value: seconds, timescale: 1)).iso8601 == "\(expected)-\(fields[1]).000Z")
    }

    @Test func foundationDatesKeepTheirDecimal() throws {
        let date = ProgramDate(Date(timeIntervalSince1970: 1_709_593_337.684))
        #expect(date == (try ProgramDate(parsing: "2024-03-04T23:02:17.684Z")))
        #expect(date.date.timeIntervalSince1970 == 1_709_593_337.684)
    }

    @Test func intervalsAreExact() throws {
        let start = try ProgramDate(parsing: "2024-03-04T23:02:17.684Z")
        let later = try ProgramDate(parsing: "2024-03-04T23:02:27.701Z")
        #expect(start.interval(to: later) == MediaTime(value: 10017, timescale: 1000))
        #expect(start.advanced(by: MediaTime(value: 10017, timescale: 1000)) == later)
        #expect(start < later)
    }
}
