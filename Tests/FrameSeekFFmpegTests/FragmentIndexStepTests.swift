// Backward steps in a fragmented MP4 with a global sidx, opened as needed, against ffprobe's
// packets and ffmpeg's framemd5: from every keyframe, one step back lands on the frame before it.
//
// FFmpeg's MP4 demuxer picks the fragment a seek reads by the sidx's presentation times, and
// the keyframe it goes to by decode time among the fragments it has read. The window a step back
// reads starts two frames before the keyframe; where B-frames put that keyframe's decode time
// after it, the seek went to the file's first keyframe and its packets ran from there straight
// into the keyframe's fragment, so the step landed on the frame before the file's second
// keyframe, undamaged.

import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Fragmented MP4 with a sidx: steps in seek windows", .ffmpegLog)
struct FragmentIndexStepTests {
    @Test("From every keyframe, a step back lands on ffmpeg's frame before it")
    func backwardFromEveryKeyframe() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mkv")
        let path = directory.file("fragmented.mp4")
        // Matroska's millisecond times make the frames' decode times uneven in the MP4's 1/16000,
        // so the keyframes forced on frames of each remainder by 3 fall on either side of their
        // fragment's sidx time.
        let forced = [23, 41, 52, 70, 86, 103, 125, 148, 172, 200, 214, 229].map { String(Double($0) / 30 - 0.01) }
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=8", "-c:v", "libx264",
            "-preset", "veryfast", "-bf", "3", "-x264opts", "b-pyramid=normal:keyint=60:min-keyint=7:scenecut=0",
            "-force_key_frames", forced.joined(separator: ","), "-pix_fmt", "yuv420p", source
        ])
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-i", source, "-map", "0:v", "-c", "copy", "-movflags",
            "+frag_keyframe+empty_moov+default_base_moof+global_sidx", path
        ])
        let packets = try probedVideoPackets(path)
        let md5s = try ffmpegVideoMD5sByPTS(path)
        try #require(packets.count == 240 && md5s.count == packets.count, "\(packets.count) packets, \(md5s.count) MD5s")
        let timeBase = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base", "-of", "csv=p=0", path
        ]).split(whereSeparator: \.isNewline).first?.split(separator: "/").compactMap { Int32($0) }
        let (numerator, denominator) = (try #require(timeBase?.first), try #require(timeBase?.last))
        let keyframes = packets.indices.filter { $0 > 0 && packets[$0].key }
        try #require(keyframes.count >= forced.count, "\(keyframes.count) keyframes after the first")

        var options = FFmpegEngine.Options(streamIndex: 0)
        options.indexing = .asNeeded
        for keyframe in keyframes {
            // A fresh engine each time: FFmpeg's demuxer has read the fragments of the open and of
            // the seek only, as a player's that lands there.
            let engine = try FFmpegEngine(path: path, options: options)
            let time = MediaTime(value: (packets[keyframe].pts - packets[0].pts) * Int64(numerator), timescale: denominator)
            let landing = try engine.seek(to: time, precision: .exact)
            try #require(landing.frame.pts == packets[keyframe].pts, "the seek to keyframe \(keyframe)")
            let report = engine.step(.backward)
            let context = "back from keyframe \(keyframe) at pts \(packets[keyframe].pts)"
            #expect(report.result.didStep && report.decodeErrors == 0, "\(context): \(report.result)")
            #expect(report.frame?.pts == packets[keyframe - 1].pts, "\(context): landed on pts \(report.frame?.pts ?? -1)")
            #expect(try engine.landedPicture()?.md5 == md5s[keyframe - 1], "\(context): the picture")
        }
    }
}
