// True seek cost in every container a CDN serves: a clip made here by ffmpeg and stream-copied
// into fragmented MP4 (with a global sidx, and with an mfra only), Matroska and MPEG-TS, each
// served over HTTP by a range server of its own, whose count is the truth. `bench` must count
// the open and every seek to the byte and the request, whichever way each container is read.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("Seek cost: bench counts every container over HTTP", .ffmpegLog)
struct SeekCostContainerTests {
    /// Each form: its file name and the ffmpeg options that make it from the clip.
    static let forms: [(name: String, options: [String])] = [
        ("clip.sidx.mp4", ["-f", "mp4", "-movflags", "+frag_keyframe+empty_moov+default_base_moof+global_sidx"]),
        ("clip.mfra.mp4", ["-f", "mp4", "-movflags", "+frag_keyframe+empty_moov+default_base_moof"]),
        ("clip.mkv", ["-f", "matroska"]),
        ("clip.ts", ["-f", "mpegts"])
    ]

    @Test("bench's open and seek counts equal what the server sent, in fragmented MP4, Matroska and MPEG-TS", .timeLimit(.minutes(5)))
    func countsMatchTheServer() throws {
        let directory = try temporaryDirectory("seek-cost-containers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mp4").path
        try runTool([
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=40",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0",
            "-bf", "2", "-pix_fmt", "yuv420p", clip
        ])
        for form in Self.forms {
            let (folder, _) = try streamCopy(clip, to: form.name, in: directory, form.options)
            let server = try HTTPServer(directory: folder.path, byteRanges: true)
            defer { server.stop() }
            let run = frameseek([
                "bench", "http://127.0.0.1:\(server.port)/\(form.name)", "--workload", "random", "-n", "8", "--json",
                "--no-index-cache"
            ])
            #expect(run.code == .success, "\(form.name): \(run.stderr.text)")
            let row = try #require(run.out.compactMap(JSON.object).first, "\(form.name): \(run.out)")
            let samples = try #require(row["samples"] as? [[String: Any]])
            #expect(samples.count == 8, "\(form.name)")
            let bytes = try #require(JSON.int64(row["open_bytes_read"])) + samples.compactMap { JSON.int64($0["bytes_read"]) }.reduce(0, +)
            let requests =
                try #require(JSON.int64(row["open_requests"])) + samples.compactMap { JSON.int64($0["requests"]) }.reduce(0, +)
            let sent = try server.sent()
            #expect(bytes == sent.bytes, "\(form.name): counted \(bytes) bytes, the server sent \(sent.bytes)")
            #expect(requests == Int64(sent.requests), "\(form.name): counted \(requests) requests, the server had \(sent.requests)")
        }
    }
}
