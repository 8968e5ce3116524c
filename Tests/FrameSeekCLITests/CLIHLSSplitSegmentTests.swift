// An HLS playlist whose segments do not start with a keyframe: ffmpeg's HLS muxer with
// `-hls_flags split_by_time` cuts at the segment duration, mid-GOP. The playlist starts each
// segment at its first packet (EXTINF from one segment's first packet to the next's); the
// packets before a segment's first keyframe decode only after the segment before, and are not
// listed. Each segment's keyframe was placed at the segment's start, so every landing after it
// showed a picture up to the packets' span late, with no warning.
//
// The truth is ffmpeg's decode of the playlist (`-copyts`: each frame's MPEG-TS PTS and MD5)
// and ffprobe's packets of each segment file (which come before its first keyframe).

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("CLI: HLS segments cut mid-GOP (split_by_time)", .ffmpegLog)
struct CLIHLSSplitSegmentTests {
    @Test(
        "Every frame after a segment's first keyframe lands with ffmpeg's pixels; a frame before it is missing data, as needed and whole",
        arguments: ["as-needed", "full"])
    func landsOnFFmpegsFrames(_ indexing: String) throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mp4")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=30:d=6", "-c:v", "libx264",
            "-preset", "veryfast", "-bf", "3", "-g", "60", "-keyint_min", "60", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
            source
        ])
        let playlist = directory.file("index.m3u8")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-i", source, "-c", "copy", "-f", "hls", "-hls_time", "1.5", "-hls_flags",
            "split_by_time", "-hls_playlist_type", "vod", "-hls_segment_filename", directory.file("s%d.ts"), playlist
        ])

        // Each segment's packets in decode order: those before its first keyframe are not listed.
        var unlisted = Set<Int64>()
        var segment = 0
        while FileManager.default.fileExists(atPath: directory.file("s\(segment).ts")) {
            let packets = try runTool([
                "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,flags", "-of", "csv=p=0",
                directory.file("s\(segment).ts")
            ]).split(whereSeparator: \.isNewline).map { $0.split(separator: ",") }
            let firstKeyframe = packets.firstIndex { $0.count > 1 && $0[1].hasPrefix("K") } ?? packets.count
            unlisted.formUnion(packets.prefix(firstKeyframe).compactMap { $0.first.flatMap { Int64($0) } })
            segment += 1
        }
        try #require(segment >= 3 && unlisted.count > 10, "\(segment) segments, \(unlisted.count) packets before keyframes")

        // ffmpeg's decode of the playlist: each frame's PTS and MD5, the first at time zero.
        let frames = try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-threads", "1", "-copyts", "-i", playlist, "-map", "0:v:0", "-fps_mode",
            "passthrough", "-enc_time_base:v", "-1", "-f", "framemd5", "-"
        ]).split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap { line -> (pts: Int64, md5: String)? in
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 6, let pts = Int64(fields[2]) else { return nil }
            return (pts, fields[5])
        }
        try #require(frames.count == 180, "\(frames.count) frames decoded")
        let start = try #require(frames.map(\.pts).min())
        // Every third frame, at the middle of its interval (3000 ticks at 30 fps): EXTINF's
        // microseconds place a segment within a tick of its first packet.
        let sampled = frames.sorted { $0.pts < $1.pts }.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        let targets = sampled.map { "\($0.pts - start + 1500)/90000" }
        let run = frameseek(["seek", playlist] + targets.flatMap { ["--at", $0] } + ["--json", "--md5", "--index", indexing])
        try #require(run.code == .success, "exit \(run.code.rawValue): \(run.stderr.text)")
        // One warning line for the whole run: some landings are damaged.
        #expect(run.err.count == 1 && run.err.first?.contains("damaged") == true, "\(run.err)")
        let landings = run.out.compactMap { JSON.object($0) }
        try #require(landings.count == targets.count)

        var wrong: [String] = []
        for (frame, landing) in zip(sampled, landings) {
            let context = "frame at pts \(frame.pts) (\(frame.pts - start) ticks)"
            if unlisted.contains(frame.pts) {
                // Missing data: the segment's packets before its first keyframe, or a segment
                // with no keyframe at all, unreadable alone.
                if (landing["missing_data"] as? String ?? "").isEmpty || landing["damaged"] as? Bool != true {
                    wrong.append("\(context), before its segment's keyframe: not missing data: \(landing)")
                }
            } else if landing["md5"] as? String != frame.md5 || landing["damaged"] as? Bool != false {
                wrong.append("\(context): landed \(landing["landed_rational"] ?? "?") md5 \(landing["md5"] ?? "?"), ffmpeg's \(frame.md5)")
            }
        }
        #expect(
            landings.contains { ($0["missing_data"] as? String)?.contains("packets before its first keyframe") == true },
            "no landing names a segment that starts before its first keyframe")
        #expect(wrong.isEmpty, "\(wrong.count) of \(sampled.count) landings wrong:\n\(wrong.prefix(6).joined(separator: "\n"))")
    }
}
