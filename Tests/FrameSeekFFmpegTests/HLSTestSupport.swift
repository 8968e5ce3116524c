// Helpers for the HLS engine tests: the ffmpeg CLI as the oracle, temporary playlist
// directories, and playlists written by the tests.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

/// One segment line of a playlist a test writes.
struct PlaylistEntry {
    var uri: String
    var duration: String
    var discontinuity = false
    var date: String?
}

/// Writes a media playlist (atomically, as a server replaces it).
func writePlaylist(
    _ path: String, _ entries: [PlaylistEntry], mediaSequence: Int = 0, targetDuration: Int,
    endList: Bool
) throws {
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(targetDuration)\n#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)\n"
    for entry in entries {
        if entry.discontinuity { text += "#EXT-X-DISCONTINUITY\n" }
        if let date = entry.date { text += "#EXT-X-PROGRAM-DATE-TIME:\(date)\n" }
        text += "#EXTINF:\(entry.duration),\n\(entry.uri)\n"
    }
    if endList { text += "#EXT-X-ENDLIST\n" }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

/// Cuts `source`'s video into MPEG-TS segments with ffmpeg's HLS muxer (`-c copy`, so cuts fall
/// on the source's keyframes) and returns the segments as ffmpeg's playlist lists them.
func hlsCut(
    _ source: String, into directory: TemporaryDirectory, prefix: String,
    seconds: Int = 2
) throws -> [PlaylistEntry] {
    let playlist = directory.file("\(prefix).m3u8")
    _ = try runTool([
        "ffmpeg", "-nostdin", "-v", "error", "-i", source, "-map", "0:v:0", "-c", "copy", "-f", "hls",
        "-hls_time", String(seconds), "-hls_list_size", "0",
        "-hls_segment_filename", directory.file("\(prefix)%d.ts"), playlist
    ])
    let lines = try String(contentsOfFile: playlist, encoding: .utf8).split(whereSeparator: \.isNewline)
    var entries: [PlaylistEntry] = []
    for (position, line) in lines.enumerated() where line.hasPrefix("#EXTINF:") {
        let duration = line.dropFirst("#EXTINF:".count).split(separator: ",")[0]
        entries.append(PlaylistEntry(uri: String(lines[position + 1]), duration: String(duration)))
    }
    return entries
}

/// The rollover fixture's directory and its ten segments as its playlist lists them, with
/// their dates.
enum Rollover {
    static let directory = Repository.fixture("media/hls-ts-rollover")
    static let playlist = Repository.fixture("media/hls-ts-rollover/playlist.m3u8")
    static let framesPerSegment = 48
    static let segmentCount = 10
    /// 24 fps on a 1/90000 clock.
    static let frameTicks: Int64 = 3750

    static func segmentFile(_ position: Int) -> String {
        "360p30_h264_48k_160_aac_ts-00000000\(24 + position).ts"
    }

    static func entry(_ position: Int) -> PlaylistEntry {
        let seconds = 17.684 + 2 * Double(position)
        return PlaylistEntry(
            uri: segmentFile(position), duration: "2.000000",
            date: String(format: "2024-03-04T23:02:%06.3fZ", seconds))
    }

    /// Copies segments `positions` into `directory`.
    static func copySegments(_ positions: Range<Int>, into directory: TemporaryDirectory) throws {
        for position in positions {
            try FileManager.default.copyItem(
                atPath: (Self.directory as NSString).appendingPathComponent(segmentFile(position)),
                toPath: directory.file(segmentFile(position)))
        }
    }

    /// ffmpeg's decode of each segment on its own, in playlist order.
    static func segmentMD5s(_ positions: Range<Int>) throws -> [[String]] {
        try positions.map { try ffmpegVideoMD5s((directory as NSString).appendingPathComponent(segmentFile($0))) }
    }
}

/// Seeks exactly to `time` and checks the landed frame's index and its MD5.
func expectLanding(
    _ engine: HLSEngine, at time: MediaTime, frame expected: Int, md5: String,
    _ context: String
) throws {
    let landing = try engine.seek(to: time, precision: .exact)
    #expect(landing.frame.index == expected, "\(context): landed on \(landing.frame.index), expected \(expected)")
    #expect(!landing.damaged, "\(context): damaged")
    let picture = try #require(try engine.landedPicture(), "\(context): no picture")
    #expect(picture.md5 == md5, "\(context): MD5 differs from ffmpeg's frame \(expected)")
}

/// The middle of global frame `index` (between its start and the next frame's).
func middle(of index: Int, in table: FrameTable) -> MediaTime {
    let frame = table.frames[index]
    let span = index + 1 < table.frames.count ? table.frames[index + 1].pts - frame.pts : frame.durationTicks
    return table.timeBase.time(ofTicks: frame.pts + span / 2)
}
