import Testing
@testable import FrameSeekCore

@Suite("MediaTime parsing")
struct MediaTimeParsingTests {
    /// (input, exact value, exact timescale): the rational is stated, not derived.
    static let accepted: [(String, Int64, Int32)] = [
        ("92.5", 925, 10),
        ("0.1", 1, 10),
        ("-5", -5, 1),
        ("+3", 3, 1),
        ("0", 0, 1),
        ("-0", 0, 1),
        (".5", 5, 10),
        ("92.50", 9250, 100),
        ("0.123456789", 123_456_789, 1_000_000_000),
        ("92.5s", 925, 10),
        ("92.5 s", 925, 10),
        ("  7\t", 7, 1),
        ("1001/30000", 1001, 30000),
        ("-1001/30000", -1001, 30000),
        ("+1001/30000", 1001, 30000),
        ("1001/30000s", 1001, 30000),
        ("1/2147483647", 1, 2_147_483_647),
        ("00:01:32.500", 92500, 1000),
        ("01:32.5", 925, 10),
        ("1:32", 92, 1),
        ("-00:00:01.5", -15, 10),
        ("1:00:00", 3600, 1),
        ("100:59:59.999", 363_599_999, 1000),
        ("00:00:59.999999999", 59_999_999_999, 1_000_000_000),
        ("9223372036854775807", .max, 1),
        ("-9223372036854775808", .min, 1),
        ("-9223372036854775808/1", .min, 1),
        ("9223372036.854775807", .max, 1_000_000_000)
    ]

    @Test(arguments: accepted)
    func acceptsExactRationals(row: (String, Int64, Int32)) throws {
        let (input, value, timescale) = row
        let time = try MediaTime(parsing: input)
        #expect(time.kind == .numeric && time.value == value && time.timescale == timescale, "\(input) -> \(time)")
        #expect(!time.hasBeenRounded)
    }

    static let expected =
        "expected seconds such as 92.5, a rational such as 1001/30000, "
        + "or a clock time such as 00:01:32.500"

    /// (input, a fragment the reason must contain, so each rejection is specific).
    static let rejected: [(String, String)] = [
        ("", "empty"),
        ("   ", "empty"),
        ("nan", "NaN"),
        ("-NaN", "NaN"),
        ("inf", "infinity"),
        ("-Infinity", "infinity"),
        ("abc", expected),
        ("1.2.3", expected),
        ("5.", expected),
        (".", expected),
        ("-", expected),
        ("--5", expected),
        ("+-5", expected),
        ("1e3", expected),
        ("0x10", expected),
        ("5 5", expected),
        ("s", expected),
        ("5ss", expected),
        ("\u{0661}\u{0662}", expected),  // Arabic-Indic digits
        ("1/", expected),
        ("/2", expected),
        ("1/-2", expected),
        ("1.5/2", expected),
        ("1/2/3", expected),
        ("1:2:3:4", expected),
        ("01:", expected),
        (":30", expected),
        ("01:.5", expected),
        ("00:01:32.5s", expected),
        ("1.1234567890", "more than 9 fractional digits"),
        ("0.0000000001", "more than 9 fractional digits"),
        ("00:00:01.1234567890", "more than 9 fractional digits"),
        ("1/0", "timescale 0"),
        ("1/2147483648", "timescale 2147483648 is larger than 2147483647"),
        ("9223372036854775808", "too large"),
        ("-9223372036854775809", "too large"),
        ("9223372036854775808/1", "too large"),
        ("99999999999999999999999999999999999999999999", "too large"),
        ("922337203685477580.8", "too large"),
        ("2562047788015216:00:00", "too large"),
        ("00:60:00", "minutes field 60 must be below 60"),
        ("60:00", "minutes field 60 must be below 60"),
        ("00:00:60", "seconds field 60 must be below 60"),
        ("00:59:60.0", "seconds field 60.0 must be below 60"),
        ("00:00:99.5", "seconds field 99.5 must be below 60")
    ]

    @Test(arguments: rejected)
    func rejectsWithSpecificReason(row: (String, String)) {
        let (input, fragment) = row
        do {
            let time = try MediaTime(parsing: input)
            Issue.record("accepted \"\(input)\" as \(time)")
        } catch {
            #expect(error.input == input)
            #expect(error.reason.contains(fragment), "\(error)")
            #expect(error.description == "not a time: \"\(input)\" (\(error.reason))")
        }
    }

    @Test func garbageMessageMatchesTheDocumentedWording() {
        #expect(throws: MediaTimeParseError(input: "abc", reason: Self.expected)) {
            try MediaTime(parsing: "abc")
        }
        let error = MediaTimeParseError(input: "abc", reason: Self.expected)
        #expect(
            error.description == "not a time: \"abc\" (expected seconds such as 92.5, "
                + "a rational such as 1001/30000, or a clock time such as 00:01:32.500)")
    }

    /// Random decimals and rationals built as text from known integers parse to those integers.
    @Test(arguments: [UInt64(11), 12, 13])
    func generatedInputsRoundTrip(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<1000 {
            let digits = Int.random(in: 0...9, using: &rng)
            var scale: Int64 = 1
            for _ in 0..<digits { scale *= 10 }
            let whole = Int64.random(in: 0...(Int64.max / scale / 2), using: &rng)
            let fraction = Int64.random(in: 0..<scale, using: &rng)
            let negative = Bool.random(using: &rng)
            let raw = String(fraction)
            let fractionText = digits == 0 ? "" : "." + String(repeating: "0", count: digits - raw.count) + raw
            let text = (negative ? "-" : "") + String(whole) + fractionText
            let time = try MediaTime(parsing: text)
            let magnitude = whole * scale + fraction
            #expect(time.value == (negative ? -magnitude : magnitude) && time.timescale == Int32(scale), "\(text)")

            let value = Int64.random(in: .min ... .max, using: &rng)
            let timescale = Int32.random(in: 1 ... .max, using: &rng)
            let rational = try MediaTime(parsing: "\(value)/\(timescale)")
            #expect(rational.value == value && rational.timescale == timescale)
        }
    }

    /// Clock and decimal forms of the same instant agree exactly.
    @Test func clockAndDecimalAgree() throws {
        #expect(try MediaTime(parsing: "00:01:32.500") == MediaTime(parsing: "92.5"))
        #expect(try MediaTime(parsing: "01:32.5") == MediaTime(parsing: "185/2"))
        #expect(try MediaTime(parsing: "1:00:00.1") == MediaTime(parsing: "3600.1s"))
    }
}
