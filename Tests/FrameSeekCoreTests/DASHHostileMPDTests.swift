import Foundation
import FrameSeekTestSupport
import Testing

@testable import FrameSeekCore

/// MPDs made to trap, to go back in time or to multiply memory, each an `MPDError` naming the
/// element while its honest neighbour is still read; and MPDs large enough that a quadratic
/// reading of them would take hours.
@Suite("DASH hostile MPDs")
struct DASHHostileMPDTests {
    static let representationPath = "MPD/Period[1]/AdaptationSet[1]/Representation[1]"

    static func element(
        _ name: String, _ attributes: [String: String] = [:], _ children: [MPDElement] = [], text: String = ""
    )
        -> MPDElement
    {
        DASHPresentationTests.element(name, attributes, children, text: text)
    }

    static func timeline(_ entries: [[String: String]]) -> MPDElement {
        element("SegmentTimeline", [:], entries.map { element("S", $0) })
    }

    /// A static MPD of one Representation (`representationChildren` its children) under a
    /// SegmentTemplate with `template`'s attributes and children.
    static func mpd(
        _ template: [String: String], _ templateChildren: [MPDElement] = [], representationChildren: [MPDElement] = []
    ) -> MPDElement {
        let representation = element("Representation", ["id": "r", "bandwidth": "1"], representationChildren)
        return DASHPresentationTests.mpd([
            element(
                "Period", [:],
                [DASHPresentationTests.video([representation], template: element("SegmentTemplate", template, templateChildren))])
        ])
    }

    static func playlist(_ root: MPDElement, at now: ProgramDate = ProgramDate(Date())) throws(MPDError) -> HLSMediaPlaylist {
        try DASHPresentation(root: root, url: DASHPresentationTests.url).mediaPlaylist(selecting: .highestBandwidth, at: now).playlist
    }

    /// (S entries, the element the error must name, words its reason must have).
    static let refusedTimelines: [([[String: String]], String, String)] = [
        // r=-1 repeats to the next S's t, which is read as every t is: not Int64.min, whose
        // distance from the start would overflow.
        ([["d": "1", "r": "-1"], ["t": "-9223372036854775808", "d": "1"]], "@S[2]@t", "is not a whole number in 0"),
        // Time going back: before the first S's start, and before the start of the last repeat.
        ([["t": "1000", "d": "1"], ["t": "0", "d": "1"]], "@S[2]@t", "1000: time goes back"),
        ([["t": "0", "d": "10", "r": "2"], ["t": "19", "d": "1"]], "@S[2]@t", "19 is before the previous segment's start 20")
    ]

