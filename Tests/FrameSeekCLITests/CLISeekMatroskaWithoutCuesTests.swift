// Seeks into a Matroska file without Cues, as a recording muxed to a pipe is (ffmpeg writes no
// Cues and no duration there, nor does a browser's MediaRecorder). FFmpeg's own seek parses
// every cluster from the last keyframe it has read; FrameSeek bisects the clusters by their
// timestamps (MatroskaClusterBisection). Over HTTP, each landing must be the frame ffprobe's
// table says covers the target, with framemd5's MD5, and cost a small part of the file, as
// counted by the server.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("Seek windows: Matroska without Cues, bisected by cluster", .ffmpegLog)
struct CLISeekMatroskaWithoutCuesTests {
    @Test("Seeks over HTTP land on ffprobe's covering frame with framemd5's MD5 and read a fraction of the file", .timeLimit(.minutes(5)))
    func bisectedSeeks() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=120",
            "-c:v", "libx264", "-preset", "veryfast", "-b:v", "3M", "-g", "50", "-bf", "2", "-pix_fmt", "yuv420p", clip
        ])
        let path = directory.file("recording.mkv")
        try runTool(["sh", "-c", "ffmpeg -nostdin -v error -i \"$0\" -c copy -f matroska - > \"$1\"", clip, path])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64)
        let head = try #require(FileHandle(forReadingAtPath: path)?.readData(ofLength: 64 * 1024))
        try #require(size > 24 << 20, "\(size) bytes: too small to tell a bisection from a read of the file")
        try #require(!Self.contains(Array(head), [0x1C, 0x53, 0xBB, 0x6B]), "the pipe's Matroska names no Cues")

        let oracle = try RemuxOracle(path)
        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/recording.mkv"
        for fraction in [0.5, 0.9, 0.2, 0.99] {
            let frame = Int(Double(oracle.lastIndex) * fraction)
            // Halfway through the frame's interval.
            let target = WindowTarget.Seconds(
                value: 2 * (oracle.pts[frame] - oracle.originPTS) * oracle.timeBaseNumerator + oracle.timeBaseNumerator,
                scale: 2 * oracle.timeBaseDenominator)
            let before = try server.sent()
            let run = frameseek(["seek", url, target.text, "--json", "--md5", "--no-index-cache"])
            #expect(run.code == .success, "\(target.text): \(run.stderr.text)")
            let line = try #require(run.out.compactMap(JSON.object).first, "\(target.text): \(run.out)")
            let covering = try #require(oracle.covering(target))
            #expect(JSON.int64(line["landed_pts"]) == oracle.pts[covering], "\(target.text)")
            #expect(line["md5"] as? String == oracle.md5ByPTS[oracle.pts[covering]], "\(target.text)")
            let after = try server.sent()
            let sent = after.bytes - before.bytes
            // The open's first reads are not the seek's.
            #expect(JSON.int64(line["bytes_read"]).map { $0 <= sent } == true, "\(target.text): counted against the server's \(sent)")
            // FFmpeg's own seek reads every cluster up to the target, ffmpeg -ss the file twice.
            #expect(sent * 5 < size, "\(target.text): \(sent) bytes of \(size)")
        }
    }

    static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        bytes.count >= pattern.count
            && (0...(bytes.count - pattern.count)).contains { start in pattern.indices.allSatisfy { bytes[start + $0] == pattern[$0] } }
    }
}
