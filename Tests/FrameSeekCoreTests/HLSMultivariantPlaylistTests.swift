import Foundation
import Testing
@testable import FrameSeekCore

@Suite("HLS multivariant playlists")
struct HLSMultivariantPlaylistTests {
    static let base = URL(string: "https://example.com/show/master.m3u8")!

    static let threeVariants = """
        #EXTM3U
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2"
        low/index.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="low/iframe.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=7680000,AVERAGE-BANDWIDTH=6000000,RESOLUTION=1920x1080,CODECS="avc1.640028,mp4a.40.2"
        hi/index.m3u8
        # the middle one is listed last
        #EXT-X-STREAM-INF:BANDWIDTH=2560000,RESOLUTION=1280x720
        https://cdn.example.com/mid/index.m3u8
        """

    @Test func readsVariantsInOrder() throws {
        guard case let .multivariant(playlist) = try HLSPlaylist.parse(text: Self.threeVariants, url: Self.base) else {
            Issue.record("not read as multivariant")
            return
        }
        #expect(playlist.variants.map(\.bandwidth) == [1_280_000, 7_680_000, 2_560_000])
        #expect(playlist.variants.map(\.averageBandwidth) == [1_000_000, 6_000_000, nil])
        #expect(playlist.variants.map { $0.resolution?.description } == ["640x360", "1920x1080", "1280x720"])
        #expect(playlist.variants[0].codecs == "avc1.4d401e,mp4a.40.2")
        #expect(
            playlist.variants.map(\.uri.absoluteString) == [
                "https://example.com/show/low/index.m3u8", "https://example.com/show/hi/index.m3u8",
                "https://cdn.example.com/mid/index.m3u8"
            ])
        #expect(playlist.variants.map(\.line) == [3, 6, 9])
    }

    /// (selection, the URI's last two components, or nil when the choice does not exist).
    static let selections: [(HLSVariantSelection, String?)] = [
        (.highestBandwidth, "hi/index.m3u8"),
        (.index(0), "low/index.m3u8"),
        (.index(2), "mid/index.m3u8"),
        (.bandwidth(2_560_000), "mid/index.m3u8"),
        (.resolution(HLSResolution(width: 1280, height: 720)), "mid/index.m3u8"),
        (.resolution(HLSResolution(width: 640, height: 360)), "low/index.m3u8"),
        (.resolution(HLSResolution(width: 640, height: 361)), nil),
        (.index(3), nil),
        (.index(-1), nil),
        (.bandwidth(1), nil)
    ]

    @Test(arguments: selections)
    func picksAVariant(row: (HLSVariantSelection, String?)) throws {
        let playlist = try HLSMultivariantPlaylist(parsing: Self.threeVariants, url: Self.base)
        if let expected = row.1 {
            let uri = try playlist.variant(selecting: row.0).uri
            #expect(uri.pathComponents.suffix(2).joined(separator: "/") == expected)
        } else {
            #expect(
                throws: HLSVariantSelectionError(
                    selection: row.0,
                    availableBandwidths: [1_280_000, 7_680_000, 2_560_000])
            ) {
                try playlist.variant(selecting: row.0)
            }
        }
    }

    @Test func selectionErrorsListTheChoices() throws {
        let playlist = try HLSMultivariantPlaylist(parsing: Self.threeVariants, url: Self.base)
        #expect(throws: (any Error).self) { try playlist.variant(selecting: .index(5)) }
        let error = HLSVariantSelectionError(selection: .index(5), availableBandwidths: [1_280_000, 7_680_000])
        #expect(
            error.description
                == "no variant at index 5: the playlist has 2 variants (0: 1280000 bit/s, 1: 7680000 bit/s)")
    }

    @Test(
        "--variant's spellings: N, bandwidth:BPS, resolution:WxH; anything else is refused",
        arguments: [
            ("2", HLSVariantSelection.index(2)), ("bandwidth:2560000", .bandwidth(2_560_000)),
            ("resolution:1280x720", .resolution(HLSResolution(width: 1280, height: 720))), ("-1", nil),
            ("bandwidth:", nil), ("resolution:1280", nil), ("resolution:0x720", nil), ("resolution:1280x720x3", nil),
            ("best", nil)
        ] as [(String, HLSVariantSelection?)])
    func parsesSelections(text: String, expected: HLSVariantSelection?) {
        #expect(HLSVariantSelection(parsing: text) == expected, "\(text)")
    }

    @Test func highestBandwidthKeepsTheFirstOfEquals() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=500
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900
            b.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900
            c.m3u8
            """
        let playlist = try HLSMultivariantPlaylist(parsing: text, url: Self.base)
        #expect(try playlist.variant().uri.lastPathComponent == "b.m3u8")
    }

    @Test func mediaAndMultivariantAreToldApart() throws {
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n"
        #expect(
            throws: HLSPlaylistError(
                line: 3, text: "#EXTINF:2,",
                cause: .wrongKind(expected: "multivariant", found: "media"))
        ) {
            try HLSMultivariantPlaylist(parsing: media, url: Self.base)
        }
        #expect(
            throws: HLSPlaylistError(
                line: 3,
                text: "#EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,"
                    + "RESOLUTION=640x360,CODECS=\"avc1.4d401e,mp4a.40.2\"",
                cause: .wrongKind(expected: "media", found: "multivariant"))
        ) {
            try HLSMediaPlaylist(parsing: Self.threeVariants, url: Self.base)
        }
        guard case .media = try HLSPlaylist.parse(text: media, url: Self.base) else {
            Issue.record("a media playlist was not read as media")
            return
        }
    }
}
