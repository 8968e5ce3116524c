// `frameseek step` on an HLS playlist or a DASH MPD, read by FrameSeek as `seek` reads it: the
// B-frame fixture packaged in the test by ffmpeg's HLS (MPEG-TS, CMAF) and DASH muxers, one
// segment per GOP. From just before the second segment's start, steps forward and back cross
// the boundary one frame at a time; every step's frame_index moves by one and its MD5 is the
// frame ffmpeg's own decode of the playlist or MPD shows at that position (framemd5, in
// presentation order).

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("CLI: step in HLS and DASH", .ffmpegLog)
struct CLIPlaylistStepTests {
    static let forms: [(name: String, manifest: String, options: [String])] = [
        ("HLS with MPEG-TS", "index.m3u8", ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod"]),
        ("HLS with CMAF", "index.m3u8", ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4"]),
        ("DASH", "manifest.mpd", ["-f", "dash", "-seg_duration", "1", "-use_template", "1", "-use_timeline", "1"])
    ]

    @Test("Steps across a segment boundary land on ffmpeg's neighbours, numbered across segments", arguments: forms.indices)
    func stepsAcrossBoundaries(_ position: Int) throws {
        let form = Self.forms[position]
        let directory = try TemporaryDirectory()
        let manifest = directory.file(form.manifest)
        try runTool(
            ["ffmpeg", "-nostdin", "-v", "error", "-i", Repository.fixture("media/h264_bframes_gop250.mp4"), "-map", "0:v:0", "-c", "copy"]
                + form.options + [manifest])
        let md5s = try ffmpegVideoMD5sByPTS(manifest)
        // The second segment's start: the first EXTINF, or the first S@d over the timescale.
        let listing = try String(contentsOfFile: manifest, encoding: .utf8)
        let boundary: String
        if let extinf = listing.firstMatch(of: /#EXTINF:([0-9.]+),/) {
            boundary = String(extinf.1)
        } else {
            let timescale = try #require(listing.firstMatch(of: /timescale="([0-9]+)"/)?.1)
            let first = try #require(listing.firstMatch(of: /<S t="0" d="([0-9]+)"/)?.1)
            boundary = "\(first)/\(timescale)"
        }
        // The segment's first frame, by a seek to its start.
        let landed = try #require(jsonLines(["seek", manifest, boundary, "--json", "--index", "full"]).first)
        let firstOfSegment = try #require(JSON.int(landed["frame_index"]), "\(landed)")
        try #require(firstOfSegment >= 3, "\(form.name): the second segment starts at frame \(firstOfSegment)")
        var problems: [String] = []
        var boundaries = 0
        for direction in ["--forward", "--backward"] {
            // Two frames before the boundary forward, or one after it back: three steps cross it.
            let start = direction == "--forward" ? firstOfSegment - 2 : firstOfSegment + 1
            let at = try #require(jsonLines(["step", manifest, "0", "--forward", "--count", "\(start)", "--json"]).first)
            guard let atTime = at["landed_rational"] as? String, JSON.int(at["frame_index"]) == start else {
                problems.append("\(form.name): stepping \(start) frames from 0 reached \(at)")
                continue
            }
            let lines = jsonLines(["step", manifest, atTime, direction, "--repeat", "3", "--json", "--md5"])
            boundaries += lines.count == 3 ? 1 : 0
            for (offset, line) in lines.enumerated() {
                let expected = direction == "--forward" ? start + offset + 1 : start - offset - 1
                guard JSON.int(line["frame_index"]) == expected, md5s.indices.contains(expected),
                    line["md5"] as? String == md5s[expected]
                else {
                    problems.append(
                        "\(form.name) \(direction) from frame \(start): step \(offset + 1) landed \(line["frame_index"] ?? "nil") "
                            + "\(line["md5"] ?? "nil"), ffmpeg's frame \(expected) is \(md5s.indices.contains(expected) ? md5s[expected] : "none")"
                    )
                    break
                }
            }
        }
        #expect(boundaries == 2 && problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
