// HLS I-frame playlists (`frameseek iframes`). The truth: each BYTERANGE fetched alone (after
// its EXT-X-MAP section) and decoded by ffprobe gives one keyframe, at the PTS the EXTINFs
// before it imply; ffprobe's packet table of the whole stream lists the same keyframes; and
// Debian's python3-m3u8, which nobody here wrote, parses the playlist and the stream line.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// Media made by the ffmpeg CLI: 12 s of testsrc2 at 30000/1001 fps with a sine, a keyframe
/// every 50 frames (1.668333… s, so times are not whole microseconds) and two B-frames, as an
/// HLS stream of TS segments, a CMAF one (fMP4 segments, a GOP each), one with three GOPs per
/// fMP4 segment, a TS file and a fragmented MP4 file (a fragment per keyframe).
private struct IFrameMedia: Sendable {
    let folder: URL
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static let made: Result<IFrameMedia, OracleError> = Result { () throws(OracleError) in
        do { return try make() } catch let error as OracleError { throw error } catch { throw OracleError("\(error)") }
    }

    private static func make() throws -> IFrameMedia {
        let folder = try temporaryDirectory("iframes")
        let input = [
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30000/1001", "-f", "lavfi", "-i",
            "sine=frequency=440", "-t", "12", "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-keyint_min", "50",
            "-sc_threshold", "0", "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", "aac"
        ]
        try runTool(input + ["-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod", "ts.m3u8"], in: folder)
        try runTool(
            input + [
                "-f", "hls", "-hls_time", "0.5", "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "cmaf-init.mp4",
                "-hls_playlist_type", "vod", "cmaf.m3u8"
            ], in: folder)
        try runTool(
            input + [
                "-f", "hls", "-hls_time", "4", "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "long-init.mp4",
                "-hls_playlist_type", "vod", "long.m3u8"
            ], in: folder)
        try runTool(input + ["-f", "mpegts", "file.ts"], in: folder)
        try runTool(input + ["-movflags", "frag_keyframe+empty_moov+default_base_moof", "fragmented.mp4"], in: folder)
        try runTool(input + ["progressive.mp4"], in: folder)
        return IFrameMedia(folder: folder)
    }
}

/// One entry of an I-frame playlist, read here line by line.
private struct IFrameEntry {
    let uri: String, length: Int, offset: Int, seconds: Double
    let map: (uri: String, length: Int?, offset: Int)?
}

private func entries(of playlistPath: String) throws -> [IFrameEntry] {
    var entries: [IFrameEntry] = []
    var map: (String, Int?, Int)?, seconds = 0.0, range = (0, 0)
    for line in try String(contentsOfFile: playlistPath, encoding: .utf8).components(separatedBy: "\n") {
        if line.hasPrefix("#EXT-X-MAP:") {
            let uri = String(line.firstMatch(of: /URI="([^"]*)"/)!.1)
            let bytes = line.firstMatch(of: /BYTERANGE="([0-9]+)@([0-9]+)"/)
            map = (uri, bytes.map { Int($0.1)! }, bytes.map { Int($0.2)! } ?? 0)
        } else if line.hasPrefix("#EXTINF:") {
            seconds = Double(line.dropFirst(8).prefix { $0 != "," })!
        } else if let bytes = line.firstMatch(of: /^#EXT-X-BYTERANGE:([0-9]+)@([0-9]+)$/) {
            range = (Int(bytes.1)!, Int(bytes.2)!)
        } else if !line.hasPrefix("#"), !line.isEmpty {
            entries.append(IFrameEntry(uri: line, length: range.0, offset: range.1, seconds: seconds, map: map))
        }
    }
    return entries
}

/// The bytes `length` at `offset` of `path` (all of it when `length` is nil).
private func bytes(_ path: String, length: Int?, offset: Int) throws -> Data {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.subdata(in: offset..<(length.map { offset + $0 } ?? data.count))
}

