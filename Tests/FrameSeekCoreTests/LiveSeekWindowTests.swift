import Foundation
import Testing
@testable import FrameSeekCore

/// A live playlist grown through successive reloads. Segment n lasts 6 s when even and 5.5 s
/// when odd (target 6), and its first sample is dated by hand from 23:00:00.000Z:
///
///     seq    0      1      2      3      4      5      6      7      end
///     start  0      6      11.5   17.5   23     29     34.5   40.5   46
///     date   00.000 06.000 11.500 17.500 23.000 29.000 34.500 40.500 46.000  (23:00:ss.fff)
///
/// Only the first segment of each load carries EXT-X-PROGRAM-DATE-TIME, as many servers do.
@Suite("Live seek window")
struct LiveSeekWindowTests {
    static let url = URL(string: "https://example.com/live.m3u8")!
    static let dates = ["00.000", "06.000", "11.500", "17.500", "23.000", "29.000", "34.500", "40.500"]

    static func playlist(
        _ sequences: ClosedRange<Int>, ended: Bool = false, holdBack: String? = nil
    ) throws
        -> HLSMediaPlaylist
    {
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(sequences.lowerBound)\n"
        if let holdBack { text += "#EXT-X-SERVER-CONTROL:HOLD-BACK=\(holdBack)\n" }
        text += "#EXT-X-PROGRAM-DATE-TIME:2024-03-04T23:00:\(dates[sequences.lowerBound])Z\n"
        for sequence in sequences {
            text += "#EXTINF:\(sequence.isMultiple(of: 2) ? "6.000" : "5.5"),\nsegment\(sequence).ts\n"
        }
        if ended { text += "#EXT-X-ENDLIST\n" }
        return try HLSMediaPlaylist(parsing: text, url: url)
    }

    static func time(_ text: String) -> MediaTime { try! MediaTime(parsing: text) }
    static func date(_ seconds: String) -> ProgramDate { try! ProgramDate(parsing: "2024-03-04T23:00:\(seconds)Z") }

    @Test func timesStayPutWhileTheWindowSlides() throws {
        var timeline = HLSTimeline(playlist: try Self.playlist(0...3))
        var window = timeline.window
        #expect(window.isLive && window.isDateAddressable && window.segmentCount == 4)
        #expect(window.seekableRange == Self.time("0")..<Self.time("23"))
        #expect(window.startProgramDate == Self.date("00.000") && window.endProgramDate == Self.date("23.000"))
        #expect(window.liveEdge == Self.time("5"))  // 23 - 3 x 6

        #expect(try timeline.reload(with: Self.playlist(1...4)))
        window = timeline.window
        #expect(timeline.segmentStarts == ["6", "11.5", "17.5", "23"].map(Self.time))
        #expect(window.seekableRange == Self.time("6")..<Self.time("29"))
        #expect(window.startProgramDate == Self.date("06.000") && window.endProgramDate == Self.date("29.000"))
        #expect(window.liveEdge == Self.time("11"))
        #expect(timeline.startTime(ofMediaSequence: 0) == nil)
        #expect(timeline.startTime(ofMediaSequence: 3) == Self.time("17.5"))

        #expect(try timeline.reload(with: Self.playlist(1...4)) == false)
        #expect(timeline.window == window)

        try timeline.reload(with: Self.playlist(3...6))
        window = timeline.window
        #expect(window.seekableRange == Self.time("17.5")..<Self.time("40.5"))
        #expect(window.liveEdge == Self.time("22.5"))
        #expect(window.segments.map(\.date) == ["17.500", "23.000", "29.000", "34.500"].map(Self.date))

        try timeline.reload(with: Self.playlist(4...7, ended: true))
        window = timeline.window
        #expect(!window.isLive)
        #expect(window.seekableRange == Self.time("23")..<Self.time("46"))
        #expect(window.liveEdge == Self.time("46"))  // nothing is held back once ENDLIST is seen
        #expect(throws: HLSTimelineError.playlistEnded) { try timeline.reload(with: Self.playlist(4...7)) }
    }

    /// (loaded window, requested date, expected time or the failure's kind).
    static let dateSeeks: [(ClosedRange<Int>, String, String)] = [
        (0...3, "00.000", "0"),
        (0...3, "10.000", "10"),
        (0...3, "22.999", "22.999"),
        (0...3, "23.000", "after"),
        (3...6, "10.000", "before"),
        (3...6, "17.499", "before"),
        (3...6, "17.500", "17.5"),
        (3...6, "20.250", "20.25"),
        (3...6, "40.499", "40.499"),
        (3...6, "45.000", "after")
    ]

