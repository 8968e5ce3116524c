// An HEVC transport stream with B-frames cut inside its last packet. The decoder opened to
// explode on damage fails that packet, and with it drops the frame the packet's start pushed
// out of the reorder buffer; FFmpeg's own decode (`ffmpeg -i`, which does not explode) hands
// that frame out. A seek to it must land with ffmpeg's pixels, not call it undecodable, and a
// step forward over the last frames must land on each. The truth is ffprobe's packet list
// (where to cut) and ffmpeg's framemd5 of the cut file.

import Foundation
import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("An HEVC stream cut inside its last packet", .ffmpegLog)
struct CutLastPacketTests {
    /// A clip cut inside one of its packets, and what ffmpeg makes of it.
    struct CutClip {
        let path: String
        /// The PTS of the packet cut inside: its picture is decoded in part, the rest of it
        /// whatever the decoder's buffer held (so no MD5 is truth for it).
        let cutPTS: Int64
        /// ffmpeg's decode at one thread, by PTS.
        let decoded: [Int64: String]
        /// Frames of other packets that ffmpeg's decode gives and a decoder asked to explode
        /// does not.
        let lostByExploding: Set<Int64>
    }

    /// Four seconds of 320x180 HEVC with open GOPs and pyramids of four B-frames in MPEG-TS, cut
    /// one transport packet and 39 bytes into one of its last packets (in decode order), as a
    /// copy cut short is: the last packet where that cut makes a decoder asked to explode lose a
    /// whole frame, another than the cut one, that ffmpeg's own decode gives.
    static func cutClip(in directory: TemporaryDirectory) throws -> CutClip {
        let whole = directory.file("whole.ts")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=4,noise=alls=8:allf=t",
            "-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
            "log-level=error:keyint=48:min-keyint=12:open-gop=1:bframes=4:b-pyramid=1", "-pix_fmt", "yuv420p", "-f", "mpegts",
            whole
        ])
        let packets = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,size,pos", "-of", "csv=p=0", whole
        ]).split(whereSeparator: \.isNewline).compactMap { line -> (pts: Int64, size: Int, position: Int)? in
            let fields = line.split(separator: ",")
            guard fields.count >= 3, let pts = Int64(fields[0]), let size = Int(fields[1]), let position = Int(fields[2]) else {
                return nil
            }
            return (pts, size, position)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cutInside = 188 + 39
        let path = directory.file("cut.ts")
        for packet in packets.suffix(12).reversed() where packet.size > cutInside + 188 {
            try bytes.prefix(packet.position + cutInside).write(to: URL(fileURLWithPath: path))
            let decoded = try decodedMD5s(path)
            var lost = Set(decoded.keys).subtracting(try decodedMD5s(path, exploding: true).keys)
            lost.remove(packet.pts)
            if !lost.isEmpty { return CutClip(path: path, cutPTS: packet.pts, decoded: decoded, lostByExploding: lost) }
        }
        throw OracleError("no cut in the last packets makes a decoder asked to explode lose a whole frame")
    }

    /// ffmpeg's decode of `path` at one thread, each frame by its raw PTS in the stream's time
    /// base (`-copyts`: the transport stream starts past zero), the cut packet's decode error
    /// allowed; with `exploding`, asked to explode on damage as FrameSeek opens HEVC decoders.
    static func decodedMD5s(_ path: String, exploding: Bool = false) throws -> [Int64: String] {
        let explode = exploding ? ["-err_detect", "explode"] : []
        let lines = try runTool(
            ["ffmpeg", "-nostdin", "-v", "quiet", "-threads", "1"] + explode + [
                "-copyts", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough", "-enc_time_base:v", "-1", "-f", "framemd5", "-"
            ], requiringSuccess: false
        ).split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
        var md5s: [Int64: String] = [:]
        for line in lines {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.count == 6, let pts = Int64(fields[2]) { md5s[pts] = fields[5] }
        }
        return md5s
    }

    @Test("The frames ffmpeg decodes before a cut last packet land with its pixels, by seek and by step")
    func landsTheFramesBeforeTheCut() throws {
        let directory = try TemporaryDirectory()
        try Self.landsTheLastFrames(of: try Self.cutClip(in: directory), threads: 1)
    }

    /// With frame threads the decoder's explode setting is copied into its threads when it
    /// opens, so a setting changed later does not reach the decode: the last resort decodes
    /// with a decoder opened without it, or the frame exploding loses stays lost. The cut
    /// packet's error comes back from telling the decoder the stream ended, too, which once
    /// failed the landing of every frame decoded through the end ("decoding failed:
    /// avcodec_send_packet").
    @Test("With two frame threads the frames before a cut last packet land with ffmpeg's pixels, by seek and by step")
    func frameThreadsLandTheFramesBeforeTheCut() throws {
        let directory = try TemporaryDirectory()
        try Self.landsTheLastFrames(of: try Self.cutClip(in: directory), threads: 2)
    }

    /// The decoder that decodes through damage is the last resort's alone: no landing goes on
    /// from where it stands, and a landing after it explodes again, so the frame exploding loses
    /// needs the last resort again (a decoder left tolerant would land it from its keyframe,
    /// with the one seek there).
    @Test("A landing after the last resort explodes on damage again", arguments: [1, 2])
    func landingAfterTheLastResortExplodes(threads: Int) throws {
        let directory = try TemporaryDirectory()
        let clip = try Self.cutClip(in: directory)
        let engine = try FFmpegEngine(path: clip.path, options: .init(threads: threads, cacheBytes: 0))
        let frames = engine.frameTable.frames
        let lost = try #require(frames.firstIndex { clip.lostByExploding.contains($0.pts) })
        for attempt in 1...2 {
            let landing = try engine.seek(to: frames[lost].time, precision: .exact)
            #expect(landing.frame.index == lost && landing.demuxerSeeks > 1, "landing \(attempt): \(landing.demuxerSeeks) seeks")
            #expect(landing.decodeErrors > 0, "landing \(attempt) decoded through damage")
            #expect(try engine.landedPicture()?.md5 == clip.decoded[frames[lost].pts], "landing \(attempt)")
            #expect(
                engine.pool.slots.allSatisfy { !$0.decoder.toleratesDamage || $0.position == nil },
                "landing \(attempt): a decoder that tolerates damage stands where it landed")
        }
        _ = try engine.seek(to: frames[0].time, precision: .exact)
        #expect(engine.pool.active.decoder.explodesOnDamage)
    }

    /// Seeks to each of the last 8 frames ffmpeg decodes from `clip`, then steps forward over
    /// them with a fresh engine, decoding with `threads` threads: each lands, with ffmpeg's
    /// pixels except the cut frame.
    static func landsTheLastFrames(of clip: CutClip, threads: Int) throws {
        let engine = try FFmpegEngine(path: clip.path, options: .init(threads: threads))
        let frames = engine.frameTable.frames
        let lastFrames = Array(frames.indices.suffix(8).filter { clip.decoded[frames[$0].pts] != nil })
        try #require(
            clip.lostByExploding.allSatisfy { pts in lastFrames.contains { frames[$0].pts == pts } },
            "lost \(clip.lostByExploding), not among the last frames")
        /// ffmpeg's MD5 of frame `index`, except the cut one's (see `CutClip.cutPTS`).
        func truth(_ index: Int) -> String? { frames[index].pts == clip.cutPTS ? nil : clip.decoded[frames[index].pts] }

        for index in lastFrames {
            let landing: SeekLanding
            do {
                landing = try engine.seek(to: frames[index].time, precision: .exact)
            } catch {
                Issue.record("frame \(index) (pts \(frames[index].pts)): \(error.cause)")
                continue
            }
            #expect(landing.frame.index == index)
            if let md5 = truth(index) { #expect(try engine.landedPicture()?.md5 == md5, "frame \(index)") }
        }

        // A fresh engine steps forward over the same frames from the first of them.
        let stepper = try FFmpegEngine(path: clip.path, options: .init(threads: threads))
        let first = try #require(lastFrames.first)
        _ = try stepper.seek(to: frames[first].time, precision: .exact)
        for index in lastFrames.dropFirst() {
            let report = stepper.step(.forward, count: 1)
            #expect(report.frame?.index == index && report.framesStepped == 1, "step to frame \(index): \(report)")
            if let md5 = truth(index) { #expect(try stepper.landedPicture()?.md5 == md5, "step to frame \(index)") }
        }
    }
}
