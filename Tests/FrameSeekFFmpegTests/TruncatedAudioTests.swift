// Audio files cut short inside a frame: FFmpeg's ADTS and FLAC parsers hand out what is left of
// the last frame as a packet with a whole frame's duration, which the decoder rejects. The
// truth is FFmpeg's decode of the cut file (ffprobe's decoded frames, `ffmpeg -f framemd5`):
// the table holds its frames and no more, the media says it is truncated, and a seek at or
// past the readable end clamps to its last frame; with the whole table and as needed (the
// stream's prefix), from a local file and over HTTP.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Audio files cut inside their last frame", .ffmpegLog)
struct TruncatedAudioTests {
    /// ADTS AAC, and FLAC with frames of 1152 samples at 8 kHz (those of the sweep's file). The
    /// AAC is long enough that its cut copy is over a mebibyte, past which the scan keeps its
    /// packets only near the end (`AudioStreamTail.bytesBeforeEnd`).
    static let encodes: [(name: String, options: [String], sampleRate: Int, seconds: Double)] = [
        ("adts.aac", ["-c:a", "aac", "-b:a", "128k"], 44100, 150),
        ("fs1152.flac", ["-c:a", "flac", "-frame_size", "1152"], 8000, 20)
    ]

    /// How the engine reads the stream, and from where.
    enum Reading: CaseIterable, CustomStringConvertible {
        case wholeTable, asNeeded, wholeTableOverHTTP, asNeededOverHTTP

        var indexing: FrameIndexing { self == .asNeeded || self == .asNeededOverHTTP ? .asNeeded : .full }
        var overHTTP: Bool { self == .wholeTableOverHTTP || self == .asNeededOverHTTP }
        var description: String { "\(indexing == .full ? "whole table" : "as needed")\(overHTTP ? " over HTTP" : "")" }
    }

    @Test(
        "A seek at or past the readable end clamps to ffprobe's last frame with framemd5's samples, and the file is called truncated",
        arguments: 0..<2, Reading.allCases)
    func seekPastTheCut(_ encode: Int, _ reading: Reading) throws {
        let (name, encoding, sampleRate, seconds) = Self.encodes[encode]
        let directory = try temporaryDirectory("truncated-audio")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try AudioPacketTableTests.encodeMinute(
            "whole-\(name)", encoding, sampleRate: sampleRate, seconds: seconds, in: directory)
        let cut = try Self.cutInsideFrame(whole.path, to: name, in: directory)
        let (probed, md5s) = try AudioPacketTableTests.decodedFrames(cut.path)
        // The cut leaves a packet the decoder makes nothing of: ffprobe lists one frame fewer.
        try #require(probed.count > 60 && md5s.count == probed.count, "\(name): \(probed.count) frames, \(md5s.count) MD5s")
        try #require(cut.packetPTS.count == probed.count + 1 && cut.packetPTS.last! > probed.last!, "\(name)")
        let last = probed.count - 1

        let server = reading.overHTTP ? try HTTPServer(directory: directory.path, byteRanges: true) : nil
        defer { server?.stop() }
        let source = server.map { "http://127.0.0.1:\($0.port)/\(name)" } ?? cut.path
        var options = FFmpegEngine.Options(streamIndex: 0)
        options.indexing = reading.indexing
        let engine = try FFmpegEngine(path: source, options: options)
        if reading.indexing == .full {
            let listed = engine.frameTable.frames.map(\.pts)
            let isProbed = listed == probed  // compared apart: a failure would print both lists
            #expect(
                isProbed,
                "\(name), \(reading): \(listed.count) frames to \(listed.last ?? -1), ffprobe's \(probed.count) to \(probed[last])")
            #expect(engine.media.truncation != nil, "\(name), \(reading): the open calls the file truncated")
        }

        // Inside the phantom packet's span, at the readable end, and far past it. (As needed,
        // nothing asks for the whole table before the seeks: they read the stream's prefix.)
        try #require(probed.first == 0, "\(name): the stream starts at 0")
        let timeBase = engine.media.selectedStream.timeBase
        let phantom = timeBase.time(ofTicks: cut.packetPTS.last!)
        let targets = [phantom, phantom + MediaTime(value: 1, timescale: 1000), MediaTime(value: 1000, timescale: 1)]
        for target in targets {
            let landing = try engine.seek(to: target, precision: .exact)
            #expect(landing.frame.pts == probed[last], "\(name), \(reading), \(target.seconds) s: ffprobe's last frame")
            #expect(!landing.isIndexed || landing.frame.index == last, "\(name), \(reading), \(target.seconds) s")
            #expect(landing.plan.clamp.name == "end", "\(name), \(reading), \(target.seconds) s: \(landing.plan.clamp)")
            let truncation = try #require(engine.media.truncation, "\(name), \(reading): the file is called truncated")
            #expect(
                landing.plan.clamp.explanation(truncation: truncation).contains("truncated"), "\(name), \(reading): \(truncation)")
            #expect(try engine.landedAudio()?.md5 == md5s[last], "\(name), \(reading), \(target.seconds) s: framemd5's samples")
        }
        let truncation = try #require(engine.media.truncation)
        #expect(truncation.readableEnd == phantom, "\(name), \(reading): \(truncation) (the last frame ends at \(phantom.seconds) s)")
        #expect(engine.indexesWholeStream, "\(name), \(reading): a seek at the end read the whole stream")
        let listed = engine.frameTable.frames.map(\.pts)
        let isProbed = listed == probed
        #expect(
            isProbed, "\(name), \(reading): \(listed.count) frames to \(listed.last ?? -1), ffprobe's \(probed.count) to \(probed[last])")
    }

    /// `path` cut at its stream's packet 55 % of the way in, halfway through the packet's bytes,
    /// written as `directory`/`name`: its path and its packets' PTS as ffprobe lists them.
    static func cutInsideFrame(_ path: String, to name: String, in directory: URL) throws -> (path: String, packetPTS: [Int64]) {
        let packets = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pos,size", "-of", "csv=p=0", path
        ]).split(whereSeparator: \.isNewline).map { $0.split(separator: ",").compactMap { Int($0) } }
        // ffprobe writes a packet's fields in its own order: size, then position.
        let middle = try #require(packets.dropFirst(packets.count * 55 / 100).first, "\(path): \(packets.count) packets")
        try #require(middle.count == 2 && middle[0] > 16, "\(path): \(middle)")
        let (size, position) = (middle[0], middle[1])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = directory.appendingPathComponent(name)
        try bytes.prefix(position + size / 2).write(to: cut)
        let packetPTS = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts", "-of", "csv=p=0", cut.path
        ]).split(whereSeparator: \.isNewline).compactMap { Int64($0) }
        return (cut.path, packetPTS)
    }
}
