import Foundation
import Testing

@testable import FrameSeekCore

/// A SegmentList of byte ranges of one file, as ffmpeg's DASH muxer writes it with
/// `-single_file 1`: SegmentURLs with `@mediaRange` and no `@media`, an Initialization with
/// `@range` and no `@sourceURL`. ISO/IEC 23009-1 5.3.9.2.2 (URLType) and 5.3.9.3.2
/// (SegmentURL): an absent URL attribute means the BaseURL, and the range must then be present.
@Suite("DASH: SegmentList and SegmentBase byte ranges of the BaseURL")
struct DASHByteRangeListTests {
    static let representationPath = "MPD/Period[1]/AdaptationSet[1]/Representation[1]"

    static func element(
        _ name: String, _ attributes: [String: String] = [:], _ children: [MPDElement] = [], text: String = ""
    )
        -> MPDElement
    {
        DASHPresentationTests.element(name, attributes, children, text: text)
    }

    /// A static MPD of one Representation whose BaseURL is `v/one.mp4` and whose other children
    /// are `children`.
    static func mpd(_ children: [MPDElement]) -> MPDElement {
        let representation = element(
            "Representation", ["id": "r", "bandwidth": "1"], [element("BaseURL", text: "v/one.mp4")] + children)
        return DASHPresentationTests.mpd([element("Period", [:], [DASHPresentationTests.video([representation])])])
    }

    static func list(initialization: [String: String]?, segments: [[String: String]]) -> MPDElement {
        element(
            "SegmentList", ["timescale": "1", "duration": "2"],
            (initialization.map { [element("Initialization", $0)] } ?? []) + segments.map { element("SegmentURL", $0) })
    }

    static func playlist(_ root: MPDElement) throws(MPDError) -> HLSMediaPlaylist {
        try DASHPresentation(root: root, url: DASHPresentationTests.url).mediaPlaylist(selecting: .highestBandwidth).playlist
    }

    static let file = "https://cdn.example.com/show/v/one.mp4"

    @Test("A SegmentURL without @media is its @mediaRange of the BaseURL; an Initialization without @sourceURL its @range of it")
    func absentURLsAreTheBaseURL() throws {
        let playlist = try Self.playlist(
            Self.mpd([
                Self.list(
                    initialization: ["range": "0-833"],
                    segments: [["mediaRange": "834-63142", "indexRange": "834-885"], ["mediaRange": "63143-135799"]])
            ]))
        #expect(playlist.segments.map(\.uri.absoluteString) == [Self.file, Self.file])
        #expect(
            playlist.segments.map(\.byteRange) == [HLSByteRange(length: 62_309, offset: 834), HLSByteRange(length: 72_657, offset: 63_143)])
        #expect(
            playlist.segments.allSatisfy { $0.map == HLSMap(uri: URL(string: Self.file)!, byteRange: HLSByteRange(length: 834, offset: 0)) }
        )
    }

    @Test("A SegmentBase's Initialization@sourceURL is where its initialization is, not the BaseURL")
    func segmentBaseInitializationSource() throws {
        let base = Self.element(
            "SegmentBase", ["indexRange": "900-999"], [Self.element("Initialization", ["sourceURL": "init.mp4", "range": "0-99"])])
        let presentation = try DASHPresentation(root: Self.mpd([base]), url: DASHPresentationTests.url)
        let index = try SegmentIndexBox(bytes: SegmentIndexBoxTests.box([(5000, 2000, true)]), offset: 900, element: "R")
        let playlist = try presentation.mediaPlaylist(
            selecting: .highestBandwidth, segmentIndexes: [Self.representationPath: index]
        ).playlist
        #expect(playlist.segments.map(\.uri.absoluteString) == [Self.file])
        #expect(
            playlist.segments.first?.map
                == HLSMap(uri: URL(string: "https://cdn.example.com/show/v/init.mp4")!, byteRange: HLSByteRange(length: 100, offset: 0)))
    }

    /// (the SegmentList's Initialization and SegmentURL attributes, the element the error names,
    /// words its reason has).
    static let refused: [([String: String]?, [String: String], String, String)] = [
        // Present but empty or not a URL: refused, as before.
        (nil, ["media": "", "mediaRange": "0-9"], " SegmentURL[1]@media", "\"\" is not a URL"),
        (nil, ["media": "http://[::1", "mediaRange": "0-9"], " SegmentURL[1]@media", "is not a URL"),
        // Neither a URL nor a range: the whole BaseURL, which the standard does not allow.
        (nil, [:], " SegmentURL[1]", "no @media, so @mediaRange"),
        ([:], ["mediaRange": "0-9"], " Initialization", "no @sourceURL, so @range"),
        (["sourceURL": ""], ["mediaRange": "0-9"], " Initialization@sourceURL", "\"\" is not a URL"),
        // Ranges that are not first-last, or whose end is past Int.max.
        (nil, ["mediaRange": "9-0"], " SegmentURL[1]@mediaRange", "range \"9-0\" is not first-last"),
        (["range": "0-9223372036854775807"], ["mediaRange": "0-9"], " Initialization@range", "is not first-last")
    ]

    @Test("An empty or invalid @media or @sourceURL, a missing range, or a bad range is one line naming the element", arguments: refused)
    func refusedReferences(initialization: [String: String]?, segment: [String: String], element: String, reason: String) {
        #expect {
            try Self.playlist(Self.mpd([Self.list(initialization: initialization, segments: [segment])]))
        } throws: { error in
            guard let error = error as? MPDError else { return false }
            return error.element == Self.representationPath + element && error.reason.contains(reason)
                && !error.description.contains("\n")
        }
    }
}
