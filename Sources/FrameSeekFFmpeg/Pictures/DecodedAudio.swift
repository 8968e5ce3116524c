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
        self.init(
            sampleRate: Int(input.pointee.sample_rate), channels: channels, sampleCount: samples,
            pts: frame.pts ?? 0, bytes: bytes)
    }
}
