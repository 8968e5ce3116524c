import Foundation
import FrameSeekTestSupport
import Testing
@testable import FrameSeekCore

/// Playlists whose numbers overflow what FrameSeek keeps. Each is an ``HLSPlaylistError`` naming
/// the tag and the line that shows the fault, never a trap (SIGILL, an overflowing arithmetic
/// operation); the line is found below by searching the playlist's own lines rather than counted
/// by hand.
@Suite("HLS hostile playlists")
struct HLSHostilePlaylistTests {
    static let base = URL(string: "https://origin.example/p.m3u8")!
    static let maxInt = String(Int.max)
    /// `Int.max` minus 807 (the last digits): still an offset a byte range can start at.
    static let nearMaxOffset = String(Int.max - 807)

    /// A playlist (lines joined with LF), the start of the line the error must name, and the
    /// tag it must name.
    struct Hostile: Sendable, CustomTestStringConvertible {
        let name: String
        let lines: [String]
        /// The expected line is the `occurrence`th (1-based) line starting with `culprit`.
        let culprit: String
        var occurrence = 1
        let tag: String

        var text: String { lines.joined(separator: "\n") }
        var testDescription: String { name }

        /// The 1-based number and text of the line the error must name.
        var expectedLine: (number: Int, text: String) {
            let matches = lines.indices.filter { lines[$0].hasPrefix(culprit) }
            let index = matches[occurrence - 1]
            return (index + 1, lines[index])
        }
    }

    static let header = ["#EXTM3U", "#EXT-X-TARGETDURATION:2"]
    static let twoSegments = ["#EXTINF:2,", "a.ts", "#EXTINF:2,", "b.ts"]

    static let hostile: [Hostile] = [
        Hostile(
            name: "media sequence at Int.max with two segments",
            lines: header + ["#EXT-X-MEDIA-SEQUENCE:\(maxInt)"] + twoSegments,
            culprit: "#EXT-X-MEDIA-SEQUENCE", tag: "EXT-X-MEDIA-SEQUENCE"),
        Hostile(
            name: "discontinuity sequence near Int.max with discontinuities after it",
            lines: header + ["#EXT-X-DISCONTINUITY-SEQUENCE:\(Int.max - 1)"]
                + ["#EXT-X-DISCONTINUITY", "#EXTINF:2,", "a.ts", "#EXT-X-DISCONTINUITY", "#EXTINF:2,", "b.ts"],
            culprit: "#EXT-X-DISCONTINUITY-SEQUENCE", tag: "EXT-X-DISCONTINUITY-SEQUENCE"),
        Hostile(
            name: "byte range continuing one that ends near Int.max",
            lines: header + [
                "#EXT-X-BYTERANGE:100@\(nearMaxOffset)", "#EXTINF:2,", "a.ts",
                "#EXT-X-BYTERANGE:1000", "#EXTINF:2,", "a.ts"
            ],
            culprit: "#EXT-X-BYTERANGE", occurrence: 2, tag: "EXT-X-BYTERANGE"),
        Hostile(
            name: "byte range whose own offset + length passes Int.max",
            lines: header + ["#EXT-X-BYTERANGE:1000@\(nearMaxOffset)", "#EXTINF:2,", "a.ts"],
            culprit: "#EXT-X-BYTERANGE", tag: "EXT-X-BYTERANGE"),
        Hostile(
            name: "map byte range passing Int.max",
            lines: header + ["#EXT-X-MAP:URI=\"init.mp4\",BYTERANGE=\"1000@\(nearMaxOffset)\""] + twoSegments,
            culprit: "#EXT-X-MAP", tag: "EXT-X-MAP"),
        Hostile(
            name: "byte range length beyond Int",
            lines: header + ["#EXT-X-BYTERANGE:99999999999999999999@0", "#EXTINF:2,", "a.ts"],
            culprit: "#EXT-X-BYTERANGE", tag: "EXT-X-BYTERANGE"),
        Hostile(
            name: "target duration whose hold-back overflows",
            lines: ["#EXTM3U", "#EXT-X-TARGETDURATION:4000000000000000000"] + twoSegments,
            culprit: "#EXT-X-TARGETDURATION", tag: "EXT-X-TARGETDURATION"),
        Hostile(
            name: "media sequence beyond Int",
            lines: header + ["#EXT-X-MEDIA-SEQUENCE:99999999999999999999"] + twoSegments,
            culprit: "#EXT-X-MEDIA-SEQUENCE", tag: "EXT-X-MEDIA-SEQUENCE"),
        Hostile(
            name: "version of a thousand digits",
            lines: header + ["#EXT-X-VERSION:" + String(repeating: "9", count: 1000)] + twoSegments,
            culprit: "#EXT-X-VERSION", tag: "EXT-X-VERSION"),
        Hostile(
            name: "EXTINF beyond 64-bit ticks",
            lines: header + ["#EXTINF:99999999999999999999.5,", "a.ts"],
            culprit: "#EXTINF", tag: "EXTINF"),
        Hostile(
            name: "EXTINF of forty digits with nine fraction digits",
            lines: header + ["#EXTINF:\(String(repeating: "9", count: 40)).123456789,", "a.ts"],
            culprit: "#EXTINF", tag: "EXTINF"),
        // Each duration fits (5e18 ns); their sum does not fit 64-bit nanoseconds.
        Hostile(
            name: "sum of EXTINF durations beyond 64-bit ticks",
            lines: ["#EXTM3U", "#EXT-X-TARGETDURATION:6000000000"]
                + ["#EXTINF:5000000000.000000000,", "a.ts", "#EXTINF:5000000000.000000000,", "b.ts"],
            culprit: "#EXTINF", occurrence: 2, tag: "EXTINF"),
        // 2300 in milliseconds fits; plus nanosecond durations it does not (2262 is the limit).
        Hostile(
            name: "segment dates beyond 64-bit ticks of the durations' precision",
            lines: header + ["#EXT-X-PROGRAM-DATE-TIME:2300-01-01T00:00:00.000Z", "#EXTINF:2.000000000,", "a.ts"],
            culprit: "a.ts", tag: "EXT-X-PROGRAM-DATE-TIME"),
        Hostile(
            name: "HOLD-BACK beyond 64-bit ticks",
            lines: header + ["#EXT-X-SERVER-CONTROL:HOLD-BACK=99999999999999999999"] + twoSegments,
            culprit: "#EXT-X-SERVER-CONTROL", tag: "EXT-X-SERVER-CONTROL"),
        Hostile(
            name: "BANDWIDTH beyond Int",
            lines: ["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=99999999999999999999", "v.m3u8"],
            culprit: "#EXT-X-STREAM-INF", tag: "EXT-X-STREAM-INF"),
        Hostile(
            name: "RESOLUTION beyond Int",
            lines: ["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=1x99999999999999999999", "v.m3u8"],
            culprit: "#EXT-X-STREAM-INF", tag: "EXT-X-STREAM-INF")
    ]

