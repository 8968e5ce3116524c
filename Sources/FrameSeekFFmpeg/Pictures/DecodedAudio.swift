internal import CFFmpeg
import FrameSeekCore

/// A decoded audio frame as `ffmpeg -f framemd5` hashes it: converted by libswresample to
/// packed signed 16-bit samples (`pcm_s16le`, framemd5's default audio encoding), channels
/// interleaved, at the frame's own sample rate and channel layout.
///
/// The decoder's own format (planar float for AAC and Opus) is not what anyone compares
/// against: ffmpeg's framemd5 converts every audio frame to s16 first, so this does too.
public struct DecodedAudio: Sendable, Hashable {
    /// Samples per second.
    public let sampleRate: Int
    /// Channels, interleaved in `bytes`.
    public let channels: Int
    /// Samples per channel.
    public let sampleCount: Int
    /// The frame's raw PTS.
    public let pts: Int64
    /// Signed 16-bit samples in native byte order (little-endian on every platform FrameSeek
    /// builds for), channels interleaved.
    public let bytes: [UInt8]

    /// The MD5 of `bytes` in lowercase hex, with libavutil's `av_md5_sum`: the value
    /// `ffmpeg -i F -map 0:a:0 -f framemd5 -` prints for this frame.
    public var md5: String { MD5Digest.hex(of: bytes) }
}

extension DecodedAudio {
    /// Converts `frame` with `swr_convert_frame`, which configures the converter from the
    /// two frames' formats, so no resampling happens: only the sample format changes.
    ///
    /// - Throws: `FFmpegError` from `swr_alloc`, `av_channel_layout_copy` or
    ///   `swr_convert_frame` (an unsupported layout, out of memory).
    init(frame: Frame) throws(FFmpegError) {
        let input = frame.pointer
        var converter: OpaquePointer? = swr_alloc()
        guard converter != nil else { throw FFmpegError(function: "swr_alloc", code: fs_averror(ENOMEM)) }
        defer { swr_free(&converter) }
        let output = Frame()
        output.pointer.pointee.format = AV_SAMPLE_FMT_S16.rawValue
        output.pointer.pointee.sample_rate = input.pointee.sample_rate
        try check(av_channel_layout_copy(&output.pointer.pointee.ch_layout, &input.pointee.ch_layout), "av_channel_layout_copy")
        try check(swr_convert_frame(converter, output.pointer, input), "swr_convert_frame")
        let channels = Int(output.pointer.pointee.ch_layout.nb_channels)
        let samples = Int(output.pointer.pointee.nb_samples)
        let count = samples * channels * 2
        var bytes = [UInt8](repeating: 0, count: count)
        if count > 0, let data = output.pointer.pointee.data.0 {
            bytes.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: data, count: count) }
        }
        self.init(sampleRate: Int(input.pointee.sample_rate), channels: channels, sampleCount: samples,
                  pts: frame.pts ?? 0, bytes: bytes)
    }
}

extension FFmpegEngine {
    /// The audio frame the last seek landed on, as `ffmpeg -f framemd5` decodes and converts
    /// it. Nil for video streams or before any landing.
    ///
    /// Audio decoders carry state from frame to frame (AAC's overlapped transform, MP3's bit
    /// reservoir, the priming samples an edit list discards at the start), so the samples a
    /// decoder produces right after a seek differ from those of FFmpeg's decode from the
    /// start, by a few units in the last bit or entirely. The landing itself is right; its
    /// samples are not the reference. So the frame is decoded again, by a demuxer and decoder
    /// of its own, from the start of the stream, every packet sent as ffmpeg sends it: the
    /// cost is one audio decode up to the frame, and the engine's own state is untouched.
    ///
    /// - Throws: `MediaError` naming the file when the reference decode cannot reach the
    ///   frame or libswresample cannot convert it.
    public func landedAudio() throws(MediaError) -> DecodedAudio? {
        guard let index = landedFrameIndex, media.selectedStream.mediaType == .audio else { return nil }
        let target = frameTable.frames[index].pts
        do {
            guard let audio = try referenceDecode(streamIndex: media.selectedStreamIndex, pts: target) else {
                throw MediaError(path: path, reason: .decodeFailed,
                                 detail: "audio frame \(index) (pts \(target)) not found decoding from the start")
            }
            return audio
        } catch let error as FFmpegError {
            throw MediaError(path: path, reason: .conversionFailed,
                             detail: "cannot decode audio frame \(index) as 16-bit samples: \(error.description)")
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(path: path, reason: .decodeFailed, detail: "\(error)")
        }
    }

    /// Decodes `streamIndex` from the start with a demuxer and decoder of its own until the
    /// frame whose PTS is `pts`, and converts it. Decoding errors are passed over, as the
    /// ffmpeg command passes them over.
    private func referenceDecode(streamIndex: Int, pts: Int64) throws -> DecodedAudio? {
        // The same bytes the engine reads: its file, or the media it was opened on in memory.
        let demuxer = try Demuxer(path: path, log: log, memory: self.demuxer.memory)
        demuxer.selectOnly(streamIndex: streamIndex)
        let decoder = try Decoder(stream: demuxer.stream(streamIndex), threads: 1, log: log)
        let packet = Packet(), frame = Frame()
        func drain() throws -> DecodedAudio? {
            while true {
                guard case .frame = (try? decoder.receive(into: frame)) ?? .needsInput else { return nil }
                defer { frame.unref() }
                if frame.pts == pts { return try DecodedAudio(frame: frame) }
            }
        }
        while try demuxer.read(into: packet) {
            defer { packet.unref() }
            guard packet.streamIndex == streamIndex else { continue }
            try? decoder.send(packet)
            if let found = try drain() { return found }
        }
        try? decoder.sendEndOfStream()
        return try drain()
    }
}
