import Foundation
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

    /// Each Representation once searched its AdaptationSet for the SegmentTemplate it inherits:
    /// quadratic, hours for a hostile MPD of a million. Linear, this takes well under the limit.
    @Test("An AdaptationSet of 30,000 Representations is read", .timeLimit(.minutes(1)))
    func largeAdaptationSet() throws {
        let representations = (0..<30_000).map { Self.element("Representation", ["id": "r\($0)", "bandwidth": "\($0)"]) }
        let period = Self.element(
            "Period", [:],
            [Self.element("SegmentTemplate", ["media": "$Number$", "duration": "5"]), DASHPresentationTests.video(representations)])
        let presentation = try DASHPresentation(root: DASHPresentationTests.mpd([period]), url: DASHPresentationTests.url)
        #expect(presentation.periods[0].count == 30_000 && presentation.periods[0].allSatisfy { $0.template["duration"] == "5" })
    }
}
