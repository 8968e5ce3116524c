// DASH as ffmpeg's muxer writes it with `-single_file 1`: one file, described by a SegmentList
// whose SegmentURLs have `@mediaRange` and no `@media`, and whose Initialization has `@range`
// and no `@sourceURL` (ISO/IEC 23009-1 5.3.9.2.2, 5.3.9.3.2: the BaseURL with that range). The
// MPD is read as ffmpeg wrote it. The truth is ffmpeg's decode of the file, its media times as a
// DASH client places them (FFmpeg 5.1's dash demuxer does not end on its own single-file MPD).

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("CLI: DASH single-file SegmentList of byte ranges, as ffmpeg writes it", .ffmpegLog)
struct CLIDASHSingleFileTests {
    static let media = "single-stream0.mp4"

    /// Six seconds of a lavfi clip with B-frames and a keyframe each second, packaged by
    /// ffmpeg's DASH muxer as one file in 1 s segments; returns the MPD's path.
    static func package(in directory: TemporaryDirectory) throws -> String {
        let mpd = directory.file("single.mpd")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=6", "-c:v", "libx264",
            "-preset", "veryfast", "-bf", "3", "-g", "30", "-pix_fmt", "yuv420p", "-f", "dash", "-seg_duration", "1",
            "-single_file", "1", mpd
        ])
        let text = try String(contentsOfFile: mpd, encoding: .utf8)
        // What the test is about: ffmpeg names no URL but the BaseURL.
        try #require(text.contains("<BaseURL>\(media)</BaseURL>"), "\(text)")
        try #require(text.matches(of: /<SegmentURL mediaRange=/).count >= 4 && !text.contains("media=\""), "\(text)")
        try #require(text.contains("<Initialization range=") && !text.contains("sourceURL"), "\(text)")
        return mpd
    }

    @Test("Seeks across the segments land on ffmpeg's frames with their MD5s, as needed and indexed whole")
    func landsOnFFmpegsFrames() throws {
        let directory = try TemporaryDirectory()
        let manifest = try Self.package(in: directory)
        let frames = try PresentationPackaging(source: "lavfi testsrc2", form: .dash).decode(directory.file(Self.media)).filter {
            $0.time.value >= 0
        }
        try #require(frames.count > 150, "ffmpeg decodes \(frames.count) frames")
        // Every seventh frame, and the last: targets in every segment, some on a keyframe.
        let chosen = Array(stride(from: 0, to: frames.count, by: 7)) + [frames.count - 1]
        let targets = chosen.map { CLIPackagedExactnessTests.justAfter(frames[$0].time) }
        for indexing in ["as-needed", "full"] {
            let lines = jsonLines(["seek", manifest] + targets.map(\.text) + ["--json", "--md5", "--index", indexing])
            try #require(lines.count == targets.count, "--index \(indexing): \(lines.count) lines")
            let wrong = zip(lines, chosen).filter { line, frame in
                WindowTarget.Seconds(rational: line["landed_rational"]) != frames[frame].time || line["md5"] as? String != frames[frame].md5
            }
            #expect(
                wrong.isEmpty,
                "--index \(indexing): \(wrong.count) wrong, first \(wrong.first.map { "frame \($0.1): \($0.0)" } ?? "")")
        }
    }

    @Test("Over HTTP a seek fetches the MPD, then the initialization range and its segment's range of the one file")
    func fetchesRangesOfTheBaseURL() throws {
        let directory = try TemporaryDirectory()
        let manifest = try Self.package(in: directory)
        let frames = try PresentationPackaging(source: "lavfi testsrc2", form: .dash).decode(directory.file(Self.media))
        let frame = try #require(frames.first { $0.time >= WindowTarget.Seconds(value: 7, scale: 2) })
        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/" + URL(fileURLWithPath: manifest).lastPathComponent
        let line = try #require(jsonLines(["seek", url, CLIPackagedExactnessTests.justAfter(frame.time).text, "--json", "--md5"]).first)
        #expect(line["md5"] as? String == frame.md5, "\(line)")
        let (paths, _) = try server.requestsAndFaults()
        #expect(paths == ["single.mpd": 1, Self.media: 2], "\(paths)")
        let whole = try FileManager.default.attributesOfItem(atPath: directory.file(Self.media))[.size] as? Int ?? 0
        #expect((JSON.int(line["bytes_read"]) ?? .max) < whole / 2, "\(line); the file is \(whole) bytes")
    }
}
