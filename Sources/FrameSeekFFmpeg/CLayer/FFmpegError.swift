import CFFmpeg

/// A negative return code from an FFmpeg function, with the function's name.
///
/// The message comes from `av_strerror`; `code` is FFmpeg's own value (`AVERROR(ENOENT)`,
/// `AVERROR_INVALIDDATA`, ...), kept so callers can tell causes apart.
struct FFmpegError: Error, Sendable, CustomStringConvertible {
    /// The FFmpeg function that failed, such as `avformat_open_input`.
    let function: String
    /// The negative code it returned.
    let code: Int32

    /// `av_strerror`'s text for the code.
    var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    var description: String { "\(function): \(message)" }

    /// True for `AVERROR(ENOENT)`.
    var isFileNotFound: Bool { code == fs_averror(ENOENT) }
    /// True for `AVERROR_EOF`.
    var isEndOfFile: Bool { code == fs_averror_eof() }
}

/// Throws an `FFmpegError` for a negative return code and passes others through.
@discardableResult
func check(_ code: Int32, _ function: String) throws(FFmpegError) -> Int32 {
    if code < 0 { throw FFmpegError(function: function, code: code) }
    return code
}

extension AVRational {
    /// This rational as FrameSeek's time base.
    var timeBase: TimeBase { TimeBase(numerator: num, denominator: den) }
}

import FrameSeekCore
