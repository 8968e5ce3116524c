internal import CFFmpeg

/// An owned libswresample context (`SwrContext`, `swr_alloc` / `swr_free`) that converts audio
/// frames to packed signed 16-bit samples at their own rate and channel layout.
/// `swr_convert_frame` configures it from the two frames' formats, so no resampling happens:
/// only the sample format changes.
///
/// Not Sendable: it converts on one thread.
final class SampleConverter {
    private var context: OpaquePointer?

    /// - Throws: `FFmpegError` with `AVERROR(ENOMEM)` from `swr_alloc`.
    init() throws(FFmpegError) {
        context = swr_alloc()
        guard context != nil else { throw FFmpegError(function: "swr_alloc", code: fs_averror(ENOMEM)) }
    }

    deinit { swr_free(&context) }

    /// `frame`'s samples as packed signed 16-bit in native byte order, channels interleaved.
    ///
    /// - Throws: `FFmpegError` from `av_channel_layout_copy` or `swr_convert_frame` (an
    ///   unsupported layout, out of memory).
    func packedS16(_ frame: Frame) throws(FFmpegError) -> (channels: Int, samplesPerChannel: Int, bytes: [UInt8]) {
        let input = frame.pointer
        let output = Frame()
        output.pointer.pointee.format = AV_SAMPLE_FMT_S16.rawValue
        output.pointer.pointee.sample_rate = input.pointee.sample_rate
        try check(av_channel_layout_copy(&output.pointer.pointee.ch_layout, &input.pointee.ch_layout), "av_channel_layout_copy")
        try check(swr_convert_frame(context, output.pointer, input), "swr_convert_frame")
        let channels = Int(output.pointer.pointee.ch_layout.nb_channels)
        let samples = Int(output.pointer.pointee.nb_samples)
        let count = samples * channels * 2
        var bytes = [UInt8](repeating: 0, count: count)
        if count > 0, let data = output.pointer.pointee.data.0 {
            bytes.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: data, count: count) }
        }
        return (channels, samples, bytes)
    }
}
