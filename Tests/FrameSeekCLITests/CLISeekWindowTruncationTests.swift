// A seek window that reads to the end of a truncated file must say so, as the whole scan does:
// the same warning line, the same clamp explanation, and exit 2 under --strict. The truth for
// where the readable stream ends is ffprobe's frame list of the cut file.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("CLI: a seek window that reaches the end of a truncated file reports it", .ffmpegLog)
struct CLISeekWindowTruncationTests {
    @Test("seek past the readable end of a cut Matroska or MPEG-TS file lands on ffprobe's last frame and warns", arguments: ["mkv", "ts"])
    func truncatedFile(_ container: String) throws {
        let directory = try temporaryDirectory("window-truncation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = directory.appendingPathComponent("whole.\(container)").path
        try runTool([
            "ffmpeg", "-v", "error", "-y", "-i", Repository.fixture("media/h264_bframes_gop250.mp4"), "-map", "0:v:0", "-c", "copy",
            whole
        ])
        // Half the file: a cut inside a block or a transport packet, mid-GOP.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = directory.appendingPathComponent("cut.\(container)").path
        try bytes.prefix(bytes.count / 2 + 77).write(to: URL(fileURLWithPath: cut))
        let listed = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", cut
        ])
        let lastPTS = try #require(listed.split(whereSeparator: \.isNewline).compactMap { Int64($0) }.max())

        let run = frameseek(["seek", cut, "1000", "--json", "--no-index-cache", "--index", "as-needed"])
        #expect(run.code == .success, "\(run.stderr.text)")
        let landing = try #require(run.out.compactMap(JSON.object).first)
        #expect(landing["frame_index"] is NSNull && landing["frame_index_unknown"] as? String == "not_indexed")
        #expect(
            JSON.int64(landing["landed_pts"]) == lastPTS,
            "\(container): landed \(landing["landed_pts"] ?? "-"), ffprobe's last packet \(lastPTS)")
        #expect(landing["clamp"] as? String == "end")
        #expect((landing["clamp_explanation"] as? String)?.contains("truncated") == true, "\(landing)")
        #expect(run.err.count == 1 && run.err.first?.contains("truncated") == true, "one warning line: \(run.err)")

        let strict = frameseek(["seek", cut, "1000", "--strict", "--no-index-cache", "--index", "as-needed"])
        #expect(strict.code == .usageOrInput && strict.out.isEmpty, "\(strict.out)")
        #expect(strict.err.count == 1 && strict.err.first?.contains("truncated") == true, "\(strict.err)")
    }
}
