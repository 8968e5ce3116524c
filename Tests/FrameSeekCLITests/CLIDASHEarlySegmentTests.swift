// A DASH presentation whose segments' frames start before the MPD starts the segments: ffmpeg's
// DASH muxer, flushing a fragment per segment, writes a VFR keyframe's composition time early
// (Known limits), so in a SegmentTemplate@duration ($Number$) MPD the first frame of a segment
// sits some milliseconds before its nominal start, n × @duration. A seek read as needed picks
// segments by the MPD's times, but frames sit at their own media times: the frame at a target
// between such a first frame and the nominal start is the next segment's, which the run of
// segments must read even though the target's segment's last frame lasts past it.
//
// The truth is independent of FrameSeek: ffprobe finds the segments whose first frame is before
// the nominal start, and ffmpeg's own decode of the MPD (framemd5, -copyts) gives the frame
// shown at each target and its MD5. Seeks at, just after and inside those first frames, and the
// frame just before them, land there read as needed as on the whole index; a previous-keyframe
// seek lands on the early keyframe; a step from it moves to ffmpeg's neighbour.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("CLI: DASH segments whose frames start before the MPD's start for them", .ffmpegLog)
struct CLIDASHEarlySegmentTests {
    /// A $Number$ packaging of a VFR H.264 source with B-frames (24 then 60 fps, each frame up
    /// to 4 ms late, keyframes every 2 s), 2 s segments.
    struct Packaging {
        let manifest: String
        let directory: TemporaryDirectory
        let timeBase: Int64
        /// ffmpeg's decode of the MPD, in presentation order.
        let frames: [(pts: Int64, md5: String)]
        /// The first frame (a keyframe) of each segment that starts before its nominal start.
        let earlyFirstFrames: [Int64]

        /// The index in `frames` of the frame shown at `ticks`: the last starting at or before it.
        func shown(at ticks: Int64) -> Int? { frames.lastIndex { $0.pts <= ticks } }
    }

