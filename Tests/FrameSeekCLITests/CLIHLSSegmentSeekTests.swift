// Seeks in an HLS VOD playlist that fetch only the segments their landing needs
// (`--index as-needed`, the default of `seek`), against the same seeks on the whole window's
// table (`--index full`), on the hardest fixtures packaged by ffmpeg's HLS muxer in the test as
// MPEG-TS and as CMAF (fragmented MP4 with EXT-X-MAP) segments, cut at each keyframe.
//
// The whole window's landings are checked against ffprobe and framemd5 by the HLS engine's own
// tests; here the landed frame of each target must be the same with either table (time, PTS,
// MD5), and its MD5 one that ffmpeg's framemd5 gives for the playlist. Over HTTP, the loopback
// server counts what a seek fetched.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// One source fixture cut into HLS segments of one kind.
struct HLSPackaging: Sendable, CustomTestStringConvertible {
    enum Segments: String, Sendable { case mpegTS = "mpegts", cmaf = "fmp4" }

    /// Relative to Fixtures/.
    let source: String
    let segments: Segments

    var testDescription: String { "\(source) as HLS with \(segments == .cmaf ? "CMAF" : "MPEG-TS") segments" }

    static let all: [HLSPackaging] = WindowRemux.sources.flatMap { source in
        [HLSPackaging(source: source, segments: .mpegTS), HLSPackaging(source: source, segments: .cmaf)]
    }

    /// Writes `index.m3u8` and its segments into `directory` and returns the playlist's path and
    /// its segments' start times in microseconds (the EXTINF durations summed, as the playlist
    /// places them), with the window's end last.
    func make(in directory: TemporaryDirectory) throws -> (playlist: String, boundaries: [Int64]) {
        let playlist = directory.file("index.m3u8")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-i", Repository.fixture(source), "-map", "0:v:0", "-c", "copy",
            "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_type", segments.rawValue,
            "-hls_segment_filename", directory.file(segments == .cmaf ? "segment%d.m4s" : "segment%d.ts"), playlist
        ])
        var boundaries: [Int64] = [0]
        for line in try String(contentsOfFile: playlist, encoding: .utf8).split(whereSeparator: \.isNewline)
        where line.hasPrefix("#EXTINF:") {
            let seconds = try #require(Double(line.dropFirst("#EXTINF:".count).split(separator: ",")[0]))
            boundaries.append(boundaries[boundaries.count - 1] + Int64((seconds * 1_000_000).rounded()))
        }
        return (playlist, boundaries)
    }
}

@Suite("CLI: HLS VOD seeks that fetch only the segments they need", .ffmpegLog)
struct CLIHLSSegmentSeekTests {
    static let precisions = ["exact", "previous-keyframe", "next-keyframe", "nearest-keyframe:0.4"]

    /// Each segment start, a microsecond either side of it, the middle of each segment, and the
    /// edges of the window and beyond, as decimal seconds.
    static func targets(_ boundaries: [Int64]) -> [String] {
        var micros: [Int64] = [-1_000_000, 1]
        for (start, end) in zip(boundaries, boundaries.dropFirst()) { micros += [start - 1, start, start + 1, (start + end) / 2] }
        if let end = boundaries.last { micros += [end - 1, end, end + 1_000_000] }
        var seen = Set<Int64>()
        return micros.filter { seen.insert($0).inserted }.map { micro in
            let sign = micro < 0 ? "-" : ""
            let magnitude = micro.magnitude
            let fraction = String(magnitude % 1_000_000)
            return "\(sign)\(magnitude / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
        }
    }

