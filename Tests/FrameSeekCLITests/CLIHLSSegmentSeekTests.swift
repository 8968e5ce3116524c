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
    ///
    /// With `keyInfo` (ffmpeg's `hls_key_info_file`), the segments are AES-128 encrypted.
    func make(
        in directory: TemporaryDirectory, name: String = "index", keyInfo: String? = nil
    ) throws -> (playlist: String, boundaries: [Int64]) {
        let playlist = directory.file("\(name).m3u8")
        try runTool(
            [
                "ffmpeg", "-nostdin", "-v", "error", "-i", Repository.fixture(source), "-map", "0:v:0", "-c", "copy",
                "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_type", segments.rawValue,
                "-hls_segment_filename", directory.file(segments == .cmaf ? "\(name)%d.m4s" : "\(name)%d.ts")
            ] + (keyInfo.map { ["-hls_key_info_file", $0] } ?? []) + [playlist])
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
        let last = "index\(boundaries.count - 2).m4s"
        #expect(paths == ["index.m3u8": 1, "init.mp4": 1, "index1.m4s": 1, last: 1], "requests by path: \(paths)")
        // The first target's segment was fetched by the open; the second seek fetched its own.
        let size = try #require(
            (try FileManager.default.attributesOfItem(atPath: directory.file(last))[.size] as? NSNumber)?.int64Value)
        #expect(JSON.int64(lines[0]["bytes_read"]) == 0 && JSON.int(lines[0]["requests"]) == 0, "\(lines[0])")
        #expect(JSON.int64(lines[1]["bytes_read"]) == size && JSON.int(lines[1]["requests"]) == 1, "\(lines[1]), \(last) is \(size) B")
    }

    @Test(
        "AES-128 segments (ffmpeg's hls_key_info_file) land on the clear stream's frames; with a wrong key nothing decrypts: one line, exit 2"
    )
    func aes128LandsAsClear() throws {
        let directory = try TemporaryDirectory()
        let packaging = HLSPackaging(source: "media/h264_vfr.mkv", segments: .mpegTS)
        let (clear, boundaries) = try packaging.make(in: directory, name: "clear")
        let key = (0..<16).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        try Data(key).write(to: URL(fileURLWithPath: directory.file("key.bin")))
        // Key URI, key file, and no IV line: each segment's IV is its Media Sequence Number.
        try "key.bin\n\(directory.file("key.bin"))\n".write(toFile: directory.file("keyinfo"), atomically: true, encoding: .utf8)
        let (encrypted, _) = try packaging.make(in: directory, name: "locked", keyInfo: directory.file("keyinfo"))
        let text = try String(contentsOfFile: encrypted, encoding: .utf8)
        try #require(text.contains("#EXT-X-KEY:METHOD=AES-128"), "ffmpeg wrote no key tag:\n\(text)")
        // The encrypted bytes are not the clear ones, so a landing cannot come from them as they are.
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: directory.file("locked0.ts")))
                != Data(contentsOf: URL(fileURLWithPath: directory.file("clear0.ts"))))
        let targets = Self.targets(boundaries)
        for indexing in ["as-needed", "full"] {
            func landed(_ playlist: String) -> [String] {
                jsonLines(["seek", playlist] + targets + ["--json", "--md5", "--index", indexing]).map {
                    "\($0["landed_rational"] ?? "nil") \($0["landed_pts"] ?? "nil") \($0["md5"] ?? "nil") \($0["damaged"] ?? "nil")"
                }
            }
            let expected = landed(clear)
            #expect(expected.count == targets.count)
            #expect(landed(encrypted) == expected, "--index \(indexing)")
        }
        // Another key: PKCS7 padding does not come out of any segment, so none can be read:
        // one line naming the cause, exit 2, no landing.
        try Data(key.reversed()).write(to: URL(fileURLWithPath: directory.file("key.bin")))
        let wrong = frameseek(["seek", encrypted, targets[4], "--json"])
        #expect(wrong.code == .usageOrInput && wrong.out.isEmpty, "exit \(wrong.code.rawValue): \(wrong.out)")
        #expect(wrong.stderr.text.split(separator: "\n").count == 1 && wrong.stderr.text.contains("PKCS7"), "\(wrong.stderr.text)")
    }

    @Test("EXT-X-GAP is missing data, never fetched; SAMPLE-AES segments are missing data naming the method")
    func gapsAndSampleEncryption() throws {
        let directory = try TemporaryDirectory()
        let packaging = HLSPackaging(source: "media/hevc_opengop.mkv", segments: .mpegTS)
        let (playlist, boundaries) = try packaging.make(in: directory)
        try #require(boundaries.count >= 4)
        var lines = try String(contentsOfFile: playlist, encoding: .utf8).components(separatedBy: "\n")
        let second = try #require(lines.firstIndex(of: "index1.ts"))
        lines.insert("#EXT-X-GAP", at: second - 1)
        try lines.joined(separator: "\n").write(toFile: directory.file("gap.m3u8"), atomically: true, encoding: .utf8)
        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }
        let middle = Self.targets([boundaries[1], boundaries[2]])[3]
        for indexing in ["as-needed", "full"] {
            let line = try Self.damagedLanding(["seek", "http://127.0.0.1:\(server.port)/gap.m3u8", middle, "--json", "--index", indexing])
            #expect(JSON.bool(line["damaged"]) == true && (line["missing_data"] as? String)?.contains("EXT-X-GAP") == true, "\(line)")
        }
        #expect(try server.requestsAndFaults().paths["index1.ts"] == nil, "a gap was fetched")
        // SAMPLE-AES from the second segment on.
        lines = try String(contentsOfFile: playlist, encoding: .utf8).components(separatedBy: "\n")
        lines.insert("#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"key.bin\"", at: try #require(lines.firstIndex(of: "index1.ts")) - 1)
        try lines.joined(separator: "\n").write(toFile: directory.file("drm.m3u8"), atomically: true, encoding: .utf8)
        let line = try Self.damagedLanding(["seek", directory.file("drm.m3u8"), middle, "--json"])
        #expect(JSON.bool(line["damaged"]) == true && (line["missing_data"] as? String)?.contains("SAMPLE-AES") == true, "\(line)")
    }

    /// The one JSON line of a seek that lands damaged: exit 0, the damage warned of on stderr.
    static func damagedLanding(_ arguments: [String]) throws -> [String: Any] {
        let result = frameseek(arguments)
        #expect(result.code == .success && result.stderr.text.contains("damaged"), "\(arguments): \(result.stderr.text)")
        return try #require(result.out.first.flatMap(JSON.object), "\(arguments): \(result.out)")
    }
}
