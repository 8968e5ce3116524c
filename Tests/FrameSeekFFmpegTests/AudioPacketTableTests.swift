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
        "MP3 and AAC tables come from packets, Opus in Matroska from a decode, and either is ffprobe's decoded frames",
        arguments: FixtureCatalog.audio)
    func tableIsTheDecodersFrames(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try FFmpegEngine(path: fixture.path, options: .init(streamIndex: fixture.stream))
        let codec = engine.media.selectedStream.codec
        // Opus in Matroska trims its pre-skip without side data: the rule cannot see it.
        #expect(engine.frameTable.source == (codec == "opus" ? .decodeScan : .audioPackets), "\(fixture.id): \(codec)")
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
}
