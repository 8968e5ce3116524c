import Foundation
import Testing

@testable import FrameSeekCore

/// EXT-X-KEY and EXT-X-GAP as RFC 8216 (4.3.2.4, 5.2) and its successor draft (4.4.4.7) write
/// them: which segments a key applies to, its IV, and the errors a bad tag gets.
@Suite("HLS playlist parser: EXT-X-KEY and EXT-X-GAP")
struct HLSKeyAndGapTests {
    static let base = URL(string: "https://example.com/vod/index.m3u8")!

    static func playlist(_ body: String) throws(HLSPlaylistError) -> HLSMediaPlaylist {
        try HLSMediaPlaylist(
            parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:7\n" + body + "#EXT-X-ENDLIST\n", url: base)
    }

    @Test("A key applies to every segment after it until the next; NONE clears it; GAP marks only the next segment")
    func keysAndGaps() throws {
        let playlist = try Self.playlist(
            """
            #EXTINF:4,
            a.ts
            #EXT-X-KEY:METHOD=AES-128,URI="keys/k1.bin",IV=0x000102030405060708090A0B0C0D0E0F
            #EXTINF:4,
            b.ts
            #EXT-X-GAP
            #EXTINF:4,
            c.ts
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.net/k2"
            #EXTINF:4,
            d.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:4,
            e.ts

            """)
        let segments = playlist.segments
        #expect(
            segments.map { $0.key?.uri.absoluteString } == [
                nil, "https://example.com/vod/keys/k1.bin", "https://example.com/vod/keys/k1.bin", "https://keys.example.net/k2", nil
            ])
        #expect(segments.map(\.isGap) == [false, false, true, false, false])
        #expect(segments[1].key?.iv == Array(0...15))
        // Without IV, the Media Sequence Number (7 + 3 = 10) big-endian in 16 bytes.
        #expect(segments[3].key?.iv == nil)
        #expect(segments[3].key?.iv(forMediaSequence: segments[3].mediaSequence) == [UInt8](repeating: 0, count: 15) + [10])
        #expect(segments[1].key?.unsupportedReason == nil)
    }

    @Test("A short IV is left-padded; SAMPLE-AES and other key formats are kept and named as unsupported")
    func ivAndUnsupportedKeys() throws {
        let playlist = try Self.playlist(
            """
            #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x1ff
            #EXTINF:4,
            a.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://asset",KEYFORMAT="com.apple.streamingkeydelivery"
            #EXTINF:4,
            b.ts

            """)
        #expect(playlist.segments[0].key?.iv == [UInt8](repeating: 0, count: 14) + [0x01, 0xff])
        let reason = try #require(playlist.segments[1].key?.unsupportedReason)
        #expect(reason.contains("SAMPLE-AES"))
    }

    @Test(
        "A key without METHOD or URI, an unknown METHOD, or a bad IV is an error naming the tag and its line",
        arguments: [
            "#EXT-X-KEY:URI=\"k\"", "#EXT-X-KEY:METHOD=AES-128", "#EXT-X-KEY:METHOD=AES-256,URI=\"k\"",
            "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x", "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=12",
            "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x" + String(repeating: "a", count: 33),
            "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xZZ"
        ])
    func badKeys(_ tag: String) {
        do {
            _ = try Self.playlist(tag + "\n#EXTINF:4,\na.ts\n")
            Issue.record("\(tag): accepted")
        } catch {
            #expect(error.line == 4 && error.description.contains("EXT-X-KEY"), "\(tag): \(error)")
        }
    }
}