    @Test(arguments: hostile)
    func overflowIsAnErrorNamingTheLineAndTag(playlist: Hostile) {
        let expected = playlist.expectedLine
        do {
            let parsed = try HLSPlaylist.parse(text: playlist.text, url: Self.base)
            Issue.record("parsed to \(parsed) instead of failing")
        } catch {
            #expect(error.line == expected.number && error.text == expected.text, "\(error)")
            guard case let .numberOutOfRange(tag, _) = error.cause else {
                Issue.record("cause is \(error.cause), not numberOutOfRange")
                return
            }
            #expect(tag == playlist.tag)
            // The CLI prints `frameseek seek: URL: ` before the description.
            #expect(error.description.hasPrefix("line \(expected.number): \(playlist.tag) is out of range: "))
            // A long line is shown by its ends (aHugeLineIsShownByItsEnds).
            let shown = expected.text.count > 200 ? " (\(expected.text.count) characters))" : "(\(expected.text))"
            #expect(error.description.hasSuffix(shown))
        }
    }

    /// A megabyte line makes a message of one readable line: its start, its end and its length.
    @Test func aHugeLineIsShownByItsEnds() {
        let huge = "#EXTINF:" + String(repeating: "x", count: 1_000_000) + ","
        let lines = Self.header + [huge, "a.ts"]
        do {
            _ = try HLSMediaPlaylist(parsing: lines.joined(separator: "\n"), url: Self.base)
            Issue.record("parsed")
        } catch {
            #expect(error.line == 3 && error.text == huge)
            #expect(error.description.count < 500)
            #expect(error.description.hasSuffix("(\(huge.prefix(100))…\(huge.suffix(50)) (\(huge.count) characters))"))
        }
    }

