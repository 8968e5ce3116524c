import Foundation
import Testing

@testable import FrameSeekCore

/// MPDs written as ISO/IEC 23009-1 and DASH-IF's examples write them, read into segments: the
/// URLs, times and durations each must give, and the errors a hostile MPD gets.
@Suite("DASH: MPDs read into segments")
struct DASHPresentationTests {
    static let url = URL(string: "https://cdn.example.com/show/manifest.mpd")!

    static func element(
        _ name: String, _ attributes: [String: String] = [:], _ children: [MPDElement] = [], text: String = ""
    )
        -> MPDElement
    {
        MPDElement(name: name, attributes: attributes, children: children, text: text)
    }

    static func mpd(_ periods: [MPDElement], duration: String = "PT10S", children: [MPDElement] = []) -> MPDElement {
        element("MPD", ["type": "static", "mediaPresentationDuration": duration], children + periods)
    }

    static func video(_ representations: [MPDElement], template: MPDElement? = nil) -> MPDElement {
        element("AdaptationSet", ["contentType": "video"], (template.map { [$0] } ?? []) + representations)
    }

    @Test("ISO 8601 durations as MPDs write them are exact; years, months and other text are refused")
    func durations() throws {
        #expect(try DASHPresentation.duration("PT6.2S", at: "x") == MediaTime(value: 62, timescale: 10))
        #expect(try DASHPresentation.duration("PT1H2M3.5S", at: "x") == MediaTime(value: 7447, timescale: 2))
        #expect(try DASHPresentation.duration("P1DT0.001S", at: "x") == MediaTime(value: 86_400_001, timescale: 1000))
        #expect(try DASHPresentation.duration("P0Y0M0DT0H0M10.000S", at: "x") == MediaTime(value: 10, timescale: 1))
        for bad in ["6.2S", "PT", "PTS", "P1M", "PT1.2.3S", "PT5X", "P1H"] {
            #expect(throws: MPDError.self, "\(bad)") { try DASHPresentation.duration(bad, at: "x") }
        }
    }

