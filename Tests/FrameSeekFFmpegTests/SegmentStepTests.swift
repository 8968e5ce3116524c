// Steps across segment boundaries in presentations packaged in the test by ffmpeg's HLS and
// DASH muxers: from the last frame of each segment forward, and back again, the engine must land
// on the frames ffmpeg's own decode of the playlist or MPD shows next to each other, with their
// MD5s. (The open-GOP HEVC fixture is left out: a segment decoded alone cannot show the leading
// pictures of the CRA it starts with; see Known limits.)

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Segments: steps across every boundary land on ffmpeg's neighbours", .ffmpegLog)
struct SegmentStepTests {
    /// A source and how it is packaged: the muxer's options, and the manifest's name.
    struct Packaging: Sendable, CustomTestStringConvertible {
        let source: String
        let form: String

        var testDescription: String { "\(source) as \(form)" }

        var arguments: [String] {
            switch form {
            case "HLS with MPEG-TS": ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod"]
            case "HLS with CMAF": ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4"]
            default: ["-f", "dash", "-seg_duration", "1", "-use_template", "1", "-use_timeline", "1"]
            }
        }

        var manifest: String { form.hasPrefix("HLS") ? "index.m3u8" : "manifest.mpd" }

        static let all: [Packaging] = ["media/h264_bframes_gop250.mp4", "media/h264_editlist_midgop.mp4", "media/h264_vfr.mkv"]
            .flatMap { source in ["HLS with MPEG-TS", "HLS with CMAF", "DASH"].map { Packaging(source: source, form: $0) } }
    }

    @Test("From each segment's last frame a step forward, then back", arguments: Packaging.all)
    func stepsAcrossBoundaries(_ packaging: Packaging) throws {
        let directory = try TemporaryDirectory()
        let manifest = directory.file(packaging.manifest)
        try runTool(
            ["ffmpeg", "-nostdin", "-v", "error", "-i", Repository.fixture(packaging.source), "-map", "0:v:0", "-c", "copy"]
                + packaging.arguments + [manifest])
        // ffmpeg's decode in presentation order, every frame (a DASH edit list's first GOP at
        // negative times included: the engine lists them there too, as ffmpeg decodes them).
        let md5s = try ffmpegVideoMD5sByPTS(manifest)

        let engine = try HLSEngine(url: manifest)
        let table = engine.frameTable
        try #require(table.frames.count == md5s.count, "\(table.frames.count) frames, ffmpeg decodes \(md5s.count)")
        // The first frame at or after each segment's start (but the first segment's).
        let boundaries = engine.liveSeekWindow.segments.dropFirst().compactMap { segment in
            table.frames.firstIndex { $0.time >= segment.start }
        }.filter { $0 > 0 }
        try #require(!boundaries.isEmpty, "one segment only")
        for boundary in Set(boundaries).sorted() {
            _ = try engine.seek(to: table.frames[boundary - 1].time, precision: .exact)
            #expect(try engine.landedPicture()?.md5 == md5s[boundary - 1], "frame \(boundary - 1)")
            #expect(engine.step(.forward).frame?.index == boundary, "forward to \(boundary)")
            #expect(try engine.landedPicture()?.md5 == md5s[boundary], "forward to \(boundary)")
            #expect(engine.step(.backward).frame?.index == boundary - 1, "back to \(boundary - 1)")
            #expect(try engine.landedPicture()?.md5 == md5s[boundary - 1], "back to \(boundary - 1)")
        }
    }
}
