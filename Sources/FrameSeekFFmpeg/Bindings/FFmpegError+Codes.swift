internal import CFFmpeg
import Glibc

extension FFmpegError {
    /// FFmpeg's error codes by name, so code outside the bindings tells causes apart without
    /// importing the C module. Most are macros (`FFERRTAG`, `AVERROR(e)`) Swift cannot import;
    /// the shim's `fs_averror_` functions expand them.
    enum Code {
        /// `AVERROR(e)`: FFmpeg's negative code for a POSIX errno value.
        static func posix(_ errnum: Int32) -> Int32 { fs_averror(errnum) }
        /// `AVERROR(ENOMEM)`.
        static var outOfMemory: Int32 { fs_averror(ENOMEM) }
        /// `AVERROR_EOF`: end of file or a fully drained decoder.
        static var endOfFile: Int32 { fs_averror_eof() }
        /// `AVERROR_INVALIDDATA`: the input is not what the demuxer or decoder expects.
        static var invalidData: Int32 { fs_averror_invaliddata() }
        /// `AVERROR_EXIT`: what an operation the interrupt callback ended returns.
        static var exit: Int32 { fs_averror_exit() }
        /// `AVERROR_EXTERNAL`: a library below FFmpeg failed without an errno.
        static var external: Int32 { fs_averror_external() }
        /// `AVERROR_FILTER_NOT_FOUND`.
        static var filterNotFound: Int32 { fs_averror_filter_not_found() }
        /// `AVERROR_HTTP_SERVER_ERROR`: any 5xx status.
        static var httpServerError: Int32 { fs_averror_http_server_error() }
        /// `AVERROR_HTTP_NOT_FOUND`: 404.
        static var httpNotFound: Int32 { fs_averror_http_not_found() }
        /// `AVERROR_HTTP_OTHER_4XX`: a 4xx status without a code of its own (408, 429, ...).
        static var httpOther4xx: Int32 { fs_averror_http_other_4xx() }
        /// `AVERROR_HTTP_BAD_REQUEST`: 400.
        static var httpBadRequest: Int32 { fs_averror_http_bad_request() }
        /// `AVERROR_HTTP_UNAUTHORIZED`: 401.
        static var httpUnauthorized: Int32 { fs_averror_http_unauthorized() }
        /// `AVERROR_HTTP_FORBIDDEN`: 403.
        static var httpForbidden: Int32 { fs_averror_http_forbidden() }
    }

    /// True when `code` is `Code.invalidData`.
    var isInvalidData: Bool { code == Code.invalidData }
}
