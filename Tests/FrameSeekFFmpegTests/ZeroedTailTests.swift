// A file whose packet payloads are zeroed from one frame on: the decoder takes those packets and
// gives nothing back, so a frame there never comes out however far a run reads. A seek to it
// must give up after the next keyframe and its reordering, not read to the end of the file on
// every retry; the frames held back before the damage still land with ffmpeg's pixels. The
// truth is ffprobe's packet list (where each packet lies, to zero it and to bound the reads)
// and ffmpeg's framemd5 of the zeroed file.

import Foundation
import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("A tail of packets that decode to nothing", .ffmpegLog)
struct ZeroedTailTests {
    /// A packet as ffprobe lists it, in decode order.
    struct Packet {
        let pts: Int64
        let position: Int
        let size: Int
        let isKeyframe: Bool
    }

    /// 2,000 frames of 320x240 in GOPs of 50 with B-frames, the payloads of packets from
    /// decode order `firstZeroed` on set to zero; with ffprobe's packets of the clean file.
    static func zeroedClip(from firstZeroed: Int, in directory: TemporaryDirectory) throws -> (path: String, packets: [Packet]) {
        let path = directory.file("zeroed.mp4")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=80",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-bf", "2", "-b:v", "2M", "-pix_fmt", "yuv420p", path
        ])
        let packets = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,pos,size,flags", "-of", "csv=p=0", path
        ]).split(whereSeparator: \.isNewline).compactMap { line -> Packet? in
            let fields = line.split(separator: ",")
            guard fields.count >= 4, let pts = Int64(fields[0]), let size = Int(fields[1]), let position = Int(fields[2]) else {
                return nil
            }
            return Packet(pts: pts, position: position, size: size, isKeyframe: fields[3].hasPrefix("K"))
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for packet in packets[firstZeroed...] {
            for offset in packet.position..<(packet.position + packet.size) { bytes[offset] = 0 }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, packets)
    }

    /// ffmpeg's decode of `path`: each frame it gives, by PTS in the stream's time base (the
    /// decode errors of the zeroed packets allowed, which ffmpeg otherwise ends on).
    static func decodedMD5s(_ path: String) throws -> [Int64: String] {
        let lines = try runTool([
            "ffmpeg", "-nostdin", "-v", "quiet", "-threads", "1", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
            "-enc_time_base:v", "-1", "-max_error_rate", "1", "-f", "framemd5", "-"
        ]).split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
        var md5s: [Int64: String] = [:]
        for line in lines {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.count == 6, let pts = Int64(fields[2]) { md5s[pts] = fields[5] }
        }
        return md5s
    }

    @Test("A seek to a frame that never comes out reads a GOP and its reordering per try, not the file; the frames before it land")
    func givesUpPastTheNextKeyframe() throws {
        let directory = try TemporaryDirectory()
        let firstZeroed = 301
        let (path, packets) = try Self.zeroedClip(from: firstZeroed, in: directory)
        let decoded = try Self.decodedMD5s(path)
        let engine = try FFmpegEngine(path: path, options: .init(threads: 1))
        let frames = engine.frameTable.frames
        try #require(frames.count == packets.count, "\(frames.count) frames, ffprobe lists \(packets.count) packets")
        let missing = try #require(frames.firstIndex { decoded[$0.pts] == nil }, "ffmpeg decodes every frame")

        // What one try may read: up to the keyframe after the target, its reordering and the
        // decoder's thread, then the reader's buffer; the retries go back at most to the start.
        let targetOrder = try #require(packets.firstIndex { $0.pts == frames[missing].pts })
        let nextKeyframe = try #require(packets.indices.first { $0 > targetOrder && packets[$0].isKeyframe })
        let lastRead = packets[nextKeyframe + LandingExecutor.reorderSlack + 2]
        let tries = LandingExecutor.seekRetries + 2
        let bound = tries * (lastRead.position + lastRead.size + (256 << 10))
        let fileSize = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try #require(bound < fileSize, "the bound \(bound) is not below the file's \(fileSize) bytes")

        let before = engine.demuxerReads.bytes
        #expect(throws: MediaError.self) { try engine.seek(to: frames[missing].time, precision: .exact) }
        let read = Int(engine.demuxerReads.bytes - before)
        #expect(read <= bound, "the seek to frame \(missing) read \(read) bytes, over \(bound); the file has \(fileSize)")

        // The frames just before it come out only when the decoder is drained: they land with
        // ffmpeg's pixels.
        for index in (missing - 4)..<missing {
            let landing = try engine.seek(to: frames[index].time, precision: .exact)
            #expect(landing.frame.index == index)
            #expect(try engine.landedPicture()?.md5 == decoded[frames[index].pts], "frame \(index)")
        }
        // A frame of the same GOP was passed and is known at once; one in a later GOP was not
        // read, and is found by a decode of its own.
        func cause(_ index: Int) -> String {
            do {
                _ = try engine.seek(to: frames[index].time, precision: .exact)
                return "landed"
            } catch {
                return error.cause
            }
        }
        let sameGOP = try #require((missing + 1..<frames.count).first { decoded[frames[$0].pts] == nil && $0 < nextKeyframe })
        #expect(cause(sameGOP).contains("found by an earlier attempt"), "frame \(sameGOP): \(cause(sameGOP))")
        let laterGOP = missing + 200
        #expect(!cause(laterGOP).contains("found by an earlier attempt"), "frame \(laterGOP) was marked without being read")
    }
}
