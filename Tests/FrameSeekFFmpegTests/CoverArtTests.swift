// Audio files with cover art: an MP3 with an ID3 picture, a FLAC with a PICTURE block and an
// M4A with `covr`, encoded here. FFmpeg lists the cover as a video stream with the
// attached-picture disposition; it has one picture and no timeline, so the audio is the stream
// seeked in, and each landing is checked against ffprobe's decoded frames and the MD5s of
// `ffmpeg -f framemd5`, a decode from the start.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Audio with cover art", .ffmpegLog)
struct CoverArtTests {
    static let encodes: [(name: String, options: [String])] = [
        ("cover.mp3", ["-c:a", "libmp3lame", "-b:a", "64k", "-id3v2_version", "3"]),
        ("cover.flac", ["-c:a", "flac"]),
        ("cover.m4a", ["-c:a", "aac", "-b:a", "64k"])
    ]

    /// Ten seconds of audio (stream 0) with a PNG cover attached (stream 1), and ffprobe's PTS
    /// and framemd5's MD5 of each audio frame.
    static func encodeWithCover(
        _ name: String, _ encoding: [String], in directory: URL
    ) throws -> (path: String, pts: [Int64], md5s: [String]) {
        let cover = directory.appendingPathComponent("cover.png").path
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=160x160", "-frames:v", "1", cover
        ])
        let path = directory.appendingPathComponent(name).path
        try runTool(
            [
                "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=f=440:r=44100:d=10", "-i", cover,
                "-map", "0:a", "-map", "1:v"
            ] + encoding + ["-c:v", "copy", "-disposition:v", "attached_pic", path])
        let (probed, md5s) = try AudioPacketTableTests.decodedFrames(path)
        return (path, probed, md5s)
    }

    @Test(
        "The cover is listed as an attached picture and the audio is selected; seeks land on ffprobe's frames with framemd5's samples",
        arguments: [0, 1, 2])
    func audioIsSeekedNotTheCover(_ encode: Int) throws {
        let (name, encoding) = Self.encodes[encode]
        let directory = try temporaryDirectory("cover-art")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, probed, md5s) = try Self.encodeWithCover(name, encoding, in: directory)
        try #require(probed.count > 50 && md5s.count == probed.count, "\(name): \(probed.count) frames, \(md5s.count) MD5s")

        let engine = try FFmpegEngine(path: path)
        let media = engine.media
        try #require(media.streams.count == 2, "\(name)")
        #expect(media.selectedStreamIndex == 0, "\(name): the audio, not the cover, is selected")
        #expect(media.streams[1].mediaType == .video && media.streams[1].isAttachedPicture, "\(name)")
        #expect(!media.streams[0].isAttachedPicture, "\(name)")
        let times = engine.frameTable.frames.map(\.time)
        try #require(times.count == probed.count, "\(name)")
        let count = probed.count
        for k in [count / 2, 0, count / 3, 1, count * 2 / 3, count - 1] {
            let landing = try engine.seek(to: times[k], precision: .exact)
            #expect(landing.frame.pts == probed[k], "\(name): frame \(k)")
            #expect(try engine.landedAudio()?.md5 == md5s[k], "\(name): frame \(k)")
        }
    }

    @Test("Naming the cover with a stream index is refused in one line that names the audio stream")
    func coverStreamRefused() throws {
        let directory = try temporaryDirectory("cover-art")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, _, _) = try Self.encodeWithCover("cover.flac", ["-c:a", "flac"], in: directory)
        let error = try #require(throws: MediaError.self) { try FFmpegEngine(path: path, options: .init(streamIndex: 1)) }
        #expect(error.reason == .streamUnavailable)
        #expect(error.cause.contains("stream 1 is an attached picture (cover art)"), "\(error.cause)")
        #expect(error.cause.contains("the audio is stream 0"), "\(error.cause)")
        #expect(!error.cause.contains("\n"))
    }
}
