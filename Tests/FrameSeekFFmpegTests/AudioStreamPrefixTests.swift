// Audio seeks on the stream's prefix (FrameIndexing.asNeeded): an MP3, ADTS AAC, raw AC-3, Ogg,
// FLAC, WAV or AIFF file has no window read from it, so a seek reads the stream from its first
// packet through its target, not the whole file. Three minutes encoded here in each; every
// landing is checked against ffprobe's decoded frames (its number and PTS) and the MD5s of
// `ffmpeg -f framemd5`, a decode from the start; the bytes read against the file's size.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Audio seeks on the stream's prefix", .ffmpegLog)
struct AudioStreamPrefixTests {
    static let encodes: [(name: String, options: [String], sampleRate: Int)] = [
        ("mp3.mp3", ["-c:a", "libmp3lame", "-b:a", "64k"], 44100),
        ("adts.aac", ["-c:a", "aac", "-b:a", "64k"], 44100),
        ("raw.ac3", ["-c:a", "ac3", "-b:a", "96k"], 48000),
        ("opus.ogg", ["-c:a", "libopus", "-b:a", "32k"], 48000),
        ("vorbis.ogg", ["-c:a", "libvorbis", "-q:a", "1"], 44100),
        ("flac.flac", ["-c:a", "flac"], 44100),
        ("pcm.wav", ["-c:a", "pcm_s16le"], 44100),
        ("pcm.aiff", ["-c:a", "pcm_s16be"], 44100)
    ]

    @Test(
        "A seek reads the stream through its target: ffprobe's frame and number, framemd5's samples, a fraction of the file",
        arguments: 0..<8)
    func prefixLandings(_ encode: Int) throws {
        let (name, encoding, sampleRate) = Self.encodes[encode]
        let directory = try temporaryDirectory("audio-prefix")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, probed, md5s) = try AudioPacketTableTests.encodeMinute(
            name, encoding, sampleRate: sampleRate, seconds: 180, in: directory)
        try #require(probed.count > 600 && md5s.count == probed.count, "\(name): \(probed.count) frames, \(md5s.count) MD5s")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64)

        let (times, engine) = try AudioSeekWindowTests.timesAndEngineAsNeeded(path)
        try #require(times.count == probed.count, "\(name)")
        let count = probed.count
        func land(_ k: Int, _ what: String) throws -> SeekLanding {
            let landing = try engine.seek(to: times[k], precision: .exact)
            #expect(landing.isIndexed, "\(name), \(what): frame \(k) is numbered in the stream")
            #expect(landing.frame.index == k, "\(name), \(what): frame \(k)")
            #expect(landing.frame.pts == probed[k], "\(name), \(what): frame \(k)")
            #expect(try engine.landedAudio()?.md5 == md5s[k], "\(name), \(what): frame \(k)")
            return landing
        }

        // A twentieth of the way in: a fraction of the file.
        let early = try land(count / 20, "early")
        let earlyBytes = try #require(early.reads?.bytes)
        let opened = engine.openReads.bytes
        #expect(
            opened < size / 4 && earlyBytes > 0 && earlyBytes < size / 2,
            "\(name): the open read \(opened) and the first seek \(earlyBytes) of \(size) bytes")
        #expect(!engine.indexesWholeStream, "\(name): a seek on a prefix builds no whole table")
        // Just past the prefix: the next one reaches twice as far into the stream, so a seek
        // between the two reads no prefix again, only its landing's packets.
        let extended = try land(count / 20 + 40, "past the prefix")
        let within = try land(count / 20 + count / 40, "inside the longer prefix")
        let extendedBytes = try #require(extended.reads?.bytes), withinBytes = within.reads?.bytes ?? 0
        #expect(withinBytes < extendedBytes, "\(name): inside the prefix \(withinBytes) bytes, past it \(extendedBytes)")
        // Back, to the first frames (trimmed by the rule), and the last: the stream's end is
        // read, and the prefix is then the whole table.
        for k in [count / 20, 1, 0, count - 2, count - 1, count / 2] { _ = try land(k, "anywhere") }
        #expect(engine.indexesWholeStream, "\(name): a seek at the end read the whole stream")
    }
}
