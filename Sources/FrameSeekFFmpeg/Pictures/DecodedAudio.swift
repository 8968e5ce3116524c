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
    /// Converts `frame` with a `SampleConverter` of its own.
    ///
    /// - Throws: `FFmpegError` from `swr_alloc`, `av_channel_layout_copy` or
    ///   `swr_convert_frame` (an unsupported layout, out of memory).
    init(frame: Frame) throws(FFmpegError) {
        let (channels, samples, bytes) = try SampleConverter().packedS16(frame)
        self.init(sampleRate: Int(frame.sampleRate), channels: channels, sampleCount: samples, pts: frame.pts ?? 0, bytes: bytes)
    }
}
