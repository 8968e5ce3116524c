// A container that calls a picture a keyframe when it is not one. FFmpeg's HEVC decoder, started
// there, invents the references it lacks without an error or a frame flag, so every picture from
// that start is wrong. The truth is FFmpeg's own decode of the same file from its start
// (`ffmpeg -f framemd5`), which never starts at the false keyframe.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Keyframes the container lists and the decoder does not", .ffmpegLog)
struct KeyframeLieTests {
    /// `hevc_pq_hdr10.mp4` with its first sync sample (`stss` entry 0) moved from sample 1, the
    /// IDR, to sample 3, a picture that references others.
    static func falseKeyframeMP4(in directory: TemporaryDirectory) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Repository.fixture("media/hevc_pq_hdr10.mp4")))
        let box = try #require(bytes.firstRange(of: Data("stss".utf8)), "no stss box")
        // type, version and flags, entry count, then the first entry.
        let entry = box.upperBound + 8
        #expect(bytes[entry..<(entry + 4)] == Data([0, 0, 0, 1]), "the first sync sample is sample 1")
        bytes[entry + 3] = 3
        let path = directory.file("false-keyframe.mp4")
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("Every exact landing on an HEVC MP4 whose first listed keyframe is not one is flagged damaged, fails, or is FFmpeg's picture")
    func hevcFalseKeyframe() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.falseKeyframeMP4(in: directory)
        var ffmpeg: [Int64: String] = [:]
        for line in try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
            "-enc_time_base:v", "-1", "-f", "framemd5", "-"
        ]).split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.count == 6, let pts = Int64(fields[2]) { ffmpeg[pts] = fields[5] }
        }
        let engine = try FFmpegEngine(path: path, options: .init(threads: 1))
        var flagged = 0
        for frame in engine.frameTable.frames {
            do {
                let landing = try engine.seek(to: frame.time, precision: .exact)
                let md5 = try engine.landedPicture()?.md5
                if landing.damaged {
                    flagged += 1
                } else {
                    #expect(
                        md5 == ffmpeg[frame.pts], "frame \(frame.index) (pts \(frame.pts)) unflagged with another picture than FFmpeg's")
                }
            } catch {
                // Said, not silent: a frame the decoder does not produce from the false start.
                #expect(error.reason == .decodeFailed, "frame \(frame.index): \(error)")
                flagged += 1
            }
        }
        // The file is what the test is about: decoding from the false keyframe goes wrong.
        #expect(flagged > 0)
    }

    @Test("The same seeks on the fixture itself are clean and FFmpeg's pictures")
    func hevcTrueKeyframes() throws {
        let path = Repository.fixture("media/hevc_pq_hdr10.mp4")
        let ffmpeg = try framemd5ByPTS("oracle/hevc_pq_hdr10.mp4.s0.framemd5")
        let engine = try FFmpegEngine(path: path, options: .init(threads: 1))
        for frame in engine.frameTable.frames {
            let landing = try engine.seek(to: frame.time, precision: .exact)
            #expect(!landing.damaged, "frame \(frame.index)")
            #expect(try engine.landedPicture()?.md5 == ffmpeg[frame.pts], "frame \(frame.index)")
        }
    }
}
