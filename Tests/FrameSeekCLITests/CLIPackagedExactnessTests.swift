// Exactness in every packaging a CDN serves: the open-GOP, B-pyramid, edit-list and VFR
// fixtures packaged in the test as HLS with MPEG-TS segments, HLS with CMAF segments and DASH.
// Every frame's time, and a point inside each frame's interval, lands on the frame ffmpeg's
// own decode of the playlist or MPD shows there (its time and framemd5), read as needed and
// whole; steps across a segment boundary land on ffmpeg's neighbours.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// One fixture packaged as a playlist or an MPD, by ffmpeg's muxers.
struct PresentationPackaging: Sendable, CustomTestStringConvertible {
    enum Form: String, Sendable, CaseIterable {
        case hlsMPEGTS = "HLS with MPEG-TS segments"
        case hlsCMAF = "HLS with CMAF segments"
        case dash = "DASH"
    }

    /// Relative to Fixtures/.
    let source: String
    let form: Form

    var testDescription: String { "\(source) as \(form.rawValue)" }

    static let all: [PresentationPackaging] = WindowRemux.sources.flatMap { source in
        Form.allCases.map { PresentationPackaging(source: source, form: $0) }
    }

    /// Writes the manifest and its segments into `directory`; returns the manifest's path and
    /// where the second segment's first keyframe is on the presentation's timeline.
    ///
    /// The fragmented MP4 comes from ffmpeg's DASH muxer in streaming mode, which writes a
    /// fragment per frame. FFmpeg 5.1's HLS and DASH muxers otherwise flush a fragment per
    /// segment and write its first sample's composition time wrong when that sample's offset
    /// differs from the stream's first (an open GOP's CRA, a VFR keyframe): the CRA is then
    /// presented before its own leading pictures, and ffmpeg's decode reorders what its
    /// muxer wrote. HLS with CMAF lists those segments in a media playlist whose EXTINF
    /// durations run from each segment's first keyframe to the next, as ffmpeg's HLS muxer
    /// measures them.
    func make(in directory: TemporaryDirectory) throws -> (manifest: String, secondSegment: WindowTarget.Seconds) {
        let input = ["ffmpeg", "-nostdin", "-v", "error", "-i", Repository.fixture(source), "-map", "0:v:0", "-c", "copy"]
        switch form {
        case .hlsMPEGTS:
            let playlist = directory.file("index.m3u8")
            try runTool(input + ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", playlist])
            let first = try #require(String(contentsOfFile: playlist, encoding: .utf8).firstMatch(of: /#EXTINF:([0-9]+)\.([0-9]{6}),/))
            return (playlist, WindowTarget.Seconds(value: try #require(Int64("\(first.1)\(first.2)")), scale: 1_000_000))
        case .hlsCMAF, .dash:
            let mpd = directory.file("manifest.mpd")
            try runTool(
                input + ["-f", "dash", "-seg_duration", "1", "-use_template", "1", "-use_timeline", "1", "-streaming", "1", mpd])
            let segments = try directory.names().filter { $0.hasPrefix("chunk-stream0-") }
            let initSection = try Data(contentsOf: URL(fileURLWithPath: directory.file("init-stream0.m4s")))
            // Each segment's first keyframe, and the end of the last frame, in the stream's ticks.
            var keyframes: [Int64] = []
            var end: Int64 = 0
            var timeBase: Int64 = 1
            for segment in segments {
                let probe = directory.file("probe.mp4")
                try (initSection + Data(contentsOf: URL(fileURLWithPath: directory.file(segment)))).write(to: URL(fileURLWithPath: probe))
                let text = try runTool([
                    "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base:packet=pts,duration,flags",
                    "-of", "compact=p=0:nk=1", probe
                ])
                try FileManager.default.removeItem(atPath: probe)
                var segmentKeyframe: Int64?
                for line in text.split(whereSeparator: \.isNewline) {
                    let fields = line.split(separator: "|")
                    if fields.count == 1, let denominator = fields[0].split(separator: "/").last.flatMap({ Int64($0) }) {
                        timeBase = denominator
                    } else if fields.count == 3, let pts = Int64(fields[0]) {
                        end = max(end, pts + (Int64(fields[1]) ?? 0))
                        if segmentKeyframe == nil && fields[2].hasPrefix("K") { segmentKeyframe = pts }
                    }
                }
                keyframes.append(try #require(segmentKeyframe, "\(segment) has no keyframe"))
            }
            try #require(keyframes.count >= 2, "\(segments.count) segments")
            if form == .dash { return (mpd, WindowTarget.Seconds(value: keyframes[1], scale: timeBase)) }
            let bounds = keyframes + [end]
            var lines = [
                "#EXTM3U", "#EXT-X-VERSION:7",
                "#EXT-X-TARGETDURATION:\(zip(bounds, bounds.dropFirst()).map { ($1 - $0 + timeBase - 1) / timeBase }.max() ?? 1)",
                "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-MAP:URI=\"init-stream0.m4s\""
            ]
            for (segment, (start, next)) in zip(segments, zip(bounds, bounds.dropFirst())) {
                lines += ["#EXTINF:\(WindowTarget.Seconds(value: (next - start) * 1_000_000 / timeBase, scale: 1_000_000).text),", segment]
            }
            let playlist = directory.file("index.m3u8")
            try (lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n").write(toFile: playlist, atomically: true, encoding: .utf8)
            return (playlist, WindowTarget.Seconds(value: keyframes[1] - keyframes[0], scale: timeBase))
        }
    }

    /// ffmpeg's decode of `manifest`, each frame's time and MD5 in presentation order, on the
    /// presentation's timeline: an MPD's media times as they are (`-copyts`; a DASH client
    /// places media by them), a playlist's from its first segment's start (ffmpeg keeps the
    /// media's timestamps, such as MPEG-TS's 1.4 s, and its default timeline starts at the
    /// input's start time, as the playlist's does).
    func decode(_ manifest: String) throws -> [(time: WindowTarget.Seconds, md5: String)] {
        let text = try runTool(
            ["ffmpeg", "-nostdin", "-v", "error", "-threads", "1"] + (form == .dash ? ["-copyts"] : []) + [
                "-i", manifest, "-map", "0:v:0", "-fps_mode", "passthrough", "-enc_time_base:v", "-1", "-fflags", "+bitexact",
                "-f", "framemd5", "-"
            ])
        let lines = text.split(whereSeparator: \.isNewline)
        let tbLine = try #require(lines.first { $0.hasPrefix("#tb 0: 1/") })
        let timeBase = try #require(Int64(tbLine.dropFirst("#tb 0: 1/".count)))
        return lines.filter { !$0.hasPrefix("#") }.compactMap { line -> (WindowTarget.Seconds, String)? in
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 6, let pts = Int64(fields[2]) else { return nil }
            return (WindowTarget.Seconds(value: pts, scale: timeBase), fields[5])
        }.sorted { $0.0 < $1.0 }
    }
}

@Suite("CLI: exact landings and steps in HLS (MPEG-TS, CMAF) and DASH packagings", .ffmpegLog)
struct CLIPackagedExactnessTests {
    /// A playlist places each segment by its EXTINF durations, written to the microsecond,
    /// and its table counts in 1/90000 s ticks, rounded down (`HLSWindowIndex`): its frame
    /// times may differ from the media's by a tick and that rounding, far less than a frame.
    static func tolerance(_ form: PresentationPackaging.Form) -> WindowTarget.Seconds {
        WindowTarget.Seconds(value: form == .dash ? 0 : 20, scale: 1_000_000)
    }

    static func near(_ a: WindowTarget.Seconds, _ b: WindowTarget.Seconds, within tolerance: WindowTarget.Seconds) -> Bool {
        let difference = Int128(a.value) * Int128(b.scale) - Int128(b.value) * Int128(a.scale)
        return difference.magnitude * UInt128(tolerance.scale) <= UInt128(tolerance.value) * UInt128(a.scale) * UInt128(b.scale)
    }

    /// `time` + 100 µs, as an exact target: past any EXTINF rounding, far inside any frame.
    static func justAfter(_ time: WindowTarget.Seconds) -> WindowTarget.Seconds {
        WindowTarget.Seconds(value: time.value * 10_000 + time.scale, scale: time.scale * 10_000)
    }

    @Test(
        "Each frame's time, or a point inside its interval, lands on ffmpeg's frame there, as needed and whole",
        arguments: PresentationPackaging.all)
    func landsOnFFmpegsFrames(_ packaging: PresentationPackaging) throws {
        let directory = try TemporaryDirectory()
        let (manifest, _) = try packaging.make(in: directory)
        let frames = try packaging.decode(manifest).filter { $0.time.value >= 0 }
        try #require(frames.count > 100, "\(packaging.testDescription): ffmpeg decodes \(frames.count) frames from zero")
        // One target per frame, alternately just after its time and a decimal inside its
        // interval: every frame is landed on, at half the seeks of both targets on every frame
        // (which the sanitizer runs feel).
        var targets: [(time: WindowTarget.Seconds, frame: Int)] = []
        for index in frames.indices {
            let after = Self.justAfter(frames[index].time)
            if index % 2 == 1, index + 1 < frames.count,
                let inside = WindowTarget.Seconds.decimal(between: after, and: frames[index + 1].time)
            {
                targets.append((inside, index))
            } else {
                targets.append((after, index))
            }
        }
        var problems: [String] = []
        for indexing in ["as-needed", "full"] {
            let lines = jsonLines(["seek", manifest] + targets.map(\.time.text) + ["--json", "--md5", "--index", indexing])
            guard lines.count == targets.count else {
                problems.append("--index \(indexing): \(lines.count) lines for \(targets.count) targets")
                continue
            }
            for (line, target) in zip(lines, targets) {
                let expected = frames[target.frame]
                guard let landed = WindowTarget.Seconds(rational: line["landed_rational"]),
                    Self.near(landed, expected.time, within: Self.tolerance(packaging.form)), line["md5"] as? String == expected.md5,
                    line["damaged"] as? Bool == false
                else {
                    problems.append(
                        "--index \(indexing) at \(target.time.text) s: landed \(line["landed_rational"] ?? "nil") \(line["md5"] ?? "nil"), "
                            + "ffmpeg's frame \(target.frame) is at \(expected.time.text) s with \(expected.md5)")
                    continue
                }
            }
        }
        #expect(
            problems.isEmpty, "\(packaging.testDescription): \(problems.count) problems:\n\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test("Steps across the second segment's start land on ffmpeg's neighbours, forward and back", arguments: PresentationPackaging.all)
    func stepsAcrossASegmentStart(_ packaging: PresentationPackaging) throws {
        let directory = try TemporaryDirectory()
        let (manifest, boundary) = try packaging.make(in: directory)
        let frames = try packaging.decode(manifest).filter { $0.time.value >= 0 }
        // The segment's first keyframe; an open GOP's leading pictures come just before it.
        let keyframe = try #require(frames.lastIndex { !(Self.justAfter(boundary) < $0.time) })
        try #require(keyframe >= 4 && keyframe + 3 < frames.count, "\(packaging.testDescription): keyframe at frame \(keyframe)")
        var problems: [String] = []
        func checkSteps(_ indexing: String, _ direction: String, from start: Int) {
            let lines = jsonLines(
                [
                    "step", manifest, Self.justAfter(frames[start].time).text, direction, "--repeat", "6", "--json", "--md5", "--index",
                    indexing
                ])
            guard lines.count == 6 else {
                problems.append("--index \(indexing) \(direction) from frame \(start): \(lines.count) steps")
                return
            }
            if indexing == "as-needed", let line = lines.first(where: { !($0["frame_index"] is NSNull) }) {
                problems.append("--index as-needed \(direction) from frame \(start): frame_index \(line["frame_index"] ?? "nil"), not null")
            }
            for (offset, line) in lines.enumerated() {
                let expected = direction == "--forward" ? start + offset + 1 : start - offset - 1
                guard let landed = WindowTarget.Seconds(rational: line["landed_rational"]),
                    Self.near(landed, frames[expected].time, within: Self.tolerance(packaging.form)),
                    line["md5"] as? String == frames[expected].md5
                else {
                    problems.append(
                        "--index \(indexing) \(direction) from frame \(start): step \(offset + 1) landed \(line["landed_rational"] ?? "nil") "
                            + "\(line["md5"] ?? "nil"), ffmpeg's frame \(expected) is at \(frames[expected].time.text) s with \(frames[expected].md5)"
                    )
                    break
                }
            }
        }
        // Indexed whole, and as needed: the run of segments around the landed frame.
        for indexing in ["full", "as-needed"] {
            for (direction, start) in [("--forward", keyframe - 4), ("--backward", keyframe + 2)] {
                checkSteps(indexing, direction, from: start)
            }
        }
        #expect(problems.isEmpty, "\(packaging.testDescription):\n\(problems.joined(separator: "\n"))")
    }
}