    @Test(
        "A SegmentTimeline whose r=-1 ends at a negative t, or whose time goes back, is an error naming the S", arguments: refusedTimelines)
    func refusedTimeline(entries: [[String: String]], element: String, reason: String) {
        #expect {
            try Self.playlist(Self.mpd(["media": "$Time$", "timescale": "1"], [Self.timeline(entries)]))
        } throws: { error in
            guard let error = error as? MPDError else { return false }
            return error.element == Self.representationPath + element && error.reason.contains(reason)
        }
    }

    @Test("An S may start where the previous ends, or inside it (encoders round), but not before its start")
    func overlapIsRead() throws {
        let playlist = try Self.playlist(
            Self.mpd(["media": "$Time$", "timescale": "1"], [Self.timeline([["t": "0", "d": "10", "r": "1"], ["t": "15", "d": "10"]])]))
        #expect(playlist.segments.map(\.uri.lastPathComponent) == ["0", "10", "15"])
    }

    /// The reviewed input: a dynamic MPD whose second S is 1000 s before the first. Placed by its
    /// date it would start before the window's start, which `Range` traps on.
    @Test("A live SegmentTimeline going back is refused before it reaches the window")
    func liveTimeGoingBack() throws {
        let template = Self.element(
            "SegmentTemplate", ["media": "$Time$", "timescale": "1"], [Self.timeline([["t": "1000", "d": "1"], ["t": "0", "d": "1"]])])
        let period = Self.element(
            "Period", ["start": "PT0S"],
            [DASHPresentationTests.video([Self.element("Representation", ["id": "v", "bandwidth": "1"])], template: template)])
        let attributes = [
            "type": "dynamic", "availabilityStartTime": "1970-01-01T00:00:00Z", "timeShiftBufferDepth": "P36500D"
        ]
        let root = Self.element("MPD", attributes, [period])
        #expect(
            throws: MPDError(
                element: Self.representationPath + "@S[2]@t", reason: "0 is before the previous segment's start 1000: time goes back")
        ) {
            try Self.playlist(root, at: try ProgramDate(parsing: "1970-01-01T01:00:00Z"))
        }
    }

    /// A URL of 8,192 bytes is read; one byte more is refused, whether the media template, a
    /// Representation's BaseURL or one resolved against a long BaseURL makes it.
    @Test("A resolved URL longer than 8 KiB is refused naming the element")
    func longURLs() throws {
        // "https://cdn.example.com/show/" is 29 bytes; "/1" (the $Number$) 2 more.
        let fits = String(repeating: "x", count: 8_192 - 29 - 2)
        let fitting = try Self.playlist(Self.mpd(["media": fits + "/$Number$", "duration": "5"]))
        #expect(fitting.segments.map { $0.uri.absoluteString.utf8.count } == [8_192, 8_192])
        #expect(
            throws: MPDError(
                element: Self.representationPath + " SegmentTemplate@media",
                reason: "resolves to a URL of 8193 bytes, more than FrameSeek's limit of 8192 (CloudFront's)")
        ) {
            try Self.playlist(Self.mpd(["media": fits + "x/$Number$", "duration": "5"]))
        }
        let longBase = Self.element("BaseURL", text: fits + "xx/")
        #expect(
            throws: MPDError(
                element: Self.representationPath + "/BaseURL",
                reason: "resolves to a URL of 8193 bytes, more than FrameSeek's limit of 8192 (CloudFront's)")
        ) {
            try Self.playlist(Self.mpd(["media": "$Number$", "duration": "5"], representationChildren: [longBase]))
        }
        // The base itself fits; the segment's name on it does not.
        let base = Self.element("BaseURL", text: String(repeating: "x", count: 8_192 - 29 - 1) + "/")
        #expect(
            throws: MPDError(
                element: Self.representationPath + " SegmentTemplate@media",
                reason: "resolves to a URL of 8193 bytes, more than FrameSeek's limit of 8192 (CloudFront's)")
        ) {
            try Self.playlist(Self.mpd(["media": "$Number$", "duration": "5"], representationChildren: [base]))
        }
    }

    /// Each S with r=-1 once searched the timeline for its successor: quadratic, hours for a
    /// hostile MPD of a million. Linear, this takes well under the limit.
    @Test("A timeline of 30,000 r=-1 entries is read")
    func longTimeline() async throws {
        let entries = [[String: String]](repeating: ["d": "1", "r": "-1"], count: 30_000)
        let playlist = try await linearParse("the timeline") {
            try Self.playlist(Self.mpd(["media": "$Number$", "timescale": "1"], [Self.timeline(entries)]))
        }
        // The first repeats to the Period's end at 10 s; each after it starts there and is one segment.
        #expect(playlist.segments.count == 10 + 29_999)
    }

    /// Each Representation once searched its AdaptationSet for the SegmentTemplate it inherits:
    /// quadratic, hours for a hostile MPD of a million. Linear, this takes well under the limit.
    @Test("An AdaptationSet of 30,000 Representations is read")
    func largeAdaptationSet() async throws {
        let representations = (0..<30_000).map { Self.element("Representation", ["id": "r\($0)", "bandwidth": "\($0)"]) }
        let period = Self.element(
            "Period", [:],
            [Self.element("SegmentTemplate", ["media": "$Number$", "duration": "5"]), DASHPresentationTests.video(representations)])
        let presentation = try await linearParse("the AdaptationSet") {
            try DASHPresentation(root: DASHPresentationTests.mpd([period]), url: DASHPresentationTests.url)
        }
        #expect(presentation.periods[0].count == 30_000 && presentation.periods[0].allSatisfy { $0.template["duration"] == "5" })
    }
}
