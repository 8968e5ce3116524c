// A live (dynamic) DASH presentation on a local origin that advances it in real time
// (scripts/range-http-server.py --live with an .mpd name): a clip encoded here (25 fps, a
// keyframe every 2 s, no B-frames) and cut by ffmpeg's DASH muxer into 2-s CMAF segments, served
// as a sliding window of six under a SegmentTimeline, availabilityStartTime fixed at the
// server's start less the window.
//
// The truth is the MPD's own availabilityStartTime and ffmpeg's decode of the clip: a frame
// whose media time is m has the wall-clock date availabilityStartTime + m (Period at 0, no
// presentation time offset), and its picture is frame m x 25 of `ffmpeg -f framemd5`. Every
// landing is checked against both; with the origin failing 30% of its requests, every answer
// is right, flagged (damaged, missing data) or refused with one line, never silently wrong.

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("CLI: live DASH (dynamic MPDs)", .ownThread, .ffmpegLog)
struct CLIDASHLiveTests {
    /// The segments seg00000.m4s ... and init.m4s of a clip `seconds` long, and the MD5 of each
    /// of its frames, in order.
    static func liveSegments(seconds: Int) throws -> (directory: TemporaryDirectory, md5s: [String]) {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=\(seconds)",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-bf", "0",
            "-pix_fmt", "yuv420p", clip
        ])
        let packaged = directory.file("packaged")
        try FileManager.default.createDirectory(atPath: packaged, withIntermediateDirectories: true)
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-i", clip, "-c", "copy", "-f", "dash", "-seg_duration", "2",
            "-use_template", "1", "-use_timeline", "1", packaged + "/manifest.mpd"
        ])
        // ffmpeg numbers segments from 1; the origin numbers them from 0.
        let names = try FileManager.default.contentsOfDirectory(atPath: packaged).filter { $0.hasPrefix("chunk-") }.sorted()
        try #require(names.count == seconds / 2, "\(names.count) segments")
        for (index, name) in names.enumerated() {
            try FileManager.default.moveItem(atPath: packaged + "/" + name, toPath: directory.file(String(format: "seg%05d.m4s", index)))
        }
        try FileManager.default.moveItem(atPath: packaged + "/init-stream0.m4s", toPath: directory.file("init.m4s"))
        return (directory, try ffmpegVideoMD5s(clip))
    }

    /// The MPD's availabilityStartTime, read from the origin's MPD text.
    static func availabilityStart(_ url: String) throws -> ProgramDate {
        let text = try runTool([
            "python3", "-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", url
        ])
        let match = try #require(text.firstMatch(of: /availabilityStartTime="([^"]+)"/), "no availabilityStartTime in \(text)")
        return try ProgramDate(parsing: String(match.1))
    }

    /// Whether `line` (seek --json --md5) landed on the frame its own date names: the frame at
    /// media time landed_date - availabilityStartTime, with that frame's MD5.
    static func landsOnItsDate(_ line: [String: Any], start: ProgramDate, md5s: [String]) throws -> Bool {
        let date = try ProgramDate(parsing: try #require(line["landed_date"] as? String))
        let media = start.interval(to: date)
        let frame = media.convertScale(25, rounding: .towardNegativeInfinity)
        // Dates print to the millisecond; a frame is 40 ms.
        guard frame == media.convertScale(25, rounding: .towardPositiveInfinity), md5s.indices.contains(Int(frame.value)) else {
            return false
        }
        return line["md5"] as? String == md5s[Int(frame.value)]
    }

    @Test("live --json gives the sliding window; a date seek lands on the frame whose date covers it; --live-edge three segments back")
    func windowDatesAndEdge() throws {
        let (directory, md5s) = try Self.liveSegments(seconds: 120)
        let server = try HTTPServer(directory: directory.path, arguments: ["--live", "live.mpd", "60", "6", "2.0", "seg%05d.m4s"])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/live.mpd"
        let start = try Self.availabilityStart(url)

        let window = try #require(jsonLines(["live", url, "--json"]).first)
        #expect(window["is_live"] as? Bool == true && window["date_addressable"] as? Bool == true, "\(window)")
        let segments = try #require(JSON.int(window["segments"]))
        #expect((5...6).contains(segments), "\(segments) segments in a window of six")
        let first = try ProgramDate(parsing: try #require(window["start_date"] as? String))
        let last = try ProgramDate(parsing: try #require(window["end_date"] as? String))
        #expect(first.interval(to: last) == MediaTime(value: Int64(2 * segments), timescale: 1), "\(window)")
        let offset = start.interval(to: first)
        #expect(offset.convertScale(1, rounding: .towardNegativeInfinity) == offset && offset.value % 2 == 0, "segments start on 2-s dates")
        #expect(JSON.double(window["live_edge"]) == JSON.double(window["seekable_end"]).map { $0 - 6 }, "three target durations back")

        // 1.98 s before that window's end, in its last segment: inside it still after the
        // window slides four times (a slow build's commands take seconds).
        let date = last.advanced(by: MediaTime(value: -198, timescale: 100))
        let seek = try #require(jsonLines(["seek", url, "--date", date.iso8601(fractionDigits: 3), "--json", "--md5"]).first)
        let landed = try ProgramDate(parsing: try #require(seek["landed_date"] as? String))
        let expected = start.advanced(
            by: MediaTime(value: (start.interval(to: date).convertScale(25, rounding: .towardNegativeInfinity)).value, timescale: 25))
        #expect(landed == expected, "landed at \(landed.iso8601), the frame covering \(date.iso8601) starts at \(expected.iso8601)")
        #expect(try Self.landsOnItsDate(seek, start: start, md5s: md5s), "\(seek)")

        let edge = try #require(jsonLines(["seek", url, "--live-edge", "--json", "--md5"]).first)
        #expect(try Self.landsOnItsDate(edge, start: start, md5s: md5s), "\(edge)")
        #expect(edge["damaged"] as? Bool == false && edge["clamp"] as? String == "none", "\(edge)")
        // The edge is a segment's start: the window's end less three 2-s segments.
        let edgeMedia = start.interval(to: try ProgramDate(parsing: try #require(edge["landed_date"] as? String)))
        #expect(edgeMedia.convertScale(1, rounding: .towardNegativeInfinity) == edgeMedia && edgeMedia.value % 2 == 0, "\(edge)")
    }

    static let faults =
        #"{"random": {"rate": 0.3, "seed": 11, "kinds": ["503", "500", "404", "cut", "stall:1.5"], "suffixes": [".m4s", ".mpd"]}}"#

    @Test("20 live-edge seeks at 30% faults: none silently wrong, most right, the rest flagged or refused with one line")
    func liveEdgeUnderFaults() throws {
        let (directory, md5s) = try Self.liveSegments(seconds: 240)
        let server = try HTTPServer(
            directory: directory.path, arguments: ["--faults", Self.faults, "--live", "live.mpd", "120", "6", "2.0", "seg%05d.m4s"])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/live.mpd"
        // The MPD may fail too: read its start until it answers.
        var start: ProgramDate?
        for _ in 0..<20 where start == nil { start = try? Self.availabilityStart(url) }
        let availabilityStart = try #require(start)
        var right = 0, flagged = 0, refused = 0
        // Three seeks at a time: each mostly waits out retries and stalls.
        for (run, result) in frameseekInLanes(20, lanes: 3, ["seek", url, "--live-edge", "--json", "--md5"]).enumerated() {
            let context = "run \(run)"
            guard result.code == .success else {
                #expect(result.code == .usageOrInput, "\(context): exit \(result.code.rawValue)")
                #expect(result.err.count == 1 && result.err[0].contains(url), "\(context): \(result.err)")
                refused += 1
                continue
            }
            let line = try #require(result.out.first.flatMap(JSON.object), "\(context): no JSON line")
            if JSON.bool(line["damaged"]) == true, line["missing_data"] != nil {
                flagged += 1
            } else if try Self.landsOnItsDate(line, start: availabilityStart, md5s: md5s) {
                right += 1
            } else {
                Issue.record("\(context): a silent wrong answer: \(line)")
            }
        }
        #expect(right >= 10, "\(right) right, \(flagged) flagged, \(refused) refused")
        let stats = try server.requestsAndFaults()
        #expect(stats.faults.values.reduce(0, +) > 20, "the origin injected only \(stats.faults)")
    }
}
