import Foundation
import Testing
@testable import FrameSeekCore

/// The lazy line reader against the splitter it replaced, kept here as the oracle: the text was
/// split on `Character`s (CRLF is one), a byte order mark dropped and each line trimmed with
/// `CharacterSet.whitespaces`. Same lines, numbers and texts mean the parsers, which read one
/// line at a time, build the same models.
@Suite("HLS line reader")
struct HLSLineReaderTests {
    static let base = URL(string: "https://example.com/live/index.m3u8")!

    /// The former `HLSLine.split`, without its header check.
    static func oracleLines(_ text: String) -> [(number: Int, text: String)] {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        let raw = body.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        return raw.enumerated().map { ($0.offset + 1, $0.element.trimmingCharacters(in: .whitespaces)) }
    }

    /// `/work/shared/media/**/*.m3u8`, next to the worktree, when present.
    static let fixturePlaylists: [String] = {
        let media = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/media")
        let found =
            FileManager.default.enumerator(at: media, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "m3u8" } ?? []
        return found.compactMap { try? String(contentsOf: $0, encoding: .utf8) }
    }()

    /// Line-ending and white-space shapes a server might send.
    static let shapes: [String] = [
        "", "\n", "\r", "\r\n", "\n\r", "\r\r\n", "#EXTM3U", "#EXTM3U\n", "\u{FEFF}#EXTM3U\r\nx.ts",
        "#EXTM3U\ra.ts\rb.ts", "#EXTM3U\r\n#EXTINF:2,\r\na.ts\r\n\r\n", "#EXTM3U\n\n\n",
        " \t#EXTM3U \t\n\u{3000}#EXTINF:2,\u{00A0}\n\u{2003}a.ts\u{2009}", "#EXTM3U\n \u{301}x.ts\n\u{301}\n",
        "#EXTM3U\n#EXTINF:2,caf\u{E9} \u{1F3AC}\na b.ts\n", "\u{FEFF}\u{FEFF}#EXTM3U", "#EXTM3U\n\u{FEFF}a.ts"
    ]

    static var corpus: [String] {
        shapes + HLSPlaylistErrorTests.cases.map(\.1) + [HLSMultivariantPlaylistTests.threeVariants]
            + fixturePlaylists
    }

    @Test func linesMatchTheFormerSplitter() throws {
        for text in Self.corpus {
            let expected = Self.oracleLines(text)
            do {
                let lines = try HLSLines.read(text).map { ($0.number, String($0.text)) }
                #expect(lines.elementsEqual(expected, by: ==), "\(text.debugDescription)")
                #expect(expected.first?.text == "#EXTM3U")
            } catch {
                #expect(error == HLSPlaylistError(line: 1, text: expected[0].text, cause: .missingHeader))
                #expect(expected[0].text != "#EXTM3U")
            }
        }
    }

    /// The same playlist with LF, CRLF, lone CR or a byte order mark parses to the same model,
    /// or fails with the same error, for every playlist of the parser tests and the fixtures.
    @Test func lineEndingsDoNotChangeTheModel() {
        let lfOnly = Self.corpus.filter { !$0.contains("\r") && !$0.hasPrefix("\u{FEFF}") }
        for text in lfOnly {
            let reference = Result { () throws(HLSPlaylistError) in try HLSPlaylist.parse(text: text, url: Self.base) }
            for variant in [
                text.replacingOccurrences(of: "\n", with: "\r\n"), text.replacingOccurrences(of: "\n", with: "\r"),
                "\u{FEFF}" + text
            ] {
                let parsed = Result { () throws(HLSPlaylistError) in try HLSPlaylist.parse(text: variant, url: Self.base) }
                #expect(parsed == reference, "\(variant.debugDescription)")
            }
        }
    }

    /// A segment longer than the target is named by its own EXTINF line, found again after the
    /// whole playlist has been read (the reader keeps no line per segment).
    @Test func theEXTINFOfATooLongSegmentIsFoundAgain() {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXTINF:2,", "a.ts", "# note", "#EXTINF:1.5,", "b.ts"]
        lines += ["#EXT-X-BYTERANGE:10@0", "#EXTINF:3,", "c.ts", "#EXTINF:2,", "d.ts"]
        let culprit = lines.firstIndex(of: "#EXTINF:3,")!
        #expect(
            throws: HLSPlaylistError(
                line: culprit + 1, text: lines[culprit],
                cause: .segmentLongerThanTarget(duration: MediaTime(value: 3, timescale: 1), targetDuration: 2))
        ) {
            try HLSMediaPlaylist(parsing: lines.joined(separator: "\r\n"), url: Self.base)
        }
    }
}
