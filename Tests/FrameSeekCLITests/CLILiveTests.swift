// `frameseek live` and `frameseek seek --date` on the rollover playlist (VOD, ten 2-second
// segments at 24 fps, dates from 23:02:17.684 two seconds apart, the 33-bit PTS wrapping in
// the fifth segment). The truth is independent of FrameSeek: the dates are the playlist's,
// read by hand into these tests, and the frames are FFmpeg's own decode of the playlist
// (`ffmpeg -f framemd5`, whose n-th frame line is the n-th frame in presentation order).

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// The rollover playlist, and its first date as milliseconds into 23:02 on 2024-03-04.
enum Rollover {
    static let playlist = Repository.fixture("media/hls-ts-rollover/playlist.m3u8")
    static let startMilliseconds = 17_684
    static let framesPerSecond = 24

    /// FFmpeg's MD5 of every frame of the playlist, in presentation order.
    static let md5s: Result<[String], any Error> = Result { try ffmpegVideoMD5s(playlist) }

    /// The date `milliseconds` into 23:02, as the playlist writes dates.
    static func date(milliseconds: Int) -> String {
        let seconds = milliseconds / 1000, fraction = milliseconds % 1000
        return "2024-03-04T23:02:" + (seconds < 10 ? "0" : "") + "\(seconds)." + String(1000 + fraction).dropFirst() + "Z"
    }

    /// The frame showing at `milliseconds` into 23:02: frame n covers [n/24, (n+1)/24) after
    /// the first date.
    static func frame(atMilliseconds milliseconds: Int) -> Int {
        (milliseconds - startMilliseconds) * framesPerSecond / 1000
    }

    /// Frame `index`'s date, cut to the millisecond as ISO 8601 with milliseconds is.
    static func date(ofFrame index: Int) -> String {
        date(milliseconds: startMilliseconds + index * 1000 / framesPerSecond)
    }
}

/// The one JSON object a command printed.
func liveRecord(_ result: RunResult) throws -> [String: Any] {
    #expect(result.out.count == 1, "one line: \(result.out)")
    let line = try #require(result.out.first)
    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
}

@Suite("CLI: live windows and date seeks on the rollover playlist", .ffmpegLog)
struct CLILiveTests {
    @Test("live --json: an ended, date-addressable window of ten 2-second segments")
    func liveWindow() throws {
        let result = frameseek(["live", Rollover.playlist, "--json"])
        #expect(result.code == .success && result.err.isEmpty, "\(result.err)")
        let info = try liveRecord(result)
        #expect(info["is_live"] as? Bool == false)
        #expect(info["date_addressable"] as? Bool == true)
        #expect(info["start_date"] as? String == "2024-03-04T23:02:17.684Z")
        #expect(info["end_date"] as? String == "2024-03-04T23:02:37.684Z")
        #expect(JSON.double(info["seekable_start"]) == 0)
        #expect(JSON.double(info["seekable_end"]) == 20)
        #expect(JSON.double(info["live_edge"]) == 20, "not live: the edge is the end")
        #expect(JSON.double(info["target_duration"]) == 2)
        #expect(JSON.int(info["segments"]) == 10)
        #expect(info["missing_data"] == nil)
        let text = frameseek(["live", Rollover.playlist])
        #expect(text.code == .success && text.out.contains { $0.contains("2024-03-04T23:02:17.684Z") })
    }

    /// Milliseconds into 23:02: inside segments 3, 4 (where the PTS wraps) and 5, 0-based,
    /// and exactly at segment boundaries, the window's start among them.
    @Test(
        "seek --date lands on the frame showing at the date, with FFmpeg's MD5 and the frame's date",
        arguments: [24_000, 26_900, 28_300, 17_684, 23_684, 25_684, 27_684, 37_683])
    func dateSeek(milliseconds: Int) throws {
        let md5s = try Rollover.md5s.get()
        #expect(md5s.count == 240 * 2, "20 s at 24 fps in FFmpeg's decode")
        let index = Rollover.frame(atMilliseconds: milliseconds)
        let date = Rollover.date(milliseconds: milliseconds)
        let result = frameseek(["seek", Rollover.playlist, "--date", date, "--md5", "--json"])
        #expect(result.code == .success, "\(result.err)")
        let landing = try liveRecord(result)
        #expect(JSON.int(landing["frame_index"]) == index, "\(date)")
        #expect(landing["md5"] as? String == md5s[index], "\(date): frame \(index)")
        #expect(landing["landed_date"] as? String == Rollover.date(ofFrame: index))
        #expect(landing["within_tolerance"] as? Bool == true)
    }

