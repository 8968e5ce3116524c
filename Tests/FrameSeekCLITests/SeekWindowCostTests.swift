// What one exact seek costs over HTTP where the seek reads a window (Matroska, MPEG-TS,
// fragmented MP4): the window's bytes once, as a player fetches them, not once to find the
// keyframe and again to decode from it. The window's size comes from ffprobe's packet
// positions (from the keyframe at or before the target to the next one), the bytes from the
// range server's count, and the landed frame's MD5 from ffmpeg's own decode.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("Seek cost: a window over HTTP is read once", .ffmpegLog)
struct SeekWindowCostTests {
    /// Each form, the ffmpeg options that make it, and the most its seek may cost, in GOPs. A
    /// window read twice costs at least 2. Read once, it costs the GOP and the packets read
    /// past the target for reordering; Matroska's requests stop at the next keyframe's cluster,
    /// which the Cues tell; a fragmented MP4's double until the window is read, and overshoot
    /// it by up to half; MPEG-TS's also read what lies between where a seek back lands and the
    /// keyframe (0.8 s to 4 s into the clip here, for a keyframe at 4 s).
    static let forms: [(name: String, options: [String], bound: Double)] = [
        ("clip.mkv", ["-f", "matroska"], 1.3),
        ("clip.ts", ["-f", "mpegts"], 2),
        ("clip.sidx.mp4", ["-f", "mp4", "-movflags", "+frag_keyframe+empty_moov+default_base_moof+global_sidx"], 1.6)
    ]

    /// A keyframe's presentation time and byte position, as ffprobe lists the packets.
    struct Keyframe {
        let seconds: Double
        let position: Int64
    }

    /// The first field of each line of ffprobe's CSV (which may end a line with a comma, and
    /// put blank lines between frames) as seconds.
    static func firstFields(_ text: String) -> [[Substring]] {
        text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .filter { Double($0.first ?? "") != nil }
    }

    static func keyframes(_ path: String) throws -> [Keyframe] {
        let packets = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,pos,flags", "-of", "csv=p=0", path
        ])
        return firstFields(packets).compactMap { fields in
            guard fields.count >= 3, fields[2].hasPrefix("K"), let seconds = Double(fields[0]), let position = Int64(fields[1]) else {
                return nil
            }
            return Keyframe(seconds: seconds, position: position)
        }
    }

    /// The server's count of what one `seek` run of `targets` cost.
    static func seekCost(_ url: String, _ targets: [String], on server: HTTPServer) throws -> (bytes: Int64, output: [String]) {
        let before = try server.sent().bytes
        let run = frameseek(["seek", url] + targets + ["--md5", "--json", "--no-index-cache"])
        #expect(run.code == .success, "\(url): \(run.stderr.text)")
        return (try server.sent().bytes - before, run.out)
    }

    @Test(
        "an exact seek late in a GOP over HTTP reads its window once, and lands on ffmpeg's frame",
        .timeLimit(.minutes(5)))
    func windowIsReadOnce() throws {
        let directory = try temporaryDirectory("seek-window-cost")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mp4").path
        // Noise makes GOPs of megabytes (about 5.8 MB here), where a second read or a request
        // that overshoots shows; one encoder thread makes the same bytes on any machine.
        try runTool([
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=12",
            "-vf", "noise=alls=20:allf=t", "-c:v", "libx264", "-threads", "1", "-preset", "veryfast", "-crf", "22",
            "-g", "100", "-keyint_min", "100", "-sc_threshold", "0", "-bf", "2", "-pix_fmt", "yuv420p", clip
        ])
        for form in Self.forms {
            let (folder, path) = try streamCopy(clip, to: form.name, in: directory, form.options)
            let keyframes = try Self.keyframes(path)
            try #require(keyframes.count == 3, "\(form.name): \(keyframes)")
            let gopBytes = keyframes[2].position - keyframes[1].position
            // Presentation times from ffprobe, made zero-based as the command line's are.
            let times = Self.firstFields(
                try runTool([
                    "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path
                ])
            ).compactMap { Double($0[0]) }
            let origin = try #require(times.min())
            // A fifth of a second before the third keyframe: the whole second GOP is needed.
            let target = ((keyframes[2].seconds - origin - 0.2) * 1000).rounded() / 1000

            // The cost of the second of two seeks is the difference between a run of both and
            // a run of the first: the open and the first seek cost the same in each.
            let server = try HTTPServer(directory: folder.path, byteRanges: true)
            defer { server.stop() }
            let url = "http://127.0.0.1:\(server.port)/\(form.name)"
            let first = try Self.seekCost(url, ["0.2"], on: server)
            let both = try Self.seekCost(url, ["0.2", "\(target)"], on: server)
            let cost = both.bytes - first.bytes
            #expect(
                Double(cost) < form.bound * Double(gopBytes),
                "\(form.name): the seek to \(target) s cost \(cost) bytes for a GOP of \(gopBytes)")

            let landing = try #require(both.output.compactMap(JSON.object).last, "\(form.name): \(both.output)")
            let landedSeconds = try #require(JSON.double(landing["landed"]))
            // ffmpeg's decode in presentation order; the landed frame is the last one presented
            // at or before the target.
            let index = try #require(times.lastIndex { $0 - origin <= target + 0.000_5 }, "\(form.name)")
            #expect(abs(times[index] - origin - landedSeconds) < 0.000_5, "\(form.name): landed \(landedSeconds)")
            let md5s = try ffmpegVideoMD5s(path)
            #expect(landing["md5"] as? String == md5s[index], "\(form.name)")
        }
    }
}