    /// Each segment keeps its resolved URL, so a long one (a short name on a long base) is
    /// refused past 8 KiB: `https://origin.example/` is 23 bytes, the name the rest.
    @Test func aURIResolvedPastEightKiBIsRefused() throws {
        let name = String(repeating: "x", count: 8_192 - 23)
        let fits = try HLSMediaPlaylist(parsing: (Self.header + ["#EXTINF:2,", name]).joined(separator: "\n"), url: Self.base)
        #expect(fits.segments.map { $0.uri.absoluteString.utf8.count } == [8_192])
        #expect(throws: HLSPlaylistError(line: 4, text: name + "x", cause: .uriTooLong(length: 8_193, limit: 8_192))) {
            try HLSMediaPlaylist(parsing: (Self.header + ["#EXTINF:2,", name + "x"]).joined(separator: "\n"), url: Self.base)
        }
        let variant = "#EXT-X-STREAM-INF:BANDWIDTH=1"
        #expect(throws: HLSPlaylistError(line: 3, text: name + "x", cause: .uriTooLong(length: 8_193, limit: 8_192))) {
            try HLSMultivariantPlaylist(parsing: ["#EXTM3U", variant, name + "x"].joined(separator: "\n"), url: Self.base)
        }
    }

    /// Duplicate names are found by a set, not by searching the names read: 50,000 distinct
    /// names are read in order, and a repeat of the first is found at the end.
    @Test func aLongAttributeListIsReadInOrder() async throws {
        let names = (0..<50_000).map { "A\($0)" }
        let list = try await linearParse("the list") {
            try HLSAttributeList(parsing: Substring(names.map { $0 + "=1" }.joined(separator: ",")))
        }
        #expect(list.attributes.map(\.name) == names)
        let repeated = try await linearParse("the list with a repeat") {
            Result { try HLSAttributeList(parsing: Substring((names + ["A0"]).map { $0 + "=1" }.joined(separator: ","))) }
        }
        #expect(throws: HLSAttributeList.Malformed.self) { try repeated.get() }
    }

    /// The largest numbers that fit are still read: the limits are where the arithmetic ends,
    /// not below it.
    @Test func numbersAtTheLimitsAreRead() throws {
        let lines =
            ["#EXTM3U", "#EXT-X-TARGETDURATION:\(Int64.max / 3)", "#EXT-X-MEDIA-SEQUENCE:\(Int.max - 1)"]
            + ["#EXT-X-DISCONTINUITY-SEQUENCE:\(Int.max - 1)", "#EXT-X-BYTERANGE:807@\(Self.nearMaxOffset)"]
            + ["#EXTINF:2,", "a.ts", "#EXT-X-DISCONTINUITY", "#EXTINF:2,", "b.ts"]
        let playlist = try HLSMediaPlaylist(parsing: lines.joined(separator: "\n"), url: Self.base)
        #expect(playlist.segments.map(\.mediaSequence) == [Int.max - 1, Int.max])
        #expect(playlist.segments.map(\.discontinuitySequence) == [Int.max - 1, Int.max])
        #expect(playlist.segments[0].byteRange?.end == Int.max)
        #expect(playlist.effectiveHoldBack == MediaTime(value: Int64.max / 3 * 3, timescale: 1))
        #expect(playlist.effectiveHoldBack.isNumeric)
    }

    /// A target one above the limit is the first refused.
    @Test func targetDurationLimitIsExact() throws {
        let limit = Int(Int64.max / 3)
        let text = { (target: Int) in "#EXTM3U\n#EXT-X-TARGETDURATION:\(target)\n" }
        #expect(try HLSMediaPlaylist(parsing: text(limit), url: Self.base).targetDuration == limit)
        #expect(throws: HLSPlaylistError.self) { try HLSMediaPlaylist(parsing: text(limit + 1), url: Self.base) }
    }

    /// Fraction digits past nanoseconds are rounded however many there are (sixty here, more
    /// than a 128-bit power of ten holds); the first dropped digit decides, half away from zero.
    @Test(arguments: [
        ("1." + String(repeating: "0", count: 8) + "1" + "5" + String(repeating: "0", count: 50), 1_000_000_002, true),
        ("1." + String(repeating: "0", count: 8) + "1" + "4" + String(repeating: "9", count: 50), 1_000_000_001, true),
        ("1." + String(repeating: "0", count: 60), 1_000_000_000, false)
    ])
    func longFractionsRoundToNanoseconds(text: String, nanoseconds: Int64, rounded: Bool) throws {
        let duration = try #require(try? HLSDecimal.nonNegative(text).get())
        #expect(duration == MediaTime(value: nanoseconds, timescale: 1_000_000_000))
        #expect(duration.hasBeenRounded == rounded)
    }

    /// Nanosecond dates fit 64 bits only until 2262; later ones need fewer fraction digits.
    @Test func farProgramDatesAreRefusedOnlyWhenTheirPrecisionDoesNotFit() throws {
        let nanoseconds = "2300-01-01T00:00:00.000000000Z"
        let lines = Self.header + ["#EXT-X-PROGRAM-DATE-TIME:\(nanoseconds)", "#EXTINF:2,", "a.ts"]
        #expect {
            try HLSMediaPlaylist(parsing: lines.joined(separator: "\n"), url: Self.base)
        } throws: { error in
            guard let error = error as? HLSPlaylistError, case .badDate = error.cause else { return false }
            return error.line == 3 && error.text == lines[2]
                && error.description.contains("EXT-X-PROGRAM-DATE-TIME")
        }
        let days = CivilCalendar.daysSinceEpoch(year: 9999, month: 12, day: 31)
        let latest = try ProgramDate(parsing: "9999-12-31T23:59:59.999Z")
        #expect(latest.sinceEpoch == MediaTime(value: (days * 86_400 + 86_399) * 1000 + 999, timescale: 1000))
        #expect(try ProgramDate(parsing: "2300-01-01T00:00:00.000Z").sinceEpoch.isNumeric)
        let before2262 = Self.header + ["#EXT-X-PROGRAM-DATE-TIME:2200-01-01T00:00:00.000Z", "#EXTINF:2.000000000,", "a.ts"]
        let dated = try HLSMediaPlaylist(parsing: before2262.joined(separator: "\n"), url: Self.base)
        #expect(dated.segmentDates?.allSatisfy(\.sinceEpoch.isNumeric) == true)
    }
}