    @Test(arguments: dateSeeks)
    func mapsDatesToTimesInTheWindow(row: (ClosedRange<Int>, String, String)) throws {
        var timeline = HLSTimeline(playlist: try Self.playlist(0...3))
        if row.0 != 0...3 {
            try timeline.reload(with: Self.playlist(1...4))
            try timeline.reload(with: Self.playlist(row.0))
        }
        let window = timeline.window
        let requested = Self.date(row.1)
        let start = try #require(window.startProgramDate)
        let end = try #require(window.endProgramDate)
        switch row.2 {
        case "before":
            #expect(
                window.time(forDate: requested)
                    == .failure(.dateBeforeWindow(requested: requested, windowStart: start, windowEnd: end)))
        case "after":
            #expect(
                window.time(forDate: requested)
                    == .failure(.dateAfterWindow(requested: requested, windowStart: start, windowEnd: end)))
        default:
            let time = Self.time(row.2)
            #expect(window.time(forDate: requested) == .success(time))
            #expect(window.date(forTime: time) == requested)
        }
    }

    @Test func explanationsNameTheDates() throws {
        var timeline = HLSTimeline(playlist: try Self.playlist(0...3))
        try timeline.reload(with: Self.playlist(3...6))
        guard case let .failure(reason) = timeline.window.time(forDate: Self.date("10.000")) else {
            Issue.record("a date before the window was accepted")
            return
        }
        #expect(
            reason.explanation == "cannot seek to 2024-03-04T23:00:10.000Z: it is before the seekable window, "
                + "which runs from 2024-03-04T23:00:17.500Z to 2024-03-04T23:00:40.500Z; its media has left the "
                + "playlist or never existed")
        let undated = HLSTimeline(
            playlist: try HLSMediaPlaylist(
                parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n", url: Self.url)
        ).window
        #expect(!undated.isDateAddressable && undated.startProgramDate == nil)
        #expect(undated.time(forDate: Self.date("10.000")) == .failure(.notDateAddressable(requested: Self.date("10.000"))))
        #expect(undated.date(forTime: .zero) == nil)
        #expect(
            DateSeekUnavailableReason.noCurrentItem(requested: Self.date("10.000")).explanation
                == "cannot seek to 2024-03-04T23:00:10.000Z: there is no current item to seek in")
        #expect(
            undated.time(forDate: Date(timeIntervalSince1970: 0))
                == .failure(
                    .notDateAddressable(
                        requested: ProgramDate(sinceEpoch: .zero))))
    }

    @Test func serverHoldBackMovesTheLiveEdge() throws {
        var timeline = HLSTimeline(playlist: try Self.playlist(0...3, holdBack: "10"))
        #expect(timeline.window.liveEdge == Self.time("13"))
        try timeline.reload(with: Self.playlist(1...4, holdBack: "10"))
        #expect(timeline.window.liveEdge == Self.time("19"))
        // A hold-back longer than the window puts the edge at the window's start, not before.
        try timeline.reload(with: Self.playlist(1...4, holdBack: "30"))
        #expect(timeline.window.liveEdge == Self.time("6"))
    }

    @Test func aReloadThatSharesNothingContinuesByTargetDuration() throws {
        var timeline = HLSTimeline(playlist: try Self.playlist(0...3))
        // Segments 4 and 5 came and went unseen: 6 starts at 23 + 2 x 6 = 35.
        try timeline.reload(with: Self.playlist(6...7))
        #expect(timeline.segmentStarts == ["35", "41"].map(Self.time))
        #expect(timeline.window.time(forDate: Self.date("36.500")) == .success(Self.time("37")))
        #expect(throws: HLSTimelineError.mediaSequenceDecreased(previous: 6, reloaded: 5)) {
            try timeline.reload(with: Self.playlist(5...7))
        }
    }

    /// RFC 8216 6.3.4: the target duration after a change, half of it after none; never after ENDLIST.
    static let delayRows: [(Bool, Bool, String?)] = [
        (false, true, "6"),
        (false, false, "3"),
        (true, true, nil),
        (true, false, nil)
    ]

    @Test(arguments: delayRows)
    func reloadDelays(row: (Bool, Bool, String?)) throws {
        let playlist = try Self.playlist(0...3, ended: row.0)
        #expect(HLSTimeline.reloadDelay(after: playlist, changed: row.1) == row.2.map(Self.time))
    }

    /// RFC 8216 4.3.3.5: a VOD playlist cannot change, so it is not reloaded, EXT-X-ENDLIST or not.
    @Test func aVODPlaylistWithoutEndListIsNotReloaded() throws {
        let vod = try HLSMediaPlaylist(
            parsing: "#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n", url: Self.url)
        #expect(!vod.hasEndList && !vod.isLive)
        var timeline = HLSTimeline(playlist: vod)
        #expect(timeline.reloadDelay == nil)
        #expect(throws: HLSTimelineError.playlistEnded) { try timeline.reload(with: vod) }
    }

    @Test func theTimelineKnowsWhetherTheLastLoadChanged() throws {
        var timeline = HLSTimeline(playlist: try Self.playlist(0...3))
        #expect(timeline.reloadDelay == Self.time("6"))
        try timeline.reload(with: Self.playlist(0...3))
        #expect(timeline.reloadDelay == Self.time("3"))
        try timeline.reload(with: Self.playlist(0...4))
        #expect(timeline.reloadDelay == Self.time("6"))
        #expect(timeline.segmentStarts.last == Self.time("23"))
    }

    @Test func anEmptyWindowHasNothingToSeek() throws {
        let empty = try HLSMediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n", url: Self.url)
        var timeline = HLSTimeline(playlist: empty)
        #expect(timeline.window.seekableRange == Self.time("0")..<Self.time("0"))
        #expect(timeline.window.time(forDate: Self.date("00.000")) == .failure(.noCurrentItem(requested: Self.date("00.000"))))
        try timeline.reload(with: Self.playlist(2...3))
        #expect(timeline.window.seekableRange == Self.time("0")..<Self.time("11.5"))
    }
}
