// DASH presentations read by FrameSeek itself, not by FFmpeg's dash demuxer: fixtures packaged
// by ffmpeg's DASH muxer in the test, with a SegmentTemplate by $Number$ and by SegmentTimeline.
//
// The truth is ffmpeg's own decode of the MPD (its dash demuxer, framemd5 with each frame's
// PTS as the media has it, -copyts): a seek to each frame's time, and to a point inside its
// interval, must land on that frame with its MD5, whether the seek fetches only the segments it
// needs or the whole presentation was indexed. A frame's time in the presentation is its media
// time less the presentation time offset (0 here), so frames an edit list puts before zero
// (the mid-GOP edit-list fixture's first second) are before the window and are not targets.
//
// The open-GOP HEVC fixture's segments start with a CRA whose leading pictures refer to the
// segment before: they are checked on their own (the frames just before each segment's start
// time, leading pictures included), decoded after the segment before as ffmpeg's continuous
// decode shows them. Its CRAs themselves are not: the packaging writes a CRA's PTS before its
// leading pictures', and ffmpeg's decode prints picture-order timestamps instead (Known limits).

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// One source fixture packaged as DASH.
struct DASHPackaging: Sendable, CustomTestStringConvertible {
    let source: String
    /// SegmentTimeline with $Number$, or a SegmentTemplate@duration with $Number$.
    let timeline: Bool

    var testDescription: String { "\(source) as DASH with \(timeline ? "a SegmentTimeline" : "SegmentTemplate@duration")" }

    /// The edit-list fixture only with a SegmentTimeline: ffmpeg's muxer writes its
    /// SegmentTemplate@duration MPD with five 1 s segments where it cut three (at the 2 s
    /// keyframes, the edit list's second included), so two of them do not exist.
    static let all: [DASHPackaging] =
        ["media/h264_bframes_gop250.mp4", "media/h264_vfr.mkv"].flatMap {
            [DASHPackaging(source: $0, timeline: true), DASHPackaging(source: $0, timeline: false)]
        } + [DASHPackaging(source: "media/h264_editlist_midgop.mp4", timeline: true)]

    /// Writes `manifest.mpd`, its init segment and its media segments into `directory`.
    func make(in directory: TemporaryDirectory) throws -> String {
        let manifest = directory.file("manifest.mpd")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-i", Repository.fixture(source), "-map", "0:v:0", "-c", "copy",
            "-f", "dash", "-seg_duration", "1", "-use_template", "1", "-use_timeline", timeline ? "1" : "0", manifest
        ])
        return manifest
    }
}

