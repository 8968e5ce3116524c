// Audio tables made from packets (FrameTable.Source.audioPackets) against FFmpeg's own decode:
// ffprobe's decoded frames (with the priming and padding libavcodec trims) and the MD5s of
// `ffmpeg -f framemd5`, a decode from the start. Landed samples come from a decode a few frames
// before the landing (FFmpegEngine.landedAudio), which must still be that decode's.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Audio tables from packets", .ffmpegLog)
struct AudioPacketTableTests {
    @Test(
        "MP3, AAC and Opus tables come from packets, and are ffprobe's decoded frames",
        arguments: FixtureCatalog.audio)
    func tableIsTheDecodersFrames(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try FFmpegEngine(path: fixture.path, options: .init(streamIndex: fixture.stream))
        let codec = engine.media.selectedStream.codec
        #expect(engine.frameTable.source == .audioPackets, "\(fixture.id): \(codec)")
        #expect(engine.frameTable.frames.map(\.pts) == oracle.frames.map(\.pts), "\(fixture.id)")
        #expect(engine.frameTable.randomAccessPoints.map(\.frameIndex) == Array(0..<oracle.count), "\(fixture.id)")
    }

    @Test("A 40-fold stream copy of the MP3 fixture is read from its packets; its table is ffprobe's and seeks give framemd5's samples")
    func longMP3() throws {
        let fixture = try #require(FixtureCatalog.fixture("nasa_13013_audio.s0"))
        let directory = try temporaryDirectory("audio-packets-long")
        defer { try? FileManager.default.removeItem(at: directory) }
        let long = try ContainerIndexTests.streamCopy(fixture, times: 40, into: directory, named: "long.mp3")

        let probed = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "frame=pts",
            "-of", "csv=p=0", long
        ]).split(whereSeparator: \.isNewline).compactMap { Int64($0) }
        let md5s = try runTool(["ffmpeg", "-nostdin", "-v", "error", "-i", long, "-map", "0:a:0", "-f", "framemd5", "-"])
            .split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
        try #require(probed.count > 40 * 180 && md5s.count == probed.count)

        let engine = try FFmpegEngine(path: long, options: .init(streamIndex: 0))
        let table = engine.frameTable
        #expect(table.source == .audioPackets)
        #expect(table.frames.map(\.pts) == probed)
        // An MP3's frames are runs: little more than each frame's packet position, 8 bytes.
        #expect(table.frames.residentBytes < 9 * table.frames.count, "\(table.frames.residentBytes) bytes for \(table.frames.count) frames")
        // The first frames (priming), joints between copies, the middle and the padded last frame.
        for k in [0, 1, 2, 25, 183, 184, 3001, probed.count / 2, probed.count - 2, probed.count - 1] {
            let landing = try engine.seek(to: table.frames[k].time, precision: .exact)
            #expect(landing.frame.index == k)
            #expect(try engine.landedAudio()?.md5 == md5s[k], "frame \(k)")
        }
    }

    /// Long Opus and Vorbis encodes made here: pink noise under a tone, as in a podcast. Each
    /// lasts a fraction of a frame past the minute, so its last packet is trimmed at its end.
    static let longEncodes: [(name: String, options: [String])] = [
        ("opus.webm", ["-c:a", "libopus", "-b:a", "32k"]),
        ("opus.ogg", ["-c:a", "libopus", "-b:a", "24k", "-frame_duration", "60"]),
        ("vorbis.ogg", ["-c:a", "libvorbis", "-q:a", "2"]),
        ("vorbis.webm", ["-c:a", "libvorbis", "-q:a", "1"])
    ]

    @Test(
        "A minute of Opus and Vorbis (WebM, Ogg): tables come from packets, are ffprobe's frames to the trimmed last one, and landings far from the start give framemd5's samples",
        arguments: [0, 1, 2, 3])
    func longOpusAndVorbis(_ encode: Int) throws {
        let (name, encoding) = Self.longEncodes[encode]
        let directory = try temporaryDirectory("audio-packets-opus")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, probed, md5s) = try Self.encodeMinute(name, encoding, sampleRate: 48000, seconds: 60.05, in: directory)
        try #require(probed.count > 900 && md5s.count == probed.count, "\(name): \(probed.count) frames, \(md5s.count) MD5s")
        let durations = try Self.probedDurations(path)

        let engine = try FFmpegEngine(path: path, options: .init(streamIndex: 0))
        let table = engine.frameTable
        #expect(table.source == .audioPackets, "\(name)")
        #expect(table.frames.map(\.pts) == probed, "\(name)")
        let differing = zip(table.frames.map(\.durationTicks), durations).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
            table.frames.count == durations.count && differing == nil,
            "\(name): frame \(differing?.offset ?? -1) lasts \(differing?.element.0 ?? 0) ticks, ffprobe's \(differing?.element.1 ?? 0)")
        // The first frames (pre-skip), the first far enough for two pre-rolls, the middle, the end.
        for k in [0, 1, 2, 129, 130, 500, probed.count / 2, probed.count - 2, probed.count - 1] {
            let landing = try engine.seek(to: table.frames[k].time, precision: .exact)
            #expect(landing.frame.index == k, "\(name): frame \(k)")
            #expect(try engine.landedAudio()?.md5 == md5s[k], "\(name): frame \(k)")
        }
    }

    /// A minute of pink noise under a tone at `sampleRate`, mono, encoded with `encoding` into
    /// `directory`/`name`: its path, ffprobe's decoded frames' PTS and framemd5's MD5s.
    static func encodeMinute(
        _ name: String, _ encoding: [String], sampleRate: Int, seconds: Double = 60, in directory: URL
    ) throws -> (path: String, pts: [Int64], md5s: [String]) {
        let path = directory.appendingPathComponent(name).path
        try runTool(
            [
                "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "anoisesrc=d=\(seconds):c=pink:r=\(sampleRate):a=0.05:seed=36",
                "-f", "lavfi", "-i", "sine=f=220:r=\(sampleRate):d=\(seconds)", "-filter_complex", "amix=inputs=2", "-ac", "1"
            ] + encoding + [path])
        let (probed, md5s) = try decodedFrames(path)
        return (path, probed, md5s)
    }

    /// FFmpeg's decode of the audio file at `path`: ffprobe's decoded frames' PTS and the MD5s
    /// of `ffmpeg -f framemd5`, a decode from the start.
    static func decodedFrames(_ path: String) throws -> (pts: [Int64], md5s: [String]) {
        let probed = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "frame=pts", "-of", "csv=p=0", path
        ]).split(whereSeparator: \.isNewline).compactMap { $0.split(separator: ",").first.flatMap { Int64($0) } }
        let md5s = try runTool(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-map", "0:a:0", "-f", "framemd5", "-"])
            .split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
        return (probed, md5s)
    }

    /// ffprobe's decoded frames' durations (`pkt_duration`: after libavcodec's trimming).
    static func probedDurations(_ path: String) throws -> [Int64] {
        try runTool([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "frame=pkt_duration", "-of", "csv=p=0", path
        ]).split(whereSeparator: \.isNewline).compactMap { Int64($0) }
    }
}
