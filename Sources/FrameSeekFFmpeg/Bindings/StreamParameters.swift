internal import CFFmpeg
import FrameSeekCore

/// A probed stream's codec parameters and time base, copied out of its demuxer: what a decoder
/// opens from (`Decoder(parameters:threads:log:)`). An engine opened from another's index
/// (`EngineBlueprint`) takes these instead of probing the file again, which decodes frames
/// (`avformat_find_stream_info`): a whole keyframe, on a 4K clip tens of milliseconds.
final class StreamParameters: @unchecked Sendable {
    // Safe because: `codecParameters` is written only here in `init` (a deep copy, owned by
    // this object alone) and only read after, so threads that share the object only read it;
    // it is freed in `deinit`, when no thread holds the object any more.
    let codecParameters: UnsafeMutablePointer<AVCodecParameters>
    let timeBase: AVRational

    /// Copies `stream`'s parameters (`avcodec_parameters_copy`, extradata included).
    ///
    /// - Throws: `FFmpegError` from `avcodec_parameters_alloc` or `avcodec_parameters_copy`.
    init(copying stream: Demuxer.Stream) throws(FFmpegError) {
        guard let copy = avcodec_parameters_alloc() else {
            throw FFmpegError(function: "avcodec_parameters_alloc", code: fs_averror(ENOMEM))
        }
        let code = avcodec_parameters_copy(copy, stream.pointer.pointee.codecpar)
        guard code >= 0 else {
            var toFree: UnsafeMutablePointer<AVCodecParameters>? = copy
            avcodec_parameters_free(&toFree)
            throw FFmpegError(function: "avcodec_parameters_copy", code: code)
        }
        codecParameters = copy
        timeBase = stream.pointer.pointee.time_base
    }

    deinit {
        var toFree: UnsafeMutablePointer<AVCodecParameters>? = codecParameters
        avcodec_parameters_free(&toFree)
    }
}
