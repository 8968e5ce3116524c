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

    @Test(
        "seek past the end of an ADTS AAC or FLAC cut inside a frame lands on ffprobe's last frame and warns; probe counts ffprobe's frames",
        arguments: ["aac", "flac"], ["as-needed", "full"])
    func audioCutInsideFrame(_ format: String, _ indexing: String) throws {
        let directory = try temporaryDirectory("audio-truncation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = directory.appendingPathComponent("whole.\(format)").path
        let encoding = format == "aac" ? ["-c:a", "aac", "-b:a", "64k"] : ["-c:a", "flac", "-frame_size", "1152"]
        try runTool(
            ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:r=\(format == "aac" ? 44100 : 8000):d=20"] + encoding
                + [whole])
        // Halfway through a packet 55 % of the way in (ffprobe writes size, then position).
        let packets = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pos,size", "-of", "csv=p=0", whole
        ]).split(whereSeparator: \.isNewline).map { $0.split(separator: ",").compactMap { Int($0) } }
        let middle = try #require(packets.dropFirst(packets.count * 55 / 100).first)
        try #require(middle.count == 2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = directory.appendingPathComponent("cut.\(format)").path
        try bytes.prefix(middle[1] + middle[0] / 2).write(to: URL(fileURLWithPath: cut))
        let decoded = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "frame=pts", "-of", "csv=p=0", cut
        ]).split(whereSeparator: \.isNewline).compactMap { Int64($0) }
        let lastPTS = try #require(decoded.last)

        let run = frameseek(["seek", cut, "1000", "--json", "--no-index-cache", "--index", indexing])
        #expect(run.code == .success, "\(format), \(indexing): \(run.stderr.text)")
        let landing = try #require(run.out.compactMap(JSON.object).first, "\(format), \(indexing): \(run.stderr.text)")
        #expect(
            JSON.int64(landing["landed_pts"]) == lastPTS,
            "\(format), \(indexing): landed \(landing["landed_pts"] ?? "-"), ffprobe's last frame \(lastPTS)")
        #expect(landing["clamp"] as? String == "end", "\(format), \(indexing)")
        #expect((landing["clamp_explanation"] as? String)?.contains("truncated") == true, "\(format), \(indexing): \(landing)")
        #expect(run.err.count == 1 && run.err.first?.contains("truncated") == true, "\(format), \(indexing): \(run.err)")

        let probe = frameseek(["probe", cut, "--json", "--no-index-cache"])
        let probed = try #require(probe.out.compactMap(JSON.object).first, "\(format), \(indexing): \(probe.stderr.text)")
        #expect(JSON.int64(probed["frame_count"]) == Int64(decoded.count), "\(format), \(indexing): ffprobe decodes \(decoded.count)")
        #expect(!(probed["truncation"] is NSNull) && probed["truncation"] != nil, "\(format), \(indexing): \(probed)")
    }
}