    static func package() throws -> Packaging {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mp4")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=24:duration=6",
            "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=60:duration=2", "-filter_complex",
            "[0:v]settb=1/90000[a];[1:v]settb=1/90000[b];[a][b]concat=n=2:v=1,setpts='PTS+trunc(random(1)*0.004/TB)'[v]",
            "-map", "[v]", "-fps_mode", "vfr", "-enc_time_base", "1/90000", "-c:v", "libx264", "-preset", "veryfast",
            "-bf", "2", "-x264opts", "scenecut=0", "-force_key_frames", "expr:gte(t,n_forced*2)", source
        ])
        let manifest = directory.file("manifest.mpd")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-i", source, "-c", "copy", "-f", "dash", "-seg_duration", "2",
            "-use_template", "1", "-use_timeline", "0", manifest
        ])
        let (timeBase, frames) = try CLIDASHSeekTests.decode(manifest)
        let segments = try directory.names().filter { $0.hasPrefix("chunk-stream0-") }.sorted()
        try #require(segments.count == 4, "\(segments)")
        let initSection = try Data(contentsOf: URL(fileURLWithPath: directory.file("init-stream0.m4s")))
        var early: [Int64] = []
        for (position, segment) in segments.enumerated() {
            let probe = directory.file("probe.mp4")
            try (initSection + Data(contentsOf: URL(fileURLWithPath: directory.file(segment)))).write(to: URL(fileURLWithPath: probe))
            let text = try runTool([
                "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base:packet=pts,flags",
                "-of", "compact=p=0:nk=1", probe
            ])
            try FileManager.default.removeItem(atPath: probe)
            var streamTimeBase: Int64?
            var packets: [(pts: Int64, isKeyframe: Bool)] = []
            for line in text.split(whereSeparator: \.isNewline) {
                let fields = line.split(separator: "|")
                if fields.count == 1 {
                    streamTimeBase = fields[0].split(separator: "/").last.flatMap { Int64($0) }
                } else if fields.count == 2, let pts = Int64(fields[0]) {
                    packets.append((pts, fields[1].hasPrefix("K")))
                }
            }
            try #require(streamTimeBase == timeBase, "\(segment): time base \(streamTimeBase ?? 0), ffmpeg decodes in 1/\(timeBase)")
            let first = try #require(packets.min { $0.pts < $1.pts }, "\(segment) has no packets")
            try #require(first.isKeyframe, "\(segment) does not start with a keyframe: \(first)")
            if first.pts < Int64(position) * 2 * timeBase { early.append(first.pts) }
        }
        try #require(early.count >= 2, "segments starting before their nominal start: \(early) in 1/\(timeBase)")
        return Packaging(manifest: manifest, directory: directory, timeBase: timeBase, frames: frames, earlyFirstFrames: early)
    }

    @Test(
        "Seeks at, just after and inside an early first frame, and just before it, land on ffmpeg's frames, as needed as on the whole index"
    )
    func seeksLandOnFFmpegsFrames() throws {
        let packaging = try Self.package()
        let timeBase = packaging.timeBase
        // Each target with the ffmpeg frame it must land on, exact and previous-keyframe.
        var targets: [(ticks: Int64, precision: String, frame: Int)] = []
        for first in packaging.earlyFirstFrames {
            let index = try #require(packaging.frames.firstIndex { $0.pts == first }, "ffmpeg decodes no frame at \(first)")
            try #require(index > 0 && index + 1 < packaging.frames.count)
            let before = packaging.frames[index - 1].pts
            let after = packaging.frames[index + 1].pts
            for ticks in [before, first - 1, first, first + 1, (first + after) / 2] {
                targets.append((ticks, "exact", try #require(packaging.shown(at: ticks))))
            }
            targets.append((first + 1, "previous-keyframe", index))
            targets.append(((first + after) / 2, "previous-keyframe", index))
        }
        var problems: [String] = []
        for indexing in ["as-needed", "full"] {
            for target in targets {
                let line = jsonLines([
                    "seek", packaging.manifest, "--at", "\(target.ticks)/\(timeBase)", "--precision", target.precision, "--json",
                    "--md5", "--index", indexing
                ]).first
                let expected = packaging.frames[target.frame]
                if WindowTarget.Seconds(rational: line?["landed_rational"]) != WindowTarget.Seconds(value: expected.pts, scale: timeBase)
                    || line?["md5"] as? String != expected.md5
                {
                    problems.append(
                        "--index \(indexing) --precision \(target.precision) at \(target.ticks)/\(timeBase): landed "
                            + "\(line?["landed_rational"] ?? "nil") \(line?["md5"] ?? "nil"), ffmpeg's frame is \(expected.pts) \(expected.md5)"
                    )
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) of \(2 * targets.count) seeks:\n\(problems.joined(separator: "\n"))")
    }

    @Test("A step from just after an early first frame moves to ffmpeg's neighbours of that frame, as needed as on the whole index")
    func stepsFromTheEarlyFrame() throws {
        let packaging = try Self.package()
        var problems: [String] = []
        for first in packaging.earlyFirstFrames {
            let index = try #require(packaging.frames.firstIndex { $0.pts == first })
            for (direction, destination) in [("--forward", index + 1), ("--backward", index - 1)] {
                let expected = packaging.frames[destination]
                for indexing in ["as-needed", "full"] {
                    let line = jsonLines([
                        "step", packaging.manifest, "--at", "\(first + 1)/\(packaging.timeBase)", direction, "--json", "--md5",
                        "--index", indexing
                    ]).first
                    if WindowTarget.Seconds(rational: line?["landed_rational"])
                        != WindowTarget.Seconds(value: expected.pts, scale: packaging.timeBase) || line?["md5"] as? String != expected.md5
                    {
                        problems.append(
                            "--index \(indexing) \(direction) from \(first + 1): landed \(line?["landed_rational"] ?? "nil") "
                                + "\(line?["md5"] ?? "nil"), ffmpeg's frame is \(expected.pts) \(expected.md5)")
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("Over HTTP a seek inside a segment, before its last frame, fetches that segment alone")
    func ordinarySeekFetchesOneSegment() throws {
        let packaging = try Self.package()
        // Frames well inside the third segment (nominally 4 s to 6 s), before its last frame.
        let inside = packaging.frames.filter { $0.pts > 9 * packaging.timeBase / 2 && $0.pts < 11 * packaging.timeBase / 2 }
        let target = try #require(inside.first).pts + 1
        let server = try HTTPServer(directory: packaging.directory.path, byteRanges: true)
        defer { server.stop() }
        let line = jsonLines([
            "seek", "http://127.0.0.1:\(server.port)/manifest.mpd", "--at", "\(target)/\(packaging.timeBase)", "--json"
        ]).first
        let (paths, _) = try server.requestsAndFaults()
        #expect(paths.keys.filter { $0.hasPrefix("chunk-") } == ["chunk-stream0-00003.m4s"], "\(paths), landed \(line ?? [:])")
    }
}