@Suite("CLI: I-frame playlists", .ffmpegLog)
struct CLIIFramesTests {
    @Test(
        "Each BYTERANGE, fetched alone and decoded by ffprobe, is one keyframe at the PTS the EXTINFs imply, and every keyframe is listed",
        arguments: ["ts.m3u8", "cmaf.m3u8", "file.ts", "fragmented.mp4"])
    func byteRangesDecodeAlone(input: String) throws {
        let media = try IFrameMedia.made.get()
        let out = media.folder.appendingPathComponent("out-\(input)")
        let result = frameseek(["iframes", media.path(input), "--out", out.path, "--json"])
        #expect(result.code == .success, "\(result.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.joined().utf8)) as? [String: Any])
        #expect(json["left_out"] as? Int == 0)
        let listed = try entries(of: out.appendingPathComponent("iframes.m3u8").path)
        #expect(listed.count == 8, "12 s with a keyframe every 1.67 s")
        var implied = 0.0, firstPTS: Double?
        var decodedTimes: [Double] = []
        var fragmentHashes: [String] = []
        var wholeHashes: Set<String> = []
        for (position, entry) in listed.enumerated() {
            let scratch = out.appendingPathComponent("entry-\(position)")
            var data = Data()
            if let map = entry.map { data += try bytes(out.appendingPathComponent(map.uri).path, length: map.length, offset: map.offset) }
            data += try bytes(out.appendingPathComponent(entry.uri).path, length: entry.length, offset: entry.offset)
            try data.write(to: scratch)
            let frames = try runTool([
                "ffprobe", "-v", "quiet", "-select_streams", "v:0", "-show_entries", "frame=key_frame,pts_time", "-of", "csv=p=0",
                scratch.path
            ]).split(separator: "\n").map { $0.split(separator: ",") }
            try #require(frames.count == 1, "entry \(position) (\(entry.uri) \(entry.length)@\(entry.offset)) decodes to \(frames)")
            #expect(frames[0].first == "1", "entry \(position) is a keyframe")
            // Whole: its MD5 is one a decode of the whole source gives.
            let hash = try runTool(["ffmpeg", "-nostdin", "-v", "quiet", "-i", scratch.path, "-map", "0:v:0", "-f", "framemd5", "-"])
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
            try #require(hash.count == 1)
            fragmentHashes.append(hash[0].trimmingCharacters(in: .whitespaces))
            // Every entry has a map; a TS one is a PAT and a PMT naming the video stream.
            let map = try #require(entry.map, "entry \(position) has no EXT-X-MAP")
            if input.contains("ts") {
                let tables = out.appendingPathComponent("map-\(position).ts")
                try bytes(out.appendingPathComponent(map.uri).path, length: map.length, offset: map.offset).write(to: tables)
                #expect(map.length == 376, "a PAT and a PMT")
                let programs = try runTool([
                    "ffprobe", "-v", "quiet", "-show_entries", "program=program_id:stream=codec_name", "-of", "csv=p=0", tables.path
                ])
                #expect(programs.contains("h264"), "the map's PMT names the video: \(programs)")
            }
            let pts = try #require(Double(frames[0].last ?? ""))
            decodedTimes.append(pts)
            let first = firstPTS ?? pts
            firstPTS = first
            #expect(abs((pts - first) - implied) < 0.000_002, "entry \(position): PTS \(pts), EXTINFs before it add to \(implied)")
            implied += entry.seconds
        }
        // ffprobe's own packet table of the source: the keyframes are those the playlist lists.
        let sources = Set(listed.map { out.appendingPathComponent($0.uri).standardizedFileURL.path })
        var keyframes: [Double] = []
        for source in sources.sorted() {
            var prefix = Data()
            if let map = listed.first(where: { out.appendingPathComponent($0.uri).standardizedFileURL.path == source })?.map,
                map.length == nil
            {
                prefix = try bytes(out.appendingPathComponent(map.uri).path, length: nil, offset: 0)
            }
            let whole = out.appendingPathComponent("whole")
            try (prefix + Data(contentsOf: URL(fileURLWithPath: source))).write(to: whole)
            wholeHashes.formUnion(
                try runTool(["ffmpeg", "-nostdin", "-v", "quiet", "-i", whole.path, "-map", "0:v:0", "-f", "framemd5", "-"])
                    .split(separator: "\n").filter { !$0.hasPrefix("#") }
                    .map { String($0.split(separator: ",").last ?? "").trimmingCharacters(in: .whitespaces) })
            keyframes += try runTool([
                "ffprobe", "-v", "quiet", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", whole.path
            ]).split(separator: "\n").filter { $0.hasSuffix("K_") || $0.contains(",K") }.compactMap { Double($0.split(separator: ",")[0]) }
        }
        #expect(keyframes.sorted() == decodedTimes.sorted(), "ffprobe's keyframes \(keyframes.sorted())")
        #expect(fragmentHashes.allSatisfy(wholeHashes.contains), "each keyframe decoded alone is the picture of the whole decode")
        // Python's m3u8 reads the playlist as an I-frames-only VOD playlist with those byte ranges,
        // and the stream line inside a multivariant playlist as an I-frame stream.
        let streamInf = try String(contentsOf: out.appendingPathComponent("iframes-stream-inf.txt"), encoding: .utf8)
        let multivariant = out.appendingPathComponent("main.m3u8")
        try ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\n\(input)\n" + streamInf).write(
            to: multivariant, atomically: true, encoding: .utf8)
        let parsed = try runTool([
            "/usr/bin/python3", "-c",
            """
            import m3u8,sys
            p=m3u8.load(sys.argv[1]); m=m3u8.load(sys.argv[2]); i=m.iframe_playlists[0]
            print(p.is_i_frames_only, p.is_endlist, len(p.segments), ' '.join(s.byterange for s in p.segments),
                  i.uri, i.iframe_stream_info.bandwidth, i.iframe_stream_info.resolution, i.iframe_stream_info.codecs)
            """,
            out.appendingPathComponent("iframes.m3u8").path, multivariant.path
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
        let ranges = listed.map { "\($0.length)@\($0.offset)" }.joined(separator: " ")
        #expect(
            parsed.hasPrefix("True True \(listed.count) \(ranges) iframes.m3u8 \(json["bandwidth"] as? Int ?? -1) (320, 180) "),
            "python3-m3u8 read: \(parsed)")
        // CODECS is avc1.PPCCLL: ffprobe's profile and level, and its bit rate bounds BANDWIDTH.
        let stream =
            try runTool([
                "ffprobe", "-v", "quiet", "-select_streams", "v:0", "-show_entries", "stream=profile,level", "-of", "csv=p=0",
                media.path(input)
            ]).split(separator: "\n").first?.split(separator: ",") ?? []
        let profiles = ["Constrained Baseline": "42", "Baseline": "42", "Main": "4D", "High": "64"]
        let codecs = try #require(parsed.split(separator: " ").last.map(String.init))
        #expect(stream.count == 2 && codecs.hasPrefix("avc1.\(profiles[String(stream[0])] ?? "?")"), "\(codecs) for \(stream)")
        #expect(codecs.count == 11 && codecs.hasSuffix(String(format: "%02X", Int(stream.last ?? "") ?? -1)), "\(codecs) for \(stream)")
    }

