// `frameseek live` and `seek` on playlists written for the test: a VOD playlist without dates
// (FFmpeg's HLS muxer writes none), a live playlist (the rollover's segments and dates without
// EXT-X-ENDLIST), and a multivariant playlist over the two. The truth is the rollover's dates
// read by hand, RFC 8216's three-target-duration hold-back, and FFmpeg's decode.

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// The playlists, written once per test process into a directory of its own.
private struct WrittenPlaylists: Sendable {
    /// The barcoded MPEG-TS fixture cut by FFmpeg into 1-second VOD segments: no dates.
    let undated: String
    /// The rollover's ten segments and dates, by absolute path, without EXT-X-ENDLIST.
    let live: String
    /// Variant 0: the undated playlist at 2 Mbit/s; variant 1: the live one at 1 Mbit/s.
    let multivariant: String

    static let shared: Result<WrittenPlaylists, any Error> = Result { try WrittenPlaylists() }

    private init() throws {
        let directory = testScratchPath("live-cli")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try runTool(
            [
                "ffmpeg", "-nostdin", "-v", "error", "-y", "-i", Repository.fixture("media/h264_mpegts_offset.ts"),
                "-c", "copy", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                "-hls_segment_filename", "undated%d.ts", "undated.m3u8"
            ], in: directory)
        undated = directory.appendingPathComponent("undated.m3u8").path

        let fixtureDirectory = URL(fileURLWithPath: Rollover.playlist).deletingLastPathComponent()
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for segment in 0..<10 {
            text += "#EXT-X-PROGRAM-DATE-TIME:\(Rollover.date(milliseconds: Rollover.startMilliseconds + 2000 * segment))\n"
            text +=
                "#EXTINF:2.000000,\n"
                + fixtureDirectory.appendingPathComponent("360p30_h264_48k_160_aac_ts-00000000\(24 + segment).ts").path + "\n"
        }
        live = directory.appendingPathComponent("live.m3u8").path
        try text.write(toFile: live, atomically: true, encoding: .utf8)

        multivariant = directory.appendingPathComponent("multivariant.m3u8").path
        try """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=2000000
        undated.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=1000000
        live.m3u8

        """.write(toFile: multivariant, atomically: true, encoding: .utf8)
    }
}

@Suite("CLI: live, undated and multivariant playlists", .ffmpegLog)
struct CLILivePlaylistTests {
    @Test("live --json on a playlist without dates: not date-addressable, dates null; a date seek is unavailable")
    func undated() throws {
        let playlists = try WrittenPlaylists.shared.get()
        let info = try liveRecord(frameseek(["live", playlists.undated, "--json"]))
        #expect(info["is_live"] as? Bool == false)
        #expect(info["date_addressable"] as? Bool == false)
        #expect(info["start_date"] is NSNull && info["end_date"] is NSNull)
        #expect(JSON.double(info["seekable_start"]) == 0)
        #expect(JSON.double(info["live_edge"]) == JSON.double(info["seekable_end"]))

        let seek = frameseek(["seek", playlists.undated, "--date", "2024-03-04T23:02:20Z", "--json"])
        #expect(seek.code == .failedCheck)
        #expect(try liveRecord(seek)["reason"] as? String == "notDateAddressable")
        let landing = try liveRecord(frameseek(["seek", playlists.undated, "1", "--json"]))
        #expect(landing["landed_date"] is NSNull, "a playlist without dates dates no landing: \(landing)")
    }

    @Test("A live playlist: is_live, and --live-edge lands three target durations before the end")
    func liveEdge() throws {
        let playlists = try WrittenPlaylists.shared.get()
        let info = try liveRecord(frameseek(["live", playlists.live, "--json"]))
        #expect(info["is_live"] as? Bool == true)
        #expect(info["end_date"] as? String == "2024-03-04T23:02:37.684Z")
        #expect(JSON.double(info["seekable_end"]) == 20)
        #expect(JSON.double(info["live_edge"]) == Double(20 - 3 * 2), "the end less three target durations")

        let md5s = try Rollover.md5s.get()
        let result = frameseek(["seek", playlists.live, "--live-edge", "--md5", "--json"])
        #expect(result.code == .success, "\(result.err)")
        let landing = try liveRecord(result)
        let edgeFrame = 14 * Rollover.framesPerSecond
        #expect(JSON.double(landing["landed"]) == 14)
        #expect(JSON.int(landing["frame_index"]) == edgeFrame)
        #expect(landing["md5"] as? String == md5s[edgeFrame])
        #expect(landing["landed_date"] as? String == "2024-03-04T23:02:31.684Z")
    }

    @Test("A multivariant playlist opens the highest bandwidth by default and --variant N by 0-based position")
    func variants() throws {
        let playlists = try WrittenPlaylists.shared.get()
        let chosen = try liveRecord(frameseek(["live", playlists.multivariant, "--json"]))
        #expect(chosen["date_addressable"] as? Bool == false, "variant 0, 2 Mbit/s, is the undated playlist")
        let second = try liveRecord(frameseek(["live", playlists.multivariant, "--variant", "1", "--json"]))
        #expect(second["is_live"] as? Bool == true && second["start_date"] as? String == "2024-03-04T23:02:17.684Z")
        #expect(JSON.int(second["segments"]) == 10)

        let landing = try liveRecord(
            frameseek([
                "seek", playlists.multivariant, "--variant", "1", "--date",
                "2024-03-04T23:02:25.684Z", "--json"
            ]))
        #expect(JSON.int(landing["frame_index"]) == 192)
        // Each landing names its variant; bandwidth:BPS picks the same one, and lands the same.
        let variant = try #require(landing["variant"] as? [String: Any], "\(landing)")
        #expect(JSON.int(variant["position"]) == 1 && JSON.int(variant["bandwidth"]) == 1_000_000, "\(variant)")
        #expect((variant["uri"] as? String)?.hasSuffix("/live.m3u8") == true && variant["resolution"] is NSNull, "\(variant)")
        let byBandwidth = try liveRecord(
            frameseek(["seek", playlists.multivariant, "--variant", "bandwidth:1000000", "9", "--json", "--md5"]))
        let byPosition = try liveRecord(frameseek(["seek", playlists.multivariant, "--variant", "1", "9", "--json", "--md5"]))
        #expect(byBandwidth["md5"] as? String == byPosition["md5"] as? String && byBandwidth["md5"] != nil)
        #expect(JSON.int((byBandwidth["variant"] as? [String: Any])?["position"]) == 1)
        let media = try liveRecord(frameseek(["seek", playlists.undated, "1", "--json"]))
        #expect(media["variant"] is NSNull, "a media playlist has no variant: \(media)")
        let unknown = frameseek(["seek", playlists.multivariant, "--variant", "resolution:640x360", "1"])
        #expect(unknown.code == .usageOrInput && unknown.err.first?.contains("RESOLUTION 640x360") == true, "\(unknown.err)")
        let malformed = frameseek(["seek", playlists.multivariant, "--variant", "best", "1"])
        #expect(malformed.code == .usageOrInput && malformed.err.first?.contains("bandwidth:BPS") == true, "\(malformed.err)")

        let missing = frameseek(["live", playlists.multivariant, "--variant", "2"])
        #expect(missing.code == .usageOrInput && missing.err.count == 1)
        #expect(missing.err.first?.contains(playlists.multivariant) == true, "\(missing.err)")
    }
}
