// Audio seeks in windows (FrameIndexing.asNeeded): a minute of audio encoded here into the
// containers whose seeks read windows (a progressive MP4's audio too), each landing checked
// against ffprobe's decoded frames and the MD5s of `ffmpeg -f framemd5`, a decode from the start.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Audio seeks in windows", .ffmpegLog)
struct AudioSeekWindowTests {
    static let encodes: [(name: String, options: [String])] = [
        ("opus.webm", ["-ar", "48000", "-c:a", "libopus", "-b:a", "32k"]),
        ("vorbis.webm", ["-c:a", "libvorbis", "-q:a", "1"]),
        ("mp3.mkv", ["-c:a", "libmp3lame", "-b:a", "64k"]),
        ("mp3.ts", ["-c:a", "libmp3lame", "-b:a", "64k"]),
        ("flac.mkv", ["-c:a", "flac"]),
        ("aac.m4a", ["-c:a", "aac", "-b:a", "64k"]),
        ("ac3.ts", ["-c:a", "ac3", "-b:a", "96k"])
    ]

    /// Each frame's time, from the whole table (only to aim at), and an engine on `path` opened
    /// as needed.
    static func timesAndEngineAsNeeded(_ path: String) throws -> (times: [MediaTime], engine: FFmpegEngine) {
        let times = try FFmpegEngine(path: path, options: .init(streamIndex: 0)).frameTable.frames.map(\.time)
        var options = FFmpegEngine.Options(streamIndex: 0)
        options.indexing = .asNeeded
        return (times, try FFmpegEngine(path: path, options: options))
    }

    @Test(
        "Mid-stream landings read a window and give ffprobe's PTS and framemd5's samples; the first and last frames fall back to the whole table",
        arguments: [0, 1, 2, 3, 4, 5, 6])
    func windowLandings(_ encode: Int) throws {
        let (name, encoding) = Self.encodes[encode]
        let directory = try temporaryDirectory("audio-windows")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, probed, md5s) = try AudioPacketTableTests.encodeMinute(name, encoding, sampleRate: 44100, in: directory)
        try #require(probed.count > 300 && md5s.count == probed.count, "\(name): \(probed.count) frames, \(md5s.count) MD5s")

        let (times, engine) = try AudioSeekWindowTests.timesAndEngineAsNeeded(path)
        try #require(times.count == probed.count, "\(name)")
        let count = probed.count
        // Mid-stream, forward and back, then the first frames and the last (trimmed by the rule).
        let middle = [count / 2, count / 3, count * 2 / 3, count / 2 + 1]
        for k in middle {
            let landing = try engine.seek(to: times[k], precision: .exact)
            #expect(!landing.isIndexed, "\(name): frame \(k) lands in a window")
            #expect(landing.frame.pts == probed[k], "\(name): frame \(k)")
            #expect(try engine.landedAudio()?.md5 == md5s[k], "\(name): frame \(k)")
        }
        // Audio has no frames to step: saying so reads nothing more.
        #expect(engine.step(.forward).result == .unavailable(.audioOnly), "\(name)")
        #expect(!engine.indexesWholeStream, "\(name): mid-stream seeks and a step built no whole table")
        for k in [0, 1, count - 2, count - 1] {
            let landing = try engine.seek(to: times[k], precision: .exact)
            #expect(landing.frame.pts == probed[k], "\(name): frame \(k)")
            #expect(try engine.landedAudio()?.md5 == md5s[k], "\(name): frame \(k)")
        }
    }
}
