import Foundation
import Testing
@testable import FrameSeekCore

/// Playlists from RFC 8216 section 8 and the real rollover playlist, checked against the
/// values written in them and the facts its SOURCES.md entry states.
@Suite("HLS playlist parser")
struct HLSPlaylistParserTests {
    static let base = URL(string: "https://example.com/live/index.m3u8")!

    /// `/work/shared/media/hls-ts-rollover/playlist.m3u8`, next to the worktree.
    static let rolloverPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/media/hls-ts-rollover/playlist.m3u8")

    static func seconds(_ text: String) -> MediaTime { try! MediaTime(parsing: text) }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: rolloverPath.path), "needs ../shared/media"))
    func readsTheRolloverPlaylist() throws {
        let text = try String(contentsOf: Self.rolloverPath, encoding: .utf8)
        let playlist = try HLSMediaPlaylist(parsing: text, url: Self.rolloverPath)
        // SOURCES.md: 10 segments of 2.000 s, dated 23:02:17.684Z then +2 s each, ENDLIST.
        #expect(playlist.segments.count == 10)
        #expect(playlist.segments.allSatisfy { $0.duration == MediaTime(value: 2, timescale: 1) })
        #expect(playlist.duration == MediaTime(value: 20, timescale: 1))
        #expect(playlist.version == 7 && playlist.targetDuration == 2 && playlist.mediaSequence == 0)
        #expect(playlist.hasEndList && !playlist.isLive && playlist.isDateAddressable)
        #expect(playlist.segments.map(\.mediaSequence) == Array(0..<10))
        #expect(
            playlist.segments.map(\.uri.lastPathComponent)
                == (24...33).map { "360p30_h264_48k_160_aac_ts-00000000\($0).ts" })
        #expect(
            playlist.segments[0].uri.path
                == Self.rolloverPath.deletingLastPathComponent().appendingPathComponent(
                    "360p30_h264_48k_160_aac_ts-0000000024.ts"
                ).path)
        let dates = try #require(playlist.segmentDates)
        for (index, date) in dates.enumerated() {
            #expect(date.sinceEpoch == MediaTime(value: 1_709_593_337_684 + 2000 * Int64(index), timescale: 1000))
        }
        #expect(dates[5].iso8601 == "2024-03-04T23:02:27.684Z")

        let window = HLSTimeline(playlist: playlist).window
        #expect(window.seekableRange == MediaTime.zero..<MediaTime(value: 20, timescale: 1))
        #expect(window.liveEdge == MediaTime(value: 20, timescale: 1))
        #expect(window.endProgramDate?.iso8601 == "2024-03-04T23:02:37.684Z")
        // 0.5 s into segment 5, which starts at 10 s.
        let date = try ProgramDate(parsing: "2024-03-04T23:02:28.184Z")
        #expect(try window.time(forDate: date).get() == Self.seconds("10.5"))
        #expect(window.date(forTime: Self.seconds("10.5")) == date)
        #expect(HLSTimeline.reloadDelay(after: playlist, changed: true) == nil)
    }

    @Test func readsTheRFCSimpleMediaPlaylist() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:3
            #EXTINF:9.009,
            http://media.example.com/first.ts
            #EXTINF:9.009,
            http://media.example.com/second.ts
            #EXTINF:3.003,
            http://media.example.com/third.ts
            #EXT-X-ENDLIST
            """
        let playlist = try HLSMediaPlaylist(parsing: text, url: Self.base)
        #expect(playlist.segments.map(\.duration) == ["9.009", "9.009", "3.003"].map(Self.seconds))
        #expect(playlist.duration == Self.seconds("21.021"))
        #expect(playlist.segments[2].uri.absoluteString == "http://media.example.com/third.ts")
        #expect(playlist.segments[2].line == 9)
        #expect(!playlist.isLive && !playlist.isDateAddressable && playlist.segmentDates == nil)
    }

    @Test func readsTheRFCLivePlaylist() throws {
        // RFC 8216 8.2, with CRLF line ends and a comment.
        let text =
            "#EXTM3U\r\n#EXT-X-VERSION:3\r\n#EXT-X-TARGETDURATION:8\r\n#EXT-X-MEDIA-SEQUENCE:2680\r\n\r\n"
            + "# a comment\r\n#EXTINF:7.975,\r\nhttps://priv.example.com/fileSequence2680.ts\r\n"
            + "#EXTINF:7.941,\r\nhttps://priv.example.com/fileSequence2681.ts\r\n"
            + "#EXTINF:7.975,\r\nhttps://priv.example.com/fileSequence2682.ts\r\n"
        let playlist = try HLSMediaPlaylist(parsing: text, url: Self.base)
        #expect(playlist.isLive && playlist.playlistType == nil)
        #expect(playlist.segments.map(\.mediaSequence) == [2680, 2681, 2682])
        #expect(playlist.segments[1].line == 10)
        let window = HLSTimeline(playlist: playlist).window
        #expect(window.seekableRange == MediaTime.zero..<Self.seconds("23.891"))
        // Three target durations (24 s) exceed the window: the edge is its start.
        #expect(window.liveEdge == .zero)
    }

    @Test func readsTheRFCEncryptedPlaylistIgnoringKeys() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-MEDIA-SEQUENCE:7794
            #EXT-X-TARGETDURATION:15

            #EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=52"

            #EXTINF:2.833,
            http://media.example.com/fileSequence52-A.ts
            #EXTINF:15.0,
            http://media.example.com/fileSequence52-B.ts
            #EXTINF:13.333,
            http://media.example.com/fileSequence52-C.ts

            #EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=53"

            #EXTINF:15.0,
            http://media.example.com/fileSequence53-A.ts
            """
        let playlist = try HLSMediaPlaylist(parsing: text, url: Self.base)
        #expect(playlist.segments.count == 4 && playlist.mediaSequence == 7794)
        #expect(playlist.duration == Self.seconds("46.166"))
    }

    @Test func readsAnEventPlaylist() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-PLAYLIST-TYPE:EVENT
            #EXT-X-TARGETDURATION:4
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5,HOLD-BACK=8.5
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00.000Z
            #EXTINF:4.0,first
            seg0.ts
            #EXTINF:3.5,
            seg1.ts
            """
        let playlist = try HLSMediaPlaylist(parsing: text, url: Self.base)
        #expect(playlist.playlistType == .event && playlist.isLive)
        #expect(playlist.holdBack == Self.seconds("8.5"))
        #expect(playlist.segments[0].title == "first" && playlist.segments[1].title == nil)
        #expect(playlist.segments[1].uri.absoluteString == "https://example.com/live/seg1.ts")
        let window = HLSTimeline(playlist: playlist).window
        #expect(window.holdBack == Self.seconds("8.5"))
        #expect(window.liveEdge == .zero)  // 7.5 s of media, less than the hold-back
        #expect(window.endProgramDate == (try ProgramDate(parsing: "2024-01-01T00:00:07.5Z")))

        let ended = try HLSMediaPlaylist(parsing: text + "\n#EXT-X-ENDLIST\n", url: Self.base)
        #expect(!ended.isLive)
        let vod = try HLSMediaPlaylist(parsing: text.replacingOccurrences(of: "EVENT", with: "VOD"), url: Self.base)
        #expect(vod.playlistType == .vod && !vod.isLive)
    }

    @Test func byteRangesContinueThePreviousSubRange() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:4
            #EXTINF:10.0,
            #EXT-X-BYTERANGE:75232@0
            segment.ts
            #EXT-X-BYTERANGE:82112
            #EXTINF:10.0,
            segment.ts
            #EXTINF:10.0,
            #EXT-X-BYTERANGE:69864
            segment.ts
            #EXTINF:10.0,
            #EXT-X-BYTERANGE:1000@5
            other.ts
            #EXTINF:10.0,
            other.ts
            """
        let playlist = try HLSMediaPlaylist(parsing: text, url: Self.base)
        #expect(
            playlist.segments.map(\.byteRange) == [
                HLSByteRange(length: 75232, offset: 0),
                HLSByteRange(length: 82112, offset: 75232),
                HLSByteRange(length: 69864, offset: 157_344),
                HLSByteRange(length: 1000, offset: 5),
                nil
            ])
    }

    @Test func mapsApplyToTheSegmentsAfterThem() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXTINF:2,
            plain.ts
            #EXT-X-MAP:URI="init-a.mp4"
            #EXTINF:2,
            a1.m4s
            #EXTINF:2,
            a2.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-MAP:URI="init-b.mp4",BYTERANGE="720@16"
            #EXTINF:2,
            b1.m4s
            """
        let playlist = try HLSMediaPlaylist(parsing: text, url: Self.base)
        let maps = playlist.segments.map { $0.map?.uri.lastPathComponent }
        #expect(maps == [nil, "init-a.mp4", "init-a.mp4", "init-b.mp4"])
        #expect(playlist.segments[3].map?.byteRange == HLSByteRange(length: 720, offset: 16))
        #expect(playlist.segments[1].map?.byteRange == nil)
    }

    @Test func discontinuitiesAreCounted() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:40
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXTINF:2,
            s40.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2,
            s41.ts
            #EXTINF:2,
            s42.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2,
            s43.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2,
            s44.ts
            """
        let playlist = try HLSMediaPlaylist(parsing: text, url: Self.base)
        #expect(playlist.segments.map(\.discontinuitySequence) == [7, 8, 8, 9, 10])
        #expect(playlist.segments.map(\.discontinuity) == [false, true, false, true, true])
        #expect(playlist.segments.map(\.mediaSequence) == [40, 41, 42, 43, 44])
    }

    @Test func datesFollowDurationsBothWaysAndFreshDatesWin() throws {
        // Dated only at the third segment and after a discontinuity that jumps 60 s ahead.
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:3
            #EXTINF:2.5,
            a.ts
            #EXTINF:2,
            b.ts
            #EXT-X-PROGRAM-DATE-TIME:2024-03-04T12:00:00+01:00
            #EXTINF:3,
            c.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2,
            d.ts
            #EXT-X-DISCONTINUITY
            #EXT-X-PROGRAM-DATE-TIME:2024-03-04T11:01:07Z
            #EXTINF:2,
            e.ts
            """
        let playlist = try HLSMediaPlaylist(parsing: text, url: Self.base)
        let dates = try #require(playlist.segmentDates).map(\.description)
        #expect(
            dates == [
                "2024-03-04T10:59:55.500Z", "2024-03-04T10:59:58.000Z", "2024-03-04T11:00:00.000Z",
                "2024-03-04T11:00:03.000Z", "2024-03-04T11:01:07.000Z"
            ])
        let window = HLSTimeline(playlist: playlist).window
        // In the gap between d's end (11:00:05) and e's date: the start of e (9.5 s).
        #expect(try window.time(forDate: ProgramDate(parsing: "2024-03-04T11:00:30Z")).get() == Self.seconds("9.5"))
        #expect(try window.time(forDate: ProgramDate(parsing: "2024-03-04T10:59:56Z")).get() == Self.seconds("0.5"))
        #expect(
            try window.time(forDate: ProgramDate(parsing: "2024-03-04T11:01:08.25Z")).get()
                == Self.seconds("10.75"))
    }
}