/// Reloads whose Media Sequence Number jumps far: each unseen number counts one target duration
/// on the timeline, which may not fit 64-bit ticks.
@Suite("HLS hostile reloads")
struct HLSHostileReloadTests {
    static let url = URL(string: "https://origin.example/live.m3u8")!

    static func live(from sequence: Int, target: Int, duration: String) throws -> HLSMediaPlaylist {
        let lines =
            ["#EXTM3U", "#EXT-X-TARGETDURATION:\(target)", "#EXT-X-MEDIA-SEQUENCE:\(sequence)"]
            + ["#EXTINF:\(duration),", "s\(sequence).ts", "#EXTINF:\(duration),", "s\(sequence + 1).ts"]
        return try HLSMediaPlaylist(parsing: lines.joined(separator: "\n"), url: url)
    }

    /// 10^18 unseen segments of 10 s is 10^19 s: beyond `Int64`, so a typed error and the
    /// timeline as it was.
    @Test func aJumpBeyondTheTimelineIsATypedErrorAndChangesNothing() throws {
        let first = try Self.live(from: 0, target: 10, duration: "10")
        var timeline = HLSTimeline(playlist: first)
        let before = timeline
        let jumped = 1_000_000_000_000_000_000
        #expect(throws: HLSTimelineError.timelineOverflow(mediaSequence: jumped)) {
            try timeline.reload(with: Self.live(from: jumped, target: 10, duration: "10"))
        }
        #expect(timeline == before)
        #expect(timeline.window.seekableRange == MediaTime.zero..<MediaTime(value: 20, timescale: 1))
    }

    /// The same jump with 4 s segments fits (4 x 10^18 s), and is placed exactly where the
    /// documented rule puts it: the last end seen plus one target duration per unseen number.
    @Test func aJumpThatFitsIsPlacedExactly() throws {
        var timeline = HLSTimeline(playlist: try Self.live(from: 0, target: 4, duration: "4"))
        let jumped = 1_000_000_000_000_000_000
        try timeline.reload(with: Self.live(from: jumped, target: 4, duration: "4"))
        let unseen = Int64(jumped - 1 - 1)  // 0 and 1 were seen
        let start = MediaTime(value: 8 + unseen * 4, timescale: 1)
        #expect(timeline.segmentStarts == [start, start + MediaTime(value: 4, timescale: 1)])
        #expect(timeline.window.liveEdge.isNumeric)
    }

    /// A start that fits but whose duration's precision does not: nanosecond durations after
    /// a start of 4 x 10^18 s overflow the sum, not the start.
    @Test func aSegmentEndingBeyondTheTimelineIsATypedError() throws {
        var timeline = HLSTimeline(playlist: try Self.live(from: 0, target: 4, duration: "4"))
        let jumped = 1_000_000_000_000_000_000
        #expect(throws: HLSTimelineError.timelineOverflow(mediaSequence: jumped)) {
            try timeline.reload(with: Self.live(from: jumped, target: 4, duration: "4.000000000"))
        }
    }

    /// Dated segments placed by date (a live DASH window): a reload whose new segment is dated
    /// a minute before the kept one would start the window after it ends.
    @Test func aReloadStartingBeforeItsPredecessorIsATypedErrorAndChangesNothing() throws {
        func dated(from sequence: Int, _ dates: [String]) throws -> HLSMediaPlaylist {
            let lines =
                ["#EXTM3U", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:\(sequence)"]
                + dates.enumerated().flatMap { ["#EXT-X-PROGRAM-DATE-TIME:2024-03-04T\($1)Z", "#EXTINF:6,", "s\(sequence + $0).ts"] }
            return try HLSMediaPlaylist(parsing: lines.joined(separator: "\n"), url: Self.url)
        }
        let first = try dated(from: 0, ["23:00:00", "23:00:06"])
        var timeline = HLSTimeline(playlist: first, dateOrigin: first.segments[0].programDate)
        let before = timeline
        #expect(throws: HLSTimelineError.startWentBack(mediaSequence: 2)) {
            try timeline.reload(with: dated(from: 1, ["23:00:06", "22:59:06"]))
        }
        #expect(timeline == before)
    }

    /// RFC 8216 6.2.1: a Media Sequence Number keeps its segment. A reload that lists another
    /// URI, duration or byte range under a known number is refused, and the timeline stays; the
    /// same segment written another way (a title, trailing zeros) is not a change.
    @Test(arguments: [
        ("another URI", "#EXTINF:6,\ns0-other.ts"), ("another duration", "#EXTINF:4,\ns0.ts"),
        ("a byte range", "#EXT-X-BYTERANGE:1000@0\n#EXTINF:6,\ns0.ts")
    ])
    func aReloadChangingAKnownSegmentIsRefused(change: String, firstSegment: String) throws {
        func live(_ firstSegment: String) throws -> HLSMediaPlaylist {
            try HLSMediaPlaylist(
                parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:0\n\(firstSegment)\n#EXTINF:6,\ns1.ts\n", url: Self.url)
        }
        var timeline = HLSTimeline(playlist: try live("#EXTINF:6,\ns0.ts"))
        let before = timeline
        #expect(throws: HLSTimelineError.segmentChanged(mediaSequence: 0), "\(change)") {
            try timeline.reload(with: live(firstSegment))
        }
        #expect(timeline == before, "\(change)")
        try timeline.reload(with: live("#EXTINF:6.000,the same segment\ns0.ts"))
        #expect(timeline.segmentStarts == [.zero, MediaTime(value: 6, timescale: 1)])
    }

    /// A window built from such a playlist without a reload (`init` does not refuse) still gives
    /// a range rather than trapping: it ends where it starts.
    @Test func aWindowWhoseStartsGoBackHasAnEmptyRange() throws {
        let lines = [
            "#EXTM3U", "#EXT-X-TARGETDURATION:6", "#EXT-X-PROGRAM-DATE-TIME:2024-03-04T23:01:00Z", "#EXTINF:6,", "a.ts",
            "#EXT-X-PROGRAM-DATE-TIME:2024-03-04T23:00:00Z", "#EXTINF:6,", "b.ts"
        ]
        let playlist = try HLSMediaPlaylist(parsing: lines.joined(separator: "\n"), url: Self.url)
        let window = HLSTimeline(playlist: playlist, dateOrigin: playlist.segments[0].programDate).window
        #expect(window.segments.map(\.start) == [.zero, MediaTime(value: -60, timescale: 1)])
        #expect(window.seekableRange == MediaTime.zero..<MediaTime.zero)
    }

    @Test func theMessageNamesTheSegment() {
        let error = HLSTimelineError.timelineOverflow(mediaSequence: 42)
        #expect(error.description.hasPrefix("segment 42 of the reload would lie beyond the timeline"))
    }
}
