import CFFmpeg
import Foundation
import FrameSeekCore

/// FFmpeg's own log, kept off stderr and remembered for error messages.
///
/// FrameSeek promises one line per error; FFmpeg would print its own diagnostics around it.
/// Instead, the callback keeps the last error-level message (such as "moov atom not found"),
/// which `MediaError` details quote, and passes everything through to stderr only when
/// `FRAMESEEK_FFMPEG_LOG` names a level (`error`, `warning`, `info`, `debug`).
enum FFmpegLog {
    private static let lastError = Locked<String?>(nil)
    private static let installed = Locked(false)

    /// Installs the callback once per process.
    static func install() {
        installed.withLock { done in
            guard !done else { return }
            done = true
            if let level = environmentLevel() {
                av_log_set_level(level)
                return  // the default callback prints at that level
            }
            av_log_set_level(AV_LOG_ERROR)
            av_log_set_callback { _, level, format, arguments in
                guard level <= AV_LOG_ERROR, let format, let arguments else { return }
                var buffer = [CChar](repeating: 0, count: 512)
                _ = vsnprintf(&buffer, buffer.count, format, arguments)
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty { FFmpegLog.record(text) }
            }
        }
    }

    fileprivate static func record(_ text: String) { lastError.withLock { $0 = text } }

    /// Takes the last error FFmpeg logged since the previous call.
    static func takeLastError() -> String? { lastError.withLock { value in defer { value = nil }; return value } }

    private static func environmentLevel() -> Int32? {
        guard let raw = getenv("FRAMESEEK_FFMPEG_LOG") else { return nil }
        switch String(cString: raw) {
        case "quiet": return AV_LOG_QUIET
        case "error": return AV_LOG_ERROR
        case "warning": return AV_LOG_WARNING
        case "info": return AV_LOG_INFO
        case "debug": return AV_LOG_DEBUG
        default: return nil
        }
    }
}