    @Test(
        "A date outside the window is unavailable: one record naming the reason, exit 1",
        arguments: [(17_683, "dateBeforeWindow"), (37_684, "dateAfterWindow"), (59_000, "dateAfterWindow")])
    func unavailableDate(milliseconds: Int, reason: String) throws {
        let date = Rollover.date(milliseconds: milliseconds)
        let result = frameseek(["seek", Rollover.playlist, "--date", date, "--json"])
        #expect(result.code == .failedCheck)
        let record = try liveRecord(result)
        #expect(record["result"] as? String == "unavailable")
        #expect(record["reason"] as? String == reason)
        let explanation = try #require(record["explanation"] as? String)
        #expect(explanation.contains(date) && explanation.contains("2024-03-04T23:02:17.684Z"))
        let text = frameseek(["seek", Rollover.playlist, "--date", date])
        #expect(text.code == .failedCheck && text.out.count == 1 && text.out[0].contains(explanation))
    }

    @Test("TIME seeks in a playlist carry landed_date; a file's JSON has none")
    func timeSeekDates() throws {
        let landing = try liveRecord(frameseek(["seek", Rollover.playlist, "10", "--json", "--index", "full"]))
        #expect(JSON.int(landing["frame_index"]) == 240)
        #expect(landing["landed_date"] as? String == "2024-03-04T23:02:27.684Z")
        // Read as needed, the landing has no frame number and the same date.
        let asNeeded = try liveRecord(frameseek(["seek", Rollover.playlist, "10", "--json"]))
        #expect(asNeeded["frame_index"] is NSNull && asNeeded["frame_index_unknown"] as? String == "not_indexed", "\(asNeeded)")
        #expect(asNeeded["landed_date"] as? String == "2024-03-04T23:02:27.684Z")
        let text = frameseek(["seek", Rollover.playlist, "10"])
        #expect(text.out.first?.hasSuffix("date 2024-03-04T23:02:27.684Z") == true, "\(text.out)")
        let file = try liveRecord(frameseek(["seek", Repository.fixture("media/h264_mpegts_offset.ts"), "1", "--json"]))
        #expect(file["landed_date"] == nil)
    }

    @Test("Usage errors exit 2 with one line: --date on a file, a malformed date, a date with TIMEs, live on a file")
    func usage() {
        let file = Repository.fixture("media/h264_mpegts_offset.ts")
        let cases: [([String], String)] = [
            (["seek", file, "--date", "2024-03-04T23:02:20Z"], "--date needs an HLS playlist"),
            (["seek", file, "--live-edge"], "--live-edge needs an HLS playlist"),
            (["seek", file, "1", "--variant", "0"], "--variant needs an HLS playlist"),
            (["seek", Rollover.playlist, "--date", "2024-13-04T23:02:20Z"], "2024-13-04T23:02:20Z"),
            (["seek", Rollover.playlist, "1", "--date", "2024-03-04T23:02:20Z"], "cannot be combined"),
            (["seek", Rollover.playlist, "--live-edge", "--date", "2024-03-04T23:02:20Z"], "cannot be combined"),
            (["live", file], "not an HLS playlist")
        ]
        for (arguments, words) in cases {
            let result = frameseek(arguments)
            #expect(result.code == .usageOrInput, "\(arguments)")
            #expect(result.out.isEmpty && result.err.count == 1, "\(arguments): \(result.err)")
            #expect(result.err.first?.contains(words) == true, "\(arguments): \(result.err)")
            if arguments[1] == file { #expect(result.err.first?.contains(file) == true) }
        }
    }

    @Test("--live-edge on an ended playlist is unavailable (notLive), exit 1")
    func liveEdgeOnVOD() throws {
        let result = frameseek(["seek", Rollover.playlist, "--live-edge", "--json"])
        #expect(result.code == .failedCheck)
        let record = try liveRecord(result)
        #expect(record["result"] as? String == "unavailable")
        #expect(record["reason"] as? String == "notLive")
        #expect((record["explanation"] as? String)?.contains("EXT-X-ENDLIST") == true)
    }
}
