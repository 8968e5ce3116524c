// Time zero of an MP3 is its first frame. FFmpeg holds a container's start time in
// microseconds, the stream's start rounded; MP3's time base (1/14112000) is finer, so the start
// rescaled back to ticks misses the first frame by a few: after it for libshine's files (a
// target of 0 was "clamped to start" and outside an exact tolerance), before it for LAME's (the
// first frame landed at a negative time). The truth is ffprobe's (the stream's start_pts and
// its first decoded frame's PTS) and ffmpeg's own timeline: framemd5's times in the stream's
// time base, which start each frame on a whole sample from the first.
//
// Time zero of a video whose container start another stream sets, between two of the video's
// ticks (an MP4 whose AAC starts 22 ms before its video, 18918.4 ticks of 1/12800), is the
// tick after it: rounded to the nearest, every frame's time was 0.4 ticks late, and a seek to
// a frame's time as `ffmpeg -ss` counts it (its PTS less ffprobe's format start_time) landed
// on the frame before, 20 of 20 frames.

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

    @Test(
        "A seek to each frame's ffmpeg -ss time lands on that frame where another stream starts the container between two video ticks",
        arguments: [FrameIndexing.full, .asNeeded])
    func containerStartBetweenTicks(_ indexing: FrameIndexing) throws {
        let directory = try temporaryDirectory("stream-origin-between-ticks")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source.mp4").path
        let path = directory.appendingPathComponent("delayed.mp4").path
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=3", "-f", "lavfi", "-i",
            "sine=f=440:d=3:sample_rate=48000", "-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-c:a", "aac", source
        ])
        // Both streams 1.5 s later; the AAC's priming puts the container's start 22 ms earlier.
        try runTool(["ffmpeg", "-nostdin", "-v", "error", "-itsoffset", "1.5", "-i", source, "-c", "copy", path])
        let probed = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base:format=start_time", "-of",
            "default=noprint_wrappers=1", path
        ])
        let fields = Dictionary(
            probed.split(whereSeparator: \.isNewline).map { line -> (String, String) in
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { first, _ in first })
        let timeBaseDenominator = try #require(fields["time_base"].flatMap { Int64($0.split(separator: "/").last ?? "") })
        // ffprobe prints the start in whole microseconds.
        let startMicroseconds = try #require(fields["start_time"].flatMap { Int64($0.replacingOccurrences(of: ".", with: "")) })
        try #require(
            (startMicroseconds * timeBaseDenominator) % 1_000_000 != 0, "the container starts between two of the video's ticks")
        let pts = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts", "-of", "csv=p=0", path
        ]).split(whereSeparator: \.isNewline).compactMap { Int64($0) }
        try #require(pts.count > 20)

        // pts / den - start / 10^6, over the least common multiple of the two denominators.
        func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
        let timescale = timeBaseDenominator / gcd(timeBaseDenominator, 1_000_000) * 1_000_000
        var options = FFmpegEngine.Options()
        options.indexing = indexing
        let engine = try FFmpegEngine(path: path, options: options)
        var landedElsewhere: [(pts: Int64, landed: Int64)] = []
        for framePTS in pts.prefix(20) {
            let target = MediaTime(
                value: framePTS * (timescale / timeBaseDenominator) - startMicroseconds * (timescale / 1_000_000),
                timescale: Int32(timescale))
            let landing = try engine.seek(to: target, precision: .exact)
            if landing.frame.pts != framePTS { landedElsewhere.append((framePTS, landing.frame.pts)) }
            // Time zero is the tick at or after the container's start: a frame's time is at
            // most one tick before ffmpeg's.
            #expect(landing.frame.time <= target, "pts \(framePTS): \(landing.frame.time) after \(target)")
        }
        #expect(
            landedElsewhere.isEmpty,
            "\(landedElsewhere.count) of 20 frames' ffmpeg -ss times landed elsewhere: \(landedElsewhere.prefix(3))")
    }
}
