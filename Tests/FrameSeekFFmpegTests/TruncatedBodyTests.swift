// A file over HTTP whose every answer breaks off at the same byte, halfway through the file
// (scripts/range-http-server.py's "cutat:N"): what FrameSeek reads of it is what a file cut
// there on disk would give. The truth is ffmpeg's decode of the intact file (framemd5) and the
// packets ffprobe lists of the part before the break.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Files over HTTP cut short", .ownThread, .ffmpegLog)
struct TruncatedBodyTests {
    /// `names` in `directory`, served with every body of each cut at half the file.
    static func serveCutInHalf(_ names: [String], in directory: TemporaryDirectory) throws -> HTTPServer {
        let rules = try names.map { name -> String in
            let size = try #require(try FileManager.default.attributesOfItem(atPath: directory.file(name))[.size] as? Int)
            return #"{"path": "\#(name)", "kind": "cutat:\#(size / 2)"}"#
        }
        return try HTTPServer(directory: directory.path, arguments: ["--faults", #"{"rules": [\#(rules.joined(separator: ", "))]}"#])
    }

    @Test("An MP4 whose body breaks off halfway is refused as truncated, its moov first or last")
    func mp4IsTruncated() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: fixture.path, toPath: directory.file("moov-last.mp4"))
        _ = try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-i", fixture.path, "-c", "copy", "-movflags", "+faststart",
            directory.file("moov-first.mp4")
        ])
        let server = try Self.serveCutInHalf(["moov-last.mp4", "moov-first.mp4"], in: directory)
        defer { server.stop() }
        for name in ["moov-last.mp4", "moov-first.mp4"] {
            let url = "http://127.0.0.1:\(server.port)/\(name)"
            do {
                _ = try FFmpegEngine(path: url, options: .init(streamIndex: 0, threads: 1))
                Issue.record("\(name): opened, and no word of the lost half")
            } catch {
                #expect(error.reason == .truncated, "\(name): \(error)")
                #expect(error.path == url)
            }
        }
    }

    @Test("An MPEG-TS whose body breaks off halfway opens truncated: ffmpeg's pixels before the break, the readable end after it")
    func mpegtsIsTruncated() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_mpegts_offset.s0"))
        let oracle = try Oracle(fixture)
        let md5s = try #require(oracle.md5s)
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: fixture.path, toPath: directory.file("cut.ts"))
        let server = try Self.serveCutInHalf(["cut.ts"], in: directory)
        defer { server.stop() }
        // The frames the first half holds: ffprobe's packets of a file cut there on disk.
        let data = try #require(FileManager.default.contents(atPath: fixture.path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: directory.file("half.ts")))
        let readable = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts",
            "-of", "csv=p=0", directory.file("half.ts")
        ]).split(whereSeparator: \.isNewline).count

        let engine = try FFmpegEngine(path: "http://127.0.0.1:\(server.port)/cut.ts", options: .init(streamIndex: 0, threads: 1))
        let truncation = try #require(engine.media.truncation, "the lost half is not reported")
        #expect(truncation.evidence.contains("reading failed"), "\(truncation)")
        let count = engine.frameTable.frames.count
        #expect(count < oracle.count && count == readable, "\(count) frames read, \(readable) in the first half")
        for k in [0, 25, count - 8] {
            let landing = try engine.seek(to: oracle.time(k), precision: .exact)
            #expect(landing.frame.index == k && !landing.damaged, "frame \(k)")
            #expect(try engine.landedPicture()?.md5 == md5s[k], "frame \(k): not ffmpeg's pixels of the intact file")
        }
        let past = try engine.seek(to: oracle.time(oracle.lastIndex), precision: .exact)
        #expect(
            past.plan.clamp == .clampedToEnd(truncation.readableEnd) || past.frame.index == count - 1,
            "a seek past the break: \(past.plan.clamp), frame \(past.frame.index)")
        #expect(past.frame.index <= count - 1)
    }
}