    @Test("A fragment holding two keyframes lists only its first, and says how many it left out")
    func keyframesInsideFragments() throws {
        let media = try IFrameMedia.made.get()
        let out = media.folder.appendingPathComponent("out-long")
        let result = frameseek(["iframes", media.path("long.m3u8"), "--out", out.path, "--json"])
        #expect(result.code == .success, "\(result.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.joined().utf8)) as? [String: Any])
        // Three segments of several GOPs: eight keyframes, three of them first in their fragment.
        #expect(json["iframes"] as? Int == 3 && json["left_out"] as? Int == 5, "\(json)")
        // Each segment starts with a keyframe, so each listed one lasts as long as the EXTINF the
        // ffmpeg CLI's HLS muxer gave its segment.
        let segments = try String(contentsOfFile: media.path("long.m3u8"), encoding: .utf8).components(separatedBy: "\n")
            .filter { $0.hasPrefix("#EXTINF:") }.map { Double($0.dropFirst(8).prefix { $0 != "," })! }
        let listed = try entries(of: out.appendingPathComponent("iframes.m3u8").path)
        #expect(
            segments.count == 3 && zip(listed, segments).allSatisfy { abs($0.seconds - $1) < 0.000_002 },
            "\(listed.map(\.seconds)) against \(segments)")
    }

    @Test("A progressive MP4, a missing file and an unwritable folder are one line and exit 2")
    func refusals() throws {
        let media = try IFrameMedia.made.get()
        let progressive = frameseek(["iframes", media.path("progressive.mp4"), "--out", media.path("out-progressive")])
        #expect(progressive.code == .usageOrInput && progressive.err.count == 1)
        #expect(progressive.err.first?.contains("not a fragmented MP4") == true, "\(progressive.err)")
        let missing = frameseek(["iframes", media.path("nothing.ts"), "--out", media.path("out-missing")])
        #expect(missing.code == .usageOrInput && missing.err.count == 1)
        let blocked = frameseek(["iframes", media.path("file.ts"), "--out", media.path("file.ts") + "/out"])
        #expect(blocked.code == .usageOrInput && blocked.err.count == 1)
        #expect(!FileManager.default.fileExists(atPath: media.path("out-progressive")), "nothing written for a refused input")
    }
}