    @Test("A $Number$ template with @duration: one segment per duration to the Period's end, the last one short")
    func numberTemplate() throws {
        let template = Self.element(
            "SegmentTemplate",
            [
                "timescale": "1000", "duration": "4000", "startNumber": "7", "initialization": "$RepresentationID$/init.mp4",
                "media": "$RepresentationID$/seg-$Number%05d$-$Bandwidth$.m4s"
            ])
        let representation = Self.element("Representation", ["id": "v720", "bandwidth": "3000000", "width": "1280", "height": "720"])
        let presentation = try DASHPresentation(
            root: Self.mpd([Self.element("Period", [:], [Self.video([representation], template: template)])]), url: Self.url)
        let (playlist, chosen, offsets) = try presentation.mediaPlaylist(selecting: .highestBandwidth)
        #expect(
            playlist.segments.map(\.uri.absoluteString)
                == [7, 8, 9].map {
                    "https://cdn.example.com/show/v720/seg-0000\($0)-3000000.m4s"
                })
        #expect(playlist.segments.map(\.duration) == [4, 4, 2].map { MediaTime(value: $0, timescale: 1) })
        #expect(playlist.segments.allSatisfy { $0.map?.uri.absoluteString == "https://cdn.example.com/show/v720/init.mp4" })
        #expect(offsets == [MediaTime](repeating: .zero, count: 3))
        #expect(chosen.variant.resolution == HLSResolution(width: 1280, height: 720) && chosen.position == 0)
        #expect(playlist.hasEndList && playlist.targetDuration == 4)
    }

    @Test("A SegmentTimeline with $Time$: t, d and r (r=-1 repeats to the Period's end); PTO moves media time")
    func timeline() throws {
        let timeline = Self.element(
            "SegmentTimeline", [:],
            [Self.element("S", ["t": "90000", "d": "180000", "r": "1"]), Self.element("S", ["d": "90000", "r": "-1"])])
        let template = Self.element(
            "SegmentTemplate", ["timescale": "90000", "presentationTimeOffset": "90000", "media": "t$Time$.ts"], [timeline])
        let presentation = try DASHPresentation(
            root: Self.mpd(
                [
                    Self.element(
                        "Period", ["start": "PT0S"],
                        [Self.video([Self.element("Representation", ["id": "a", "bandwidth": "1"])], template: template)])
                ],
                duration: "PT6S"),
            url: Self.url)
        let (playlist, _, offsets) = try presentation.mediaPlaylist(selecting: .index(0))
        // 2 s, 2 s, then 1 s segments to 6 s: media times 1, 3, 5, 6 s.
        #expect(playlist.segments.map(\.uri.lastPathComponent) == ["t90000.ts", "t270000.ts", "t450000.ts", "t540000.ts"])
        #expect(offsets.first == MediaTime(value: -1, timescale: 1), "the Period starts at 0, media time 1 s is its start")
        #expect(playlist.segments.map(\.map) == [nil, nil, nil, nil], "no initialization: self-initializing segments")
    }

    @Test("BaseURL at every level, a SegmentList with ranges, and a second Period as a discontinuity")
    func listsAndPeriods() throws {
        let list = Self.element(
            "SegmentList", ["timescale": "1", "duration": "5"],
            [
                Self.element("Initialization", ["sourceURL": "v.mp4", "range": "0-799"]),
                Self.element("SegmentURL", ["media": "v.mp4", "mediaRange": "800-1799"]),
                Self.element("SegmentURL", ["media": "v.mp4", "mediaRange": "1800-2299"])
            ])
        func period(_ start: String, base: String) -> MPDElement {
            Self.element(
                "Period", ["start": start],
                [
                    Self.element("BaseURL", text: base),
                    Self.video([Self.element("Representation", ["id": "r", "bandwidth": "9"], [Self.element("BaseURL", text: "hd/"), list])]
                    )
                ])
        }
        let presentation = try DASHPresentation(
            root: Self.mpd(
                [period("PT0S", base: "p1/"), period("PT10S", base: "https://other.example.net/p2/")], duration: "PT20S",
                children: [Self.element("BaseURL", text: "media/")]),
            url: Self.url)
        let (playlist, _, offsets) = try presentation.mediaPlaylist(selecting: .highestBandwidth)
        #expect(
            playlist.segments.map(\.uri.absoluteString) == [
                "https://cdn.example.com/show/media/p1/hd/v.mp4", "https://cdn.example.com/show/media/p1/hd/v.mp4",
                "https://other.example.net/p2/hd/v.mp4", "https://other.example.net/p2/hd/v.mp4"
            ])
        #expect(
            playlist.segments.map { $0.byteRange.map { "\($0.length)@\($0.offset)" } } == ["1000@800", "500@1800", "1000@800", "500@1800"])
        #expect(playlist.segments[0].map?.byteRange == HLSByteRange(length: 800, offset: 0))
        #expect(playlist.segments.map(\.discontinuity) == [false, false, true, false])
        #expect(offsets == [0, 0, 10, 10].map { MediaTime(value: $0, timescale: 1) })
        #expect(playlist.segments.map(\.mediaSequence) == [0, 1, 2, 3])
    }

    @Test(
        "Hostile or unsupported MPDs are refused naming the element: live without a start or of two Periods, SegmentBase without an index or its bytes, no video, huge r, overflow, bad templates",
        arguments: [
            ("dynamic", false), ("dynamicPeriods", true), ("dynamicType", false), ("segmentBase", false),
            ("segmentBaseWithoutIndexRange", true), ("segmentBaseUnread", false), ("audioOnly", false),
            ("hugeRepeat", false), ("overflow", false),
            ("unknownIdentifier", false), ("unpairedDollar", false), ("badWidth", false)
        ])
    func refused(_ case: (name: String, unsupported: Bool)) {
        let representation = Self.element("Representation", ["id": "r", "bandwidth": "1"])
        func with(_ template: [String: String], _ children: [MPDElement] = []) -> MPDElement {
            Self.mpd([
                Self.element("Period", [:], [Self.video([representation], template: Self.element("SegmentTemplate", template, children))])
            ])
        }
        let root: MPDElement
        switch `case`.name {
        case "dynamic": root = Self.element("MPD", ["type": "dynamic"], [])
        case "dynamicPeriods":
            let period = Self.element(
                "Period", ["start": "PT0S"],
                [Self.video([representation], template: Self.element("SegmentTemplate", ["media": "$Number$", "duration": "2"]))])
            root = Self.element("MPD", ["type": "dynamic", "availabilityStartTime": "2026-01-01T00:00:00Z"], [period, period])
        case "dynamicType": root = Self.element("MPD", ["type": "live"], [])
        case "segmentBase", "segmentBaseWithoutIndexRange", "segmentBaseUnread":
            // No bytes before an index at 0 to initialize from; no index; an index never read.
            let attributes = ["segmentBase": ["indexRange": "0-99"], "segmentBaseUnread": ["indexRange": "800-899"]][`case`.name] ?? [:]
            root = Self.mpd([
                Self.element(
                    "Period", [:],
                    [
                        Self.video([
                            Self.element(
                                "Representation", ["id": "r", "bandwidth": "1"], [Self.element("SegmentBase", attributes)])
                        ])
                    ])
            ])
        case "audioOnly":
            root = Self.mpd([Self.element("Period", [:], [Self.element("AdaptationSet", ["contentType": "audio"], [representation])])])
        case "hugeRepeat":
            root = with(
                ["media": "$Number$", "timescale": "1"],
                [Self.element("SegmentTimeline", [:], [Self.element("S", ["d": "1", "r": "9000000000"])])])
        case "overflow":
            root = with(
                ["media": "$Time$", "timescale": "1"],
                [Self.element("SegmentTimeline", [:], [Self.element("S", ["t": "9223372036854775000", "d": "1000", "r": "3"])])])
        case "unknownIdentifier": root = with(["media": "$Segment$", "duration": "1"])
        case "unpairedDollar": root = with(["media": "a$Number", "duration": "1"])
        default: root = with(["media": "$Number%5d$", "duration": "1"])
        }
        do {
            let presentation = try DASHPresentation(root: root, url: Self.url)
            _ = try presentation.mediaPlaylist(selecting: .highestBandwidth)
            Issue.record("\(`case`.name): accepted")
        } catch {
            #expect(error.isUnsupported == `case`.unsupported && error.element.hasPrefix("MPD"), "\(`case`.name): \(error)")
        }
    }

    /// A dynamic MPD whose availabilityStartTime is 2026-01-01T00:00:00Z, one Period at `start`,
    /// and a $Number$ template with `template`'s attributes.
    static func live(
        _ template: [String: String], timeline: [MPDElement] = [], start: String = "PT0S", depth: String? = "PT10S",
        delay: String? = nil
    ) -> DASHPresentation? {
        var attributes = ["type": "dynamic", "availabilityStartTime": "2026-01-01T00:00:00Z"]
        attributes["timeShiftBufferDepth"] = depth
        attributes["suggestedPresentationDelay"] = delay
        let children = timeline.isEmpty ? [] : [element("SegmentTimeline", [:], timeline)]
        let representation = element("Representation", ["id": "v", "bandwidth": "1"])
        let period = element(
            "Period", ["start": start], [video([representation], template: element("SegmentTemplate", template, children))])
        return try? DASHPresentation(root: element("MPD", attributes, [period]), url: url)
    }

    /// 2026-01-01T00:00:00Z plus `seconds`.
    static func date(_ seconds: Int64, _ timescale: Int32 = 1) throws -> ProgramDate {
        try ProgramDate(parsing: "2026-01-01T00:00:00Z").advanced(by: MediaTime(value: seconds, timescale: timescale))
    }

    @Test(
        "A live $Number$ template with @duration lists the segments ended by now and ending within the time-shift buffer, numbered and dated"
    )
    func liveDurationTemplate() throws {
        // 2-s segments from the Period's start 100 s after availabilityStartTime, numbered from 5.
        let presentation = try #require(
            Self.live(["media": "s$Number$.m4s", "duration": "2000", "timescale": "1000", "startNumber": "5"], start: "PT100S"))
        // 131.5 s: the Period is 31.5 s old, so 15 segments have ended (0...14, the 16th runs to
        // 32 s); a 10-s buffer keeps those ending after 21.5 s: 10...14, i.e. $Number$ 15...19.
        let listed = try presentation.mediaPlaylist(selecting: .highestBandwidth, at: try Self.date(1315, 10)).playlist
        #expect(listed.segments.map(\.mediaSequence) == [15, 16, 17, 18, 19])
        #expect(listed.segments.map(\.uri.lastPathComponent) == ["s15.m4s", "s16.m4s", "s17.m4s", "s18.m4s", "s19.m4s"])
        #expect(listed.segments.first?.programDate == (try Self.date(120)), "segment 10 starts 20 s into the Period")
        #expect(listed.segments.last?.programDate == (try Self.date(128)))
        #expect(listed.isLive && !listed.hasEndList && listed.mediaSequence == 15 && listed.targetDuration == 2)
        // Exactly on a segment's end it is available; before the Period starts nothing is.
        #expect(
            try presentation.mediaPlaylist(selecting: .highestBandwidth, at: try Self.date(132)).playlist.segments.last?.mediaSequence == 20
        )
        #expect(try presentation.mediaPlaylist(selecting: .highestBandwidth, at: try Self.date(50)).playlist.segments.isEmpty)
        // Without a time-shift buffer, the last minute.
        let unbounded = try #require(Self.live(["media": "$Number$", "duration": "2"], depth: nil))
        let minute = try unbounded.mediaPlaylist(selecting: .highestBandwidth, at: try Self.date(1000)).playlist
        #expect(minute.segments.count == 30 && minute.segments.last?.mediaSequence == 500, "\(minute.segments.map(\.mediaSequence))")
    }

    @Test("A live SegmentTimeline lists its ended segments within the buffer; suggestedPresentationDelay is the hold-back")
    func liveTimeline() throws {
        let presentation = try #require(
            Self.live(
                ["media": "t$Time$.m4s", "timescale": "10", "startNumber": "40"],
                timeline: [Self.element("S", ["t": "800", "d": "20", "r": "5"])], delay: "PT3S"))
        // Segments at 80, 82, ... 90 s, ending 82 ... 92 s; at 91 s the last has not ended.
        let listed = try presentation.mediaPlaylist(selecting: .highestBandwidth, at: try Self.date(91)).playlist
        #expect(listed.segments.map(\.mediaSequence) == [40, 41, 42, 43, 44])
        #expect(listed.segments.map(\.uri.lastPathComponent) == ["t800.m4s", "t820.m4s", "t840.m4s", "t860.m4s", "t880.m4s"])
        #expect(listed.segments.first?.programDate == (try Self.date(80)) && listed.holdBack == MediaTime(value: 3, timescale: 1))
        // At 100 s the 10-s buffer drops the segments that ended at or before 90 s.
        let later = try presentation.mediaPlaylist(selecting: .highestBandwidth, at: try Self.date(100)).playlist
        #expect(later.segments.map(\.mediaSequence) == [45])
    }

    @Test("A live window is placed by its dates: after a reload that skipped segments, each starts at its date's distance from the first")
    func liveTimelineByDates() throws {
        // 1.6-s segments (a 2-s target duration), an 8-s buffer; the second listing is 30 s later,
        // sharing no segment with the first.
        let presentation = try #require(Self.live(["media": "$Number$", "duration": "16", "timescale": "10"], depth: "PT8S"))
        let first = try presentation.mediaPlaylist(selecting: .highestBandwidth, at: try Self.date(100)).playlist
        let origin = try #require(first.segments.first?.programDate)
        var timeline = HLSTimeline(playlist: first, dateOrigin: origin)
        let later = try presentation.mediaPlaylist(selecting: .highestBandwidth, at: try Self.date(130)).playlist
        try #require(Set(first.segments.map(\.mediaSequence)).isDisjoint(with: later.segments.map(\.mediaSequence)))
        try timeline.reload(with: later)
        for (segment, start) in zip(later.segments, timeline.segmentStarts) {
            #expect(
                start == origin.interval(to: try #require(segment.programDate)), "segment \(segment.mediaSequence) at \(start.seconds) s")
        }
        // By target durations (the HLS rule) the same reload would have put them elsewhere.
        var byDuration = HLSTimeline(playlist: first)
        try byDuration.reload(with: later)
        #expect(byDuration.segmentStarts != timeline.segmentStarts)
    }
}