    /// The MD5 of every frame ffmpeg decodes from `path`'s video stream.
    static func framemd5s(_ path: String) throws -> Set<String> {
        let text = try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-threads", "1", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
            "-fflags", "+bitexact", "-f", "framemd5", "-"
        ])
        return Set(
            text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap { line in
                line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
            })
    }

    @Test(
        "seek --index as-needed lands where --index full does (time, PTS, MD5), at every precision; the MD5 is one of ffmpeg's decode of the playlist",
        arguments: HLSPackaging.all)
    func landsAsTheWholeWindowDoes(_ packaging: HLSPackaging) throws {
        let directory = try TemporaryDirectory()
        let (playlist, boundaries) = try packaging.make(in: directory)
        let decodedMD5s = try Self.framemd5s(playlist)
        let targets = Self.targets(boundaries)
        var problems: [String] = []
        for precision in Self.precisions {
            // All targets in one run, each segment read once it is needed, then the first
            // segment boundary alone: the open reads only that target's segment.
            for run in [targets, [targets[3]]] {
                func landings(_ indexing: String) -> [[String: Any]] {
                    jsonLines(
                        ["seek", playlist] + run + ["--json", "--md5", "--precision", precision, "--index", indexing])
                }
                let needed = landings("as-needed")
                let whole = landings("full")
                guard needed.count == run.count, whole.count == run.count else {
                    problems.append("\(precision): \(needed.count) and \(whole.count) lines for \(run.count) targets")
                    continue
                }
                for (target, (lazy, full)) in zip(run, zip(needed, whole)) {
                    let context = "\(precision) at \(target) s"
                    for key in ["landed_rational", "landed_pts", "md5", "within_tolerance", "clamp"]
                    where "\(lazy[key] ?? "nil")" != "\(full[key] ?? "nil")" {
                        problems.append("\(context): \(key) \(lazy[key] ?? "nil") as needed, \(full[key] ?? "nil") on the whole window")
                    }
                    if !(lazy["frame_index"] is NSNull) || lazy["frame_index_unknown"] as? String != "not_indexed" {
                        problems.append("\(context): frame_index \(lazy["frame_index"] ?? "nil") as needed, not null and not_indexed")
                    }
                    if JSON.int(full["frame_index"]) == nil { problems.append("\(context): no frame_index on the whole window") }
                    if let md5 = lazy["md5"] as? String, !decodedMD5s.contains(md5) {
                        problems.append("\(context): MD5 \(md5) is no frame of ffmpeg's decode of the playlist")
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(packaging.testDescription): \(problems.count) problems:\n\(problems.joined(separator: "\n"))")
    }

    @Test("Over HTTP the open fetches the playlist, the init section and the first target's segment; each seek only its own")
    func fetchesOnlyWhatASeekNeeds() throws {
        let directory = try TemporaryDirectory()
        let packaging = HLSPackaging(source: "media/hevc_opengop.mkv", segments: .cmaf)
        let (_, boundaries) = try packaging.make(in: directory)
        try #require(boundaries.count >= 4, "\(packaging.testDescription): \(boundaries.count - 1) segments, 3 or more needed")
        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }
        // The middles of the second and the last segments.
        let targets = [1, boundaries.count - 2].map { Self.targets([boundaries[$0], boundaries[$0 + 1]])[5] }
        let lines = jsonLines(
            ["seek", "http://127.0.0.1:\(server.port)/index.m3u8"] + targets + ["--json", "--md5", "--precision", "exact"])
        try #require(lines.count == 2)
        let (paths, _) = try server.requestsAndFaults()
        let last = "segment\(boundaries.count - 2).m4s"
        #expect(paths == ["index.m3u8": 1, "init.mp4": 1, "segment1.m4s": 1, last: 1], "requests by path: \(paths)")
        // The first target's segment was fetched by the open; the second seek fetched its own.
        let size = try #require(
            (try FileManager.default.attributesOfItem(atPath: directory.file(last))[.size] as? NSNumber)?.int64Value)
        #expect(JSON.int64(lines[0]["bytes_read"]) == 0 && JSON.int(lines[0]["requests"]) == 0, "\(lines[0])")
        #expect(JSON.int64(lines[1]["bytes_read"]) == size && JSON.int(lines[1]["requests"]) == 1, "\(lines[1]), \(last) is \(size) B")
    }
}
