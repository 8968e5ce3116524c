// An HLS playlist with a missing middle segment. FFmpeg's HLS demuxer skips a segment it
// cannot open with a warning and reads on, so without care the frames just jump and an exact
// seek into the hole lands a second early "within tolerance". The truth is FFmpeg's decode of
// the same playlist (`ffmpeg -f framemd5`): where its frames stop and resume, and their MD5s.

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// The barcoded 25 fps MPEG-TS fixture cut by FFmpeg's HLS muxer into three 2-second
/// segments (one GOP each), once intact and once without the middle segment.
private struct SegmentedPlaylist: Sendable {
    let intact: String
    let holed: String

    static let shared: Result<SegmentedPlaylist, any Error> = Result { try SegmentedPlaylist() }

    private init() throws {
        let directory = testScratchPath("missing-segment-hls")
        let intactDirectory = directory.appendingPathComponent("intact")
        let holedDirectory = directory.appendingPathComponent("holed")
        for folder in [intactDirectory, holedDirectory] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try runTool(
            [
                "ffmpeg", "-nostdin", "-v", "error", "-y", "-i", Repository.fixture("media/h264_mpegts_offset.ts"),
                "-c", "copy", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                "-hls_segment_filename", "segment%d.ts", "playlist.m3u8"
            ], in: intactDirectory)
        for name in ["playlist.m3u8", "segment0.ts", "segment2.ts"] {
            let target = holedDirectory.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: intactDirectory.appendingPathComponent(name), to: target)
        }
        intact = intactDirectory.appendingPathComponent("playlist.m3u8").path
        holed = holedDirectory.appendingPathComponent("playlist.m3u8").path
    }
}

private func record(_ line: String?) throws -> [String: Any] {
    let line = try #require(line)
    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
}

@Suite("CLI: an HLS playlist with a missing segment", .ffmpegLog)
struct CLIMissingSegmentTests {
    /// FFmpeg's frames of the holed playlist, in time order, and the hole between them: the
    /// last frame before the largest jump and the first after it.
    private static func ffmpegHole(_ path: String) throws -> (frames: [(MediaTime, String)], before: MediaTime, after: MediaTime) {
        let frames = try #require(try ffmpegFrameMD5s(path, stream: 0)).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let jumps = zip(frames, frames.dropFirst()).map { ($0.0, $1.0) }
        let widest = try #require(jumps.max { ($0.1 - $0.0) < ($1.1 - $1.0) })
        return (frames, widest.0, widest.1)
    }

    @Test("probe names the missing stretch where FFmpeg's decode has no frames; the intact playlist has none")
    func probe() throws {
        let playlist = try SegmentedPlaylist.shared.get()
        let hole = try Self.ffmpegHole(playlist.holed)
        #expect(hole.after - hole.before > MediaTime(value: 1, timescale: 1), "the hole is a whole segment")
        let result = frameseek(["probe", playlist.holed, "--json"])
        #expect(result.code == .success)
        let info = try record(result.out.first)
        let missing = try #require(info["missing_data"] as? [[String: Any]])
        #expect(missing.count == 1)
        let end = try MediaTime(parsing: try #require(missing.first?["end"] as? Double).description)
        #expect(abs((end - hole.after).seconds) < 0.0005, "frames resume at \(hole.after) in FFmpeg's decode, probe says \(end)")
        #expect((missing.first?["evidence"] as? String)?.contains("segment") == true)
        #expect(result.err.count == 1 && result.err[0].contains("missing data"), "one warning line: \(result.err)")

        let intact = try record(frameseek(["probe", playlist.intact, "--json"]).out.first)
        #expect((intact["missing_data"] as? [Any])?.isEmpty == true)
    }

    @Test("An exact seek into the hole is outside tolerance and damaged; seeks beside it match FFmpeg's decode unflagged")
    func seeks() throws {
        let playlist = try SegmentedPlaylist.shared.get()
        let hole = try Self.ffmpegHole(playlist.holed)
        let inHole = hole.before + MediaTime(value: 1, timescale: 1)
        let afterHole = hole.after + MediaTime(value: 1, timescale: 100)
        let result = frameseek(["seek", playlist.holed, inHole.rationalText, "--json", "--md5"])
        #expect(result.code == .success)
        let inside = try record(result.out.first)
        #expect(inside["within_tolerance"] as? Bool == false, "no frame covers \(inHole): \(inside)")
        #expect(inside["damaged"] as? Bool == true)
        #expect((inside["missing_data"] as? String)?.contains("missing data") == true)

        // In a run of its own: decoding on from the frame before the hole would pass the
        // packet the demuxer flags corrupt where the segments join, and count it.
        let beside = try record(frameseek(["seek", playlist.holed, afterHole.rationalText, "--json", "--md5"]).out.first)
        #expect(beside["damaged"] as? Bool == false)
        #expect(beside["within_tolerance"] as? Bool == true)
        let landed = try MediaTime(parsing: try #require(beside["landed_rational"] as? String))
        let truth = try #require(hole.frames.first { $0.0 == landed }, "FFmpeg's decode has no frame at \(landed)")
        #expect(beside["md5"] as? String == truth.1)
        #expect(landed == hole.after, "the first frame after the hole covers \(afterHole)")
    }

    @Test("--strict refuses the playlist with one line naming it, once the hole is read: by --index full, or a seek into it")
    func strict() throws {
        let playlist = try SegmentedPlaylist.shared.get()
        let hole = try Self.ffmpegHole(playlist.holed)
        let inHole = hole.before + MediaTime(value: 1, timescale: 1)
        for arguments in [["1", "--index", "full"], [inHole.rationalText]] {
            let result = frameseek(["seek", playlist.holed] + arguments + ["--strict"])
            #expect(result.code == .usageOrInput, "\(arguments)")
            #expect(
                result.err.count == 1 && result.err[0].contains(playlist.holed) && result.err[0].contains("missing data"),
                "\(arguments): \(result.err)")
        }
        // Read as needed, a seek far from the hole reads none of it: nothing to refuse.
        #expect(frameseek(["seek", playlist.holed, "1", "--strict"]).code == .success)
        #expect(frameseek(["seek", playlist.intact, "1", "--strict", "--index", "full"]).code == .success)
    }
}
