// DASH SegmentBase: one fragmented MP4 whose sidx lists its subsegments. ffmpeg's DASH muxer
// writes such a file (`-single_file 1 -global_sidx 1`) and describes it with a SegmentList of
// byte ranges; the test describes the same file with a SegmentBase, as on-demand packagers do.
// ffmpeg's SegmentList is the truth for the sidx's ranges, and ffmpeg's decode of the file (its
// media times, as a DASH client places them) the truth for every landing. (FFmpeg 5.1's dash
// demuxer does not end on its own single-file MPD: it reads the file again and again.)

import Foundation
import FrameSeek
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("CLI: DASH SegmentBase read from its sidx", .ffmpegLog)
struct CLIDASHSegmentBaseTests {
    /// ffmpeg's single-file packaging of the B-frame fixture in `directory`: its MPD (a
    /// SegmentList), the media file's name, and where its sidx box is.
    static func package(in directory: TemporaryDirectory) throws -> (segmentList: String, media: String, sidx: HLSByteRange) {
        let mpd = directory.file("list.mpd")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-i", Repository.fixture("media/h264_bframes_gop250.mp4"), "-map", "0:v:0", "-c", "copy",
            "-f", "dash", "-seg_duration", "1", "-single_file", "1", "-global_sidx", "1", "-use_template", "0", "-use_timeline", "0", mpd
        ])
        let media = "list-stream0.mp4"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.file(media))))
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == "sidx" {
                return (mpd, media, HLSByteRange(length: size, offset: offset))
            }
            guard size >= 8 else { break }
            offset += size
        }
        throw OracleError("\(media) has no top-level sidx")
    }

    /// `list`'s MPD with its SegmentList replaced by a SegmentBase over `sidx`.
    static func segmentBase(from list: String, sidx: HLSByteRange, initialization: Bool, in directory: TemporaryDirectory) throws -> String
    {
        let text = try String(contentsOfFile: list, encoding: .utf8)
        let start = try #require(text.range(of: "<SegmentList")), end = try #require(text.range(of: "</SegmentList>"))
        let initElement = initialization ? "<Initialization range=\"0-\(sidx.offset - 1)\" />" : ""
        let base = "<SegmentBase indexRange=\"\(sidx.offset)-\(sidx.offset + sidx.length - 1)\">\(initElement)</SegmentBase>"
        let path = directory.file(initialization ? "base.mpd" : "base-noinit.mpd")
        try text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: base).write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("The sidx's subsegments are the byte ranges ffmpeg's own SegmentList gives the same file")
    func rangesAsFFmpegListsThem() throws {
        let directory = try TemporaryDirectory()
        let (list, media, sidx) = try Self.package(in: directory)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.file(media))))
        let index = try SegmentIndexBox(
            bytes: Array(bytes[sidx.offset..<sidx.offset + sidx.length]), offset: sidx.offset, element: "test")
        let listed = try String(contentsOfFile: list, encoding: .utf8).matches(of: /mediaRange="([0-9]+)-([0-9]+)"/).map { match in
            HLSByteRange(length: try #require(Int(match.2)) - (try #require(Int(match.1))) + 1, offset: try #require(Int(match.1)))
        }
        try #require(listed.count >= 2, "ffmpeg listed \(listed.count) subsegments")
        #expect(index.references.map(\.byteRange) == listed)
        #expect(index.references.allSatisfy { $0.startsWithSAP })
    }

    @Test("Every frame's time lands on the frame ffmpeg's decode of the file shows there, with or without Initialization@range")
    func landsOnFFmpegsFrames() throws {
        let directory = try TemporaryDirectory()
        let (list, media, sidx) = try Self.package(in: directory)
        let packaging = PresentationPackaging(source: "media/h264_bframes_gop250.mp4", form: .dash)
        let frames = try packaging.decode(directory.file(media)).filter { $0.time.value >= 0 }
        try #require(frames.count > 100, "ffmpeg decodes \(frames.count) frames")
        let targets = frames.map { CLIPackagedExactnessTests.justAfter($0.time) }
        for initialization in [true, false] {
            let manifest = try Self.segmentBase(from: list, sidx: sidx, initialization: initialization, in: directory)
            for indexing in ["as-needed", "full"] {
                let lines = jsonLines(["seek", manifest] + targets.map(\.text) + ["--json", "--md5", "--index", indexing])
                try #require(lines.count == frames.count, "--index \(indexing): \(lines.count) lines")
                let wrong = zip(lines, frames).enumerated().filter { _, pair in
                    WindowTarget.Seconds(rational: pair.0["landed_rational"]) != pair.1.time || pair.0["md5"] as? String != pair.1.md5
                }
                #expect(
                    wrong.isEmpty,
                    "Initialization@range \(initialization), --index \(indexing): \(wrong.count) wrong, first \(wrong.first.map { "frame \($0.offset): \($0.element.0)" } ?? "")"
                )
            }
        }
    }

    @Test("Over HTTP the open fetches the MPD, the sidx and the initialization; a seek one subsegment, by range")
    func fetchesOnlyWhatASeekNeeds() throws {
        let directory = try TemporaryDirectory()
        let (list, _, sidx) = try Self.package(in: directory)
        let manifest = try Self.segmentBase(from: list, sidx: sidx, initialization: true, in: directory)
        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/" + URL(fileURLWithPath: manifest).lastPathComponent
        let line = try #require(jsonLines(["seek", url, "10.5", "--json", "--md5"]).first)
        let (paths, _) = try server.requestsAndFaults()
        // The MPD; then the sidx, the initialization range and the subsegment holding 10.5 s.
        #expect(paths == ["base.mpd": 1, "list-stream0.mp4": 3], "\(paths)")
        let whole = try FileManager.default.attributesOfItem(atPath: directory.file("list-stream0.mp4"))[.size] as? Int ?? 0
        #expect((JSON.int(line["bytes_read"]) ?? .max) < whole / 2, "\(line); the file is \(whole) bytes")
    }
}
