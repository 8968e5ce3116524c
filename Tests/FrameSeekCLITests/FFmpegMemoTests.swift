// scripts/memo, which answers the test runs' repeated ffmpeg and ffprobe commands from what
// FFmpeg printed and wrote the first time. Every oracle of the three CI runs passes through it,
// so its keys are checked here against FFmpeg run directly: an answer is reused only for the
// same arguments on the same bytes, and a command it cannot see the whole of is not kept.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("Test runs: ffmpeg answers kept between runs (scripts/memo)")
struct FFmpegMemoTests {
    /// A memo folder of its own, and the script run as `ffmpeg` or `ffprobe` with it.
    struct Memo {
        let folder: TemporaryDirectory
        init() throws { folder = try TemporaryDirectory() }
        var entries: [String] { ((try? folder.names()) ?? []).filter { !$0.hasPrefix(".") } }

        func run(_ tool: String, _ arguments: [String], in directory: String? = nil, requiringSuccess: Bool = true) throws -> String {
            let script = Repository.root.appendingPathComponent("scripts/memo/\(tool)").path
            let environment = [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "FRAMESEEK_FFMPEG_MEMO": folder.path
            ]
            return try runTool(
                [script] + arguments, in: directory.map { URL(fileURLWithPath: $0) }, environment: environment,
                requiringSuccess: requiringSuccess)
        }
    }

    static func framemd5(_ path: String) -> [String] {
        ["-nostdin", "-v", "error", "-threads", "1", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"]
    }

    @Test("the same bytes under another path get the kept answer; one byte changed gets FFmpeg's own")
    func keyedByBytes() throws {
        let memo = try Memo()
        let files = try TemporaryDirectory()
        let original = files.file("a.mp4"), copy = files.file("b.mp4")
        try FileManager.default.copyItem(atPath: Repository.fixture("media/h264_bframes_gop250.mp4"), toPath: original)
        try FileManager.default.copyItem(atPath: original, toPath: copy)

        let direct = try runTool(["/usr/bin/ffmpeg"] + Self.framemd5(original))
        #expect(try memo.run("ffmpeg", Self.framemd5(original)) == direct)
        #expect(memo.entries.count == 1)

        // What the copy gets back is the kept entry: marked, it comes back marked.
        let entry = memo.folder.file(try #require(memo.entries.first))
        try "marked\n".write(toFile: entry + "/stdout", atomically: true, encoding: .utf8)
        #expect(try memo.run("ffmpeg", Self.framemd5(copy)) == "marked\n")
        #expect(memo.entries.count == 1)

        // 64 bytes in the middle of the media data changed: another key, FFmpeg's own answer.
        let handle = try #require(FileHandle(forUpdatingAtPath: copy))
        let middle = try handle.seekToEnd() / 2
        try handle.seek(toOffset: middle)
        let bytes = try #require(try handle.read(upToCount: 64))
        try handle.seek(toOffset: middle)
        try handle.write(contentsOf: bytes.map { $0 ^ 0x55 })
        try handle.close()
        let damaged = try memo.run("ffmpeg", Self.framemd5(copy))
        #expect(damaged == (try runTool(["/usr/bin/ffmpeg"] + Self.framemd5(copy))))
        #expect(damaged != direct)
        #expect(memo.entries.count == 2)
    }

    @Test("a written file is kept and copied back: a second Matroska remux has the first one's segment UID")
    func writtenFileCopiedBack() throws {
        let memo = try Memo()
        let first = try TemporaryDirectory(), second = try TemporaryDirectory()
        func remux(into folder: TemporaryDirectory) throws -> Data {
            let output = folder.file("clip.mkv")
            _ = try memo.run(
                "ffmpeg", ["-nostdin", "-v", "error", "-i", Repository.fixture("media/h264_vfr.mkv"), "-c", "copy", output])
            return try Data(contentsOf: URL(fileURLWithPath: output))
        }
        // FFmpeg gives each Matroska file a random segment UID: two remuxes it ran would differ.
        let direct = try TemporaryDirectory()
        for name in ["x.mkv", "y.mkv"] {
            _ = try runTool([
                "/usr/bin/ffmpeg", "-nostdin", "-v", "error", "-i", Repository.fixture("media/h264_vfr.mkv"), "-c", "copy",
                direct.file(name)
            ])
        }
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: direct.file("x.mkv"))) != Data(contentsOf: URL(fileURLWithPath: direct.file("y.mkv")))
        )

        let kept = try remux(into: first)
        #expect(try remux(into: second) == kept)
        #expect(memo.entries.count == 1)
    }

    @Test(
        "not kept: a playlist written (by -f or by its name) or read, an answer naming its path, -f null, a failure, a file named inside a filter"
    )
    func notKept() throws {
        let memo = try Memo()
        let folder = try TemporaryDirectory()
        let source = Repository.fixture("media/h264_bframes_gop250.mp4")
        _ = try memo.run(
            "ffmpeg",
            ["-nostdin", "-v", "error", "-i", source, "-c", "copy", "-f", "hls", "-hls_playlist_type", "vod", folder.file("index.m3u8")])
        _ = try memo.run("ffmpeg", Self.framemd5(folder.file("index.m3u8")))
        // The name alone picks the DASH muxer, which writes segments beside the manifest.
        _ = try memo.run("ffmpeg", ["-nostdin", "-v", "error", "-i", source, "-c", "copy", folder.file("manifest.mpd")])
        #expect(try folder.names().contains { $0.hasSuffix(".m4s") })

        let named = try memo.run(
            "ffprobe", ["-v", "error", "-show_entries", "format=filename", "-of", "csv=p=0", Repository.fixture("media/h264_vfr.mkv")])
        #expect(named.contains(Repository.fixture("media/h264_vfr.mkv")))

        // -f null's only product is the time it took, which the bench measures.
        _ = try memo.run("ffmpeg", ["-nostdin", "-v", "error", "-i", source, "-frames:v", "2", "-f", "null", "-"])

        // A file that is there but is not media: FFmpeg fails on it, and a failure is not kept.
        try Data(repeating: 0x47, count: 4096).write(to: URL(fileURLWithPath: folder.file("noise.mp4")))
        _ = try memo.run("ffmpeg", Self.framemd5(folder.file("noise.mp4")), requiringSuccess: false)

        // ssim writes its per-frame log to the file its option names, relative to the folder.
        _ = try memo.run(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-i", source, "-i", source, "-frames:v", "2", "-lavfi", "ssim=stats_file=ssim.log", "-f",
                "framemd5", "-"
            ],
            in: folder.path)
        #expect(FileManager.default.fileExists(atPath: folder.file("ssim.log")))
        #expect(memo.entries.isEmpty)
    }

    @Test("the same bytes named .mp4 and .ts are two keys: FFmpeg's probe can go by the name")
    func keyedByExtension() throws {
        let memo = try Memo()
        let folder = try TemporaryDirectory()
        for name in ["clip.mp4", "clip.ts"] {
            try FileManager.default.copyItem(atPath: Repository.fixture("media/h264_vfr.mkv"), toPath: folder.file(name))
            _ = try memo.run("ffprobe", ["-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0", folder.file(name)])
        }
        #expect(memo.entries.count == 2)
    }
}