@Suite("CLI: DASH presentations read as a player reads them", .ffmpegLog)
struct CLIDASHSeekTests {
    /// ffmpeg's decode of `manifest`: each frame's PTS as the media has it (over the stream's
    /// time base) and MD5, in presentation order.
    static func decode(_ manifest: String) throws -> (timeBase: Int64, frames: [(pts: Int64, md5: String)]) {
        let text = try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-threads", "1", "-copyts", "-i", manifest, "-map", "0:v:0", "-fps_mode", "passthrough",
            "-enc_time_base:v", "-1", "-fflags", "+bitexact", "-f", "framemd5", "-"
        ])
        let tbLine = try #require(text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("#tb 0: 1/") })
        let timeBase = try #require(Int64(tbLine.dropFirst("#tb 0: 1/".count)))
        let frames = text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap { line -> (Int64, String)? in
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 6, let pts = Int64(fields[2]) else { return nil }
            return (pts, fields[5])
        }.sorted { $0.0 < $1.0 }
        return (timeBase, frames)
    }

    @Test("Every frame's time, and a point inside its interval, lands on ffmpeg's frame there with its MD5", arguments: DASHPackaging.all)
    func landsOnFFmpegsFrames(_ packaging: DASHPackaging) throws {
        let directory = try TemporaryDirectory()
        let manifest = try packaging.make(in: directory)
        let (timeBase, decoded) = try Self.decode(manifest)
        let frames = decoded.filter { $0.pts >= 0 }
        try #require(frames.count > 10, "\(packaging.testDescription): ffmpeg decodes \(frames.count) frames from zero")
        let zero: Int64 = 0
        // Targets as exact decimals: pts/timeBase has a finite decimal expansion only for some
        // time bases, so each target is the frame's time rounded up to the microsecond, which
        // stays inside the frame's interval (frames last far longer than a microsecond).
        func decimal(_ ticks: Int64) -> String {
            let micros = (ticks * 1_000_000 + timeBase - 1) / timeBase
            let fraction = String(micros % 1_000_000)
            return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
        }
        var targets: [(time: String, frame: Int)] = []
        for index in frames.indices {
            targets.append((decimal(frames[index].pts - zero), index))
            if index + 1 < frames.count {
                targets.append((decimal((frames[index].pts + frames[index + 1].pts) / 2 - zero), index))
            }
        }
        var problems: [String] = []
        for indexing in ["as-needed", "full"] {
            let lines = jsonLines(["seek", manifest] + targets.map(\.time) + ["--json", "--md5", "--index", indexing])
            guard lines.count == targets.count else {
                problems.append("--index \(indexing): \(lines.count) lines for \(targets.count) targets")
                continue
            }
            for (line, target) in zip(lines, targets) {
                let expected = frames[target.frame]
                let landed = WindowTarget.Seconds(rational: line["landed_rational"])
                let wanted = WindowTarget.Seconds(value: expected.pts - zero, scale: timeBase)
                if landed != wanted || line["md5"] as? String != expected.md5 {
                    problems.append(
                        "--index \(indexing) at \(target.time) s: landed \(line["landed_rational"] ?? "nil") \(line["md5"] ?? "nil"), "
                            + "ffmpeg's frame \(target.frame) is at \(expected.pts - zero)/\(timeBase) with \(expected.md5)")
                }
            }
        }
        #expect(
            problems.isEmpty, "\(packaging.testDescription): \(problems.count) problems:\n\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test("An open GOP's leading pictures at a segment's start land on ffmpeg's frames with their MD5s, as needed and full")
    func leadingPictures() throws {
        let directory = try TemporaryDirectory()
        let manifest = try DASHPackaging(source: "media/hevc_opengop.mkv", timeline: true).make(in: directory)
        let (timeBase, frames) = try Self.decode(manifest)
        // Keyframes every 2 s, 24 fps: the frames of the 0.2 s before 2, 4 and 6 s are the GOP's
        // last pictures and the next CRA's leading pictures, which a segment decoded alone
        // drops. Targets are each frame's time rounded up to the microsecond.
        let starts: [Int64] = [2, 4, 6].map { $0 * timeBase }
        let lead = timeBase / 5
        let chosen = frames.filter { frame in starts.contains { frame.pts >= $0 - lead && frame.pts < $0 } }
        try #require(chosen.count >= 12, "\(chosen.count) frames before the segment starts")
        let targets = chosen.map { frame -> String in
            let micros = (frame.pts * 1_000_000 + timeBase - 1) / timeBase
            let fraction = String(micros % 1_000_000)
            return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
        }
        for indexing in ["as-needed", "full"] {
            let lines = jsonLines(["seek", manifest] + targets + ["--json", "--md5", "--index", indexing])
            try #require(lines.count == targets.count, "--index \(indexing): \(lines.count) lines")
            for (line, frame) in zip(lines, chosen) {
                #expect(
                    WindowTarget.Seconds(rational: line["landed_rational"]) == WindowTarget.Seconds(value: frame.pts, scale: timeBase)
                        && line["md5"] as? String == frame.md5 && line["damaged"] as? Bool == false,
                    "--index \(indexing): ffmpeg's frame at \(frame.pts)/\(timeBase) \(frame.md5), landed \(line)")
            }
        }
    }

    @Test("Over HTTP the open fetches the MPD, the init segment and the target's segment; the next seek only its own")
    func fetchesOnlyWhatASeekNeeds() throws {
        let directory = try TemporaryDirectory()
        let manifest = try DASHPackaging(source: "media/h264_editlist_midgop.mp4", timeline: true).make(in: directory)
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("chunk-") }.sorted()
        try #require(segments.count >= 3, "\(segments)")
        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/" + URL(fileURLWithPath: manifest).lastPathComponent
        let lines = jsonLines(["seek", url, "0.04", "3.5", "--json", "--md5"])
        try #require(lines.count == 2)
        let (paths, _) = try server.requestsAndFaults()
        #expect(paths["manifest.mpd"] == 1 && paths["init-stream0.m4s"] == 1, "\(paths)")
        #expect(paths.keys.filter { $0.hasPrefix("chunk-") }.count == 2, "two media segments: \(paths)")
        #expect(paths.values.allSatisfy { $0 == 1 }, "each fetched once: \(paths)")
        #expect(JSON.int(lines[1]["requests"]) == 1, "\(lines[1])")
        #expect(lines.allSatisfy { ($0["variant"] as? [String: Any])?["uri"] as? String == url + "#0" }, "\(lines)")
    }

    @Test(
        "A hostile or broken MPD is one line and exit 2: not XML, an external entity (never read), an entity expanded past the document's size, nesting past the limit, live without a start",
        arguments: ["broken", "entity", "expanding", "nested", "dynamic"])
    func hostileManifests(_ kind: String) throws {
        let directory = try TemporaryDirectory()
        let secret = directory.file("secret.txt")
        try "the secret".write(toFile: secret, atomically: true, encoding: .utf8)
        let text: String
        switch kind {
        case "broken": text = "<?xml version=\"1.0\"?><MPD type=\"static\"><Period>"
        case "entity":
            text =
                "<?xml version=\"1.0\"?><!DOCTYPE MPD [<!ENTITY x SYSTEM \"file://\(secret)\">]>"
                + "<MPD type=\"static\"><BaseURL>&x;</BaseURL></MPD>"
        case "expanding":
            // 100 KB named in 2,000 attributes: 200 MB of values from a 126 KB document.
            text =
                "<?xml version=\"1.0\"?><!DOCTYPE MPD [<!ENTITY e \"\(String(repeating: "A", count: 100_000))\">]><MPD type=\"static\">"
                + String(repeating: "<a x=\"&e;\"/>", count: 2_000) + "</MPD>"
        case "nested": text = "<MPD>" + String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100) + "</MPD>"
        default: text = "<MPD type=\"dynamic\"><Period/></MPD>"
        }
        let manifest = directory.file("manifest.mpd")
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let result = frameseek(["seek", manifest, "1", "--json"])
        #expect(result.code == .usageOrInput && result.out.isEmpty, "\(kind): exit \(result.code.rawValue) \(result.out)")
        #expect(result.err.count == 1 && result.err[0].contains(manifest), "\(kind): \(result.err)")
        #expect(!result.stderr.text.contains("the secret"), "\(kind): the entity was read: \(result.err)")
        if kind == "expanding" { #expect(result.err.first?.contains("longer than the document") == true, "\(result.err)") }
    }
}
