internal import CFFmpeg
import FrameSeekCore

/// A failure reported by an FFmpeg C function: its name and the negative code it returned.
///
/// Every throwing function of the C layer documents which C function its `FFmpegError` comes
/// from (`Demuxer.read` → `av_read_frame`, `Frame.reference` → `av_frame_ref`, ...), and
/// `function` names it at run time. Functions that signal failure without a code (a NULL
/// `SwsContext`, an `AVFrame` that cannot be allocated) get the `AVERROR` that describes the cause
/// (`AVERROR(ENOMEM)`, `AVERROR(EINVAL)`, `AVERROR_EXTERNAL`). The engine turns these into
/// `MediaError`s, which name the file.
struct FFmpegError: Error, Sendable, CustomStringConvertible {
    /// The FFmpeg function that failed, such as `avformat_open_input`.
    let function: String
    /// The negative code it returned (`AVERROR(ENOENT)`, `AVERROR_INVALIDDATA`, ...), kept so
    /// callers can tell causes apart.
    let code: Int32

    /// `av_strerror`'s text for the code.
    var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "error code \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `function: message`.
    var description: String { "\(function): \(message)" }

    /// True for `AVERROR(ENOENT)`.
    var isFileNotFound: Bool { code == fs_averror(ENOENT) }
}

/// Throws an `FFmpegError` naming `function` for a negative return code, and passes others
/// through.
@discardableResult
func check(_ code: Int32, _ function: String) throws(FFmpegError) -> Int32 {
    if code < 0 { throw FFmpegError(function: function, code: code) }
    return code
}

extension AVRational {
    /// This rational as FrameSeek's time base.
    var timeBase: TimeBase { TimeBase(numerator: num, denominator: den) }
}
