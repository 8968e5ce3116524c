import Foundation
import Testing
@testable import FrameSeekCore

/// Every malformed playlist names the line that shows the fault, counted by hand below.
@Suite("HLS playlist errors")
struct HLSPlaylistErrorTests {
    static let base = URL(string: "https://example.com/index.m3u8")!

    /// (name, playlist text, expected line, expected line text, expected cause).
    static let cases: [(String, String, Int, String, HLSPlaylistError.Cause)] = [
        ("no header", "#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts", 1, "#EXT-X-TARGETDURATION:2", .missingHeader),
        ("empty text", "", 1, "", .missingHeader),
        ("header not first", "\n#EXTM3U\n", 1, "", .missingHeader),
        ("no target duration", "#EXTM3U\n#EXTINF:2,\na.ts", 1, "#EXTM3U", .missingTargetDuration),
        (
            "target not an integer", "#EXTM3U\n#EXT-X-TARGETDURATION:2.5\n", 2, "#EXT-X-TARGETDURATION:2.5",
            .notAnInteger(tag: "EXT-X-TARGETDURATION", value: "2.5")
        ),
        (
            "negative media sequence", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:-1", 3,
            "#EXT-X-MEDIA-SEQUENCE:-1", .notAnInteger(tag: "EXT-X-MEDIA-SEQUENCE", value: "-1")
        ),
        ("EXTINF at the end", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n", 3, "#EXTINF:2,", .extinfWithoutURI),
        (
            "EXTINF twice", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n#EXTINF:1,\na.ts", 3, "#EXTINF:2,",
            .extinfWithoutURI
        ),
        (
            "URI without EXTINF", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\nb.ts", 5, "b.ts",
            .uriWithoutExtinf
        ),
        (
            "duration not a number", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:abc,\na.ts", 3, "#EXTINF:abc,",
            .badDuration("abc")
        ),
        (
            "negative duration", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:-2,\na.ts", 3, "#EXTINF:-2,",
            .badDuration("-2")
        ),
        (
            "EXTINF without value", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF\na.ts", 3, "#EXTINF",
            .badAttributeList("EXTINF needs a value after the colon")
        ),
        // 2.5 rounds (half away from zero) to 3 > 2; 2.49 would round to 2 and pass.
        (
            "segment longer than target", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.49,\na.ts\n#EXTINF:2.5,\nb.ts",
            5, "#EXTINF:2.5,", .segmentLongerThanTarget(duration: MediaTime(value: 25, timescale: 10), targetDuration: 2)
        ),
        (
            "bad date", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PROGRAM-DATE-TIME:2024-02-30T00:00:00Z\n#EXTINF:2,\na.ts",
            3, "#EXT-X-PROGRAM-DATE-TIME:2024-02-30T00:00:00Z",
            .badDate(
                ProgramDateParseError(
                    input: "2024-02-30T00:00:00Z",
                    reason: "day 30 does not exist in 2024-02, which has 29 days"))
        ),
        (
            "byte range without a previous sub-range",
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-BYTERANGE:100\n#EXTINF:2,\na.ts", 5,
            "#EXT-X-BYTERANGE:100",
            .badByteRange("no offset, and the previous segment is not a sub-range of the same resource")
        ),
        (
            "byte range not numeric", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-BYTERANGE:10@x\n#EXTINF:2,\na.ts", 3,
            "#EXT-X-BYTERANGE:10@x", .badByteRange("offset \"x\" is not a decimal integer")
        ),
        (
            "unclosed quote", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"init.mp4\n", 3,
            "#EXT-X-MAP:URI=\"init.mp4", .badAttributeList("the quoted value of URI is not closed")
        ),
        (
            "attribute without =", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-SERVER-CONTROL:HOLD-BACK\n", 3,
            "#EXT-X-SERVER-CONTROL:HOLD-BACK", .badAttributeList("\"HOLD-BACK\" has no =")
        ),
        (
            "duplicate attribute", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-SERVER-CONTROL:HOLD-BACK=6,HOLD-BACK=7", 3,
            "#EXT-X-SERVER-CONTROL:HOLD-BACK=6,HOLD-BACK=7",
            .badAttributeList("attribute HOLD-BACK appears twice (RFC 8216 4.2)")
        ),
        (
            "lowercase attribute", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-SERVER-CONTROL:hold-back=6", 3,
            "#EXT-X-SERVER-CONTROL:hold-back=6",
            .badAttributeList("attribute name \"hold-back\" is not made of A-Z, 0-9 and -")
        ),
        (
            "bad hold-back", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-SERVER-CONTROL:HOLD-BACK=soon", 3,
            "#EXT-X-SERVER-CONTROL:HOLD-BACK=soon",
            .badAttribute(
                tag: "EXT-X-SERVER-CONTROL", name: "HOLD-BACK",
                reason: "\"soon\" is not a non-negative decimal number")
        ),
        (
            "map without URI", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:BYTERANGE=\"10@0\"", 3,
            "#EXT-X-MAP:BYTERANGE=\"10@0\"", .badAttribute(tag: "EXT-X-MAP", name: "URI", reason: "missing")
        ),
        (
            "bad playlist type", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:LIVE", 3,
            "#EXT-X-PLAYLIST-TYPE:LIVE", .badPlaylistType("LIVE")
        ),
        (
            "media sequence after a segment", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-MEDIA-SEQUENCE:4",
            5, "#EXT-X-MEDIA-SEQUENCE:4", .tagAfterFirstSegment("EXT-X-MEDIA-SEQUENCE")
        ),
        (
            "both kinds", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts", 5,
            "#EXTINF:2,", .mixedPlaylist
        ),
        (
            "variant without URI", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nv.m3u8", 2,
            "#EXT-X-STREAM-INF:BANDWIDTH=1", .streamInfWithoutURI
        ),
        (
            "variant without bandwidth", "#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=10x10\nv.m3u8", 2,
            "#EXT-X-STREAM-INF:RESOLUTION=10x10",
            .badAttribute(tag: "EXT-X-STREAM-INF", name: "BANDWIDTH", reason: "missing (RFC 8216 4.3.4.2 requires it)")
        ),
        (
            "bad resolution", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=wide\nv.m3u8", 2,
            "#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=wide",
            .badAttribute(tag: "EXT-X-STREAM-INF", name: "RESOLUTION", reason: "\"wide\" is not WIDTHxHEIGHT")
        ),
        (
            "CRLF lines are counted once", "#EXTM3U\r\n#EXT-X-TARGETDURATION:2\r\n\r\n#EXTINF:x,\r\na.ts\r\n", 4,
            "#EXTINF:x,", .badDuration("x")
        )
    ]

    @Test(arguments: cases)
    func namesTheLine(row: (String, String, Int, String, HLSPlaylistError.Cause)) {
        let (name, text, line, lineText, cause) = row
        #expect(throws: HLSPlaylistError(line: line, text: lineText, cause: cause), "\(name)") {
            _ = try HLSPlaylist.parse(text: text, url: Self.base)
        }
    }

    @Test func descriptionStartsWithTheLine() {
        let error = HLSPlaylistError(line: 7, text: "#EXTINF:abc,", cause: .badDuration("abc"))
        #expect(
            error.description
                == "line 7: EXTINF duration \"abc\" is not a non-negative decimal number (#EXTINF:abc,)")
    }

    @Test func unknownTagsCommentsAndBlankLinesAreSkipped() throws {
        let text =
            "\u{FEFF}#EXTM3U\n  \n#EXT-X-TARGETDURATION:2\n#EXT-X-FUTURE-TAG:WHATEVER=1\n# comment\n"
            + "#EXT-X-GAP\n#EXTINF:2,\na.ts\n#EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00Z\n"
        let playlist = try HLSMediaPlaylist(parsing: text, url: Self.base)
        #expect(playlist.segments.count == 1 && playlist.segments[0].line == 8)
        // A date after the last segment dates no segment.
        #expect(!playlist.isDateAddressable)
    }
}
