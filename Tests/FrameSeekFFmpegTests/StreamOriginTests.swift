// Time zero of an MP3 is its first frame. FFmpeg holds a container's start time in
// microseconds, the stream's start rounded; MP3's time base (1/14112000) is finer, so the start
// rescaled back to ticks misses the first frame by a few: after it for libshine's files (a
// target of 0 was "clamped to start" and outside an exact tolerance), before it for LAME's (the
// first frame landed at a negative time). The truth is ffprobe's (the stream's start_pts and
// its first decoded frame's PTS) and ffmpeg's own timeline: framemd5's times in the stream's
// time base, which start each frame on a whole sample from the first.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Time zero of a stream whose time base is finer than a microsecond", .ffmpegLog)
struct StreamOriginTests {
    static let encodes: [(name: String, options: [String])] = [
        ("shine.mp3", ["-c:a", "libshine", "-b:a", "128k"]),
        ("lame.mp3", ["-c:a", "libmp3lame", "-b:a", "128k"])
    ]

    @Test(
        "A seek to 0 lands on the first frame exactly (delta 0, within an exact tolerance, not clamped), and every frame's time is framemd5's",
        arguments: [0, 1], [FrameIndexing.full, .asNeeded])
    func seekToZeroLandsOnTheFirstFrame(_ encode: Int, _ indexing: FrameIndexing) throws {
        let (name, encoding) = Self.encodes[encode]
        let directory = try temporaryDirectory("stream-origin")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        try runTool(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=f=440:r=44100:d=5"] + encoding + [path])
        let firstPTS = try #require(
            try runTool([
                "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "frame=pts", "-of", "csv=p=0", path
            ]).split(whereSeparator: \.isNewline).first.flatMap { Int64($0) })
        let startPTS = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=start_pts", "-of", "csv=p=0", path
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(startPTS == String(firstPTS), "\(name): the stream starts at its first frame")

        var options = FFmpegEngine.Options()
        options.indexing = indexing
        let engine = try FFmpegEngine(path: path, options: options)
        let landing = try engine.seek(to: .zero, precision: .exact)
        #expect(landing.frame.pts == firstPTS, "\(name)")
        #expect(landing.frame.time == .zero, "\(name): \(landing.frame.time)")
        #expect(landing.accuracy.deltaMediaTime == .zero, "\(name): \(landing.accuracy.deltaMediaTime)")
        #expect(landing.accuracy.withinRequestedTolerance, "\(name)")
        #expect(landing.plan.clamp == .none, "\(name): \(landing.plan.clamp)")

        // Every frame's time is ffmpeg's: framemd5's timestamps in the stream's time base.
        guard indexing == .full else { return }
        let timeBase = engine.frameTable.timeBase
        let ffmpegTimes = try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-i", path, "-map", "0:a:0", "-enc_time_base:a", "-1", "-f", "framemd5", "-"
        ]).split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap { line in
            Int64(line.split(separator: ",")[1].trimmingCharacters(in: .whitespaces))
        }.map { timeBase.time(ofTicks: $0) }
        let times = engine.frameTable.frames.map(\.time)
        try #require(ffmpegTimes.count == times.count, "\(name): \(ffmpegTimes.count) frames in framemd5, \(times.count) listed")
        let differing = zip(times, ffmpegTimes).filter { $0 != $1 }
        #expect(differing.isEmpty, "\(name): \(differing.count) frames' times differ, first \(differing.first.map { "\($0)" } ?? "")")
    }
}
