internal import CFFmpeg
import Foundation
import FrameSeekCore

/// What FrameSeek does with FFmpeg's log callback, which is one per process
/// (`av_log_set_callback`).
///
/// Set it through `FFmpegEngine.logPolicy` before the first engine opens: the policy is read
/// once, when the first `FFmpegEngine` opens, and later changes have no effect.
public enum FFmpegLogPolicy: Sendable, Hashable {
    /// The default. At the first engine open FrameSeek sets FFmpeg's log level to errors and
    /// installs its own callback for the whole process: FFmpeg's messages stay off stderr, so
    /// every failure is the one line FrameSeek promises, and each error-level message is kept
    /// by the engine whose demuxer or decoder logged it, to be quoted in that engine's
    /// `MediaError` ("moov atom not found"). Messages FrameSeek cannot attribute to one of its
    /// engines, including those of FFmpeg contexts the application opens itself, are dropped.
    case captureErrors
    /// FrameSeek never calls `av_log_set_callback` or `av_log_set_level`, so an application
    /// keeps the callback and level it set. `MediaError` details then lack FFmpeg's own
    /// message and name only the failing function and its error code.
    case leaveCallbackAlone
}

/// The error messages FFmpeg logged on behalf of one engine's contexts.
///
/// Its `token` is stored in the `opaque` field of every `AVFormatContext` and `AVCodecContext`
/// the engine opens; FFmpeg copies `AVCodecContext.opaque` into the contexts of its decoder
/// threads, so messages logged there find their way back too. The token is only ever looked
/// up in `FFmpegLog`'s registry, never dereferenced, so a message that races with a sink's
/// end finds nothing rather than a freed object.
final class FFmpegLogSink: Sendable {
    private let lastError = Locked<String?>(nil)
    private let missingData = Locked<[String]>([])
    /// The transcript of the task that made this sink, which every message attributed to the
    /// sink is copied into, whichever thread logs it.
    fileprivate let transcript = FFmpegLogTranscript.current

    init() { FFmpegLog.register(self) }

    deinit { FFmpegLog.unregister(key) }

    /// What the engine's contexts carry in `opaque`.
    var token: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate var key: UInt { UInt(bitPattern: token) }

    fileprivate func record(_ text: String) { lastError.withLock { $0 = text } }

    fileprivate func recordMissingData(_ text: String) { missingData.withLock { $0.append(text) } }

    /// Takes the reports of media that could not be read at all since the previous call:
    /// FFmpeg's HLS demuxer warns "Failed to open segment N of playlist P" and goes on with
    /// the next segment, so a playlist with a missing segment otherwise reads as one whose
    /// frames simply jump.
    func takeMissingData() -> [String] {
        missingData.withLock { value in
            defer { value = [] }; return value
        }
    }

    /// Takes the last error FFmpeg logged for this sink's contexts since the previous call.
    func takeLastError() -> String? {
        lastError.withLock { value in
            defer { value = nil }; return value
        }
    }

    /// `av_strerror`'s text for `error`, followed by what FFmpeg logged about it, if anything:
    /// "Invalid data found when processing input (moov atom not found)".
    func message(for error: FFmpegError) -> String {
        guard let logged = takeLastError(), logged != error.message else { return error.message }
        return "\(error.message) (\(logged))"
    }
}

/// FrameSeek's FFmpeg log callback and the registry it routes messages by.
///
/// FrameSeek promises one line per error; FFmpeg would print its own diagnostics around it.
/// Instead, the callback keeps each error-level message (such as "moov atom not found") in the
/// `FFmpegLogSink` of the engine whose context logged it, found from the `avcl` argument:
/// an `AVFormatContext` or `AVCodecContext` by the sink token in its `opaque`, any other
/// context through its class's `parent_log_context_offset`. The callback runs on whatever
/// thread logs, FFmpeg's decoder threads included, so the registry is behind a lock.
enum FFmpegLog {
    /// How the callback is set up, decided once per process.
    enum Installation: Equatable {
        /// FrameSeek's callback, keeping error-level messages per engine.
        case captureErrors
        /// FFmpeg's own callback, printing to stderr from `level` down.
        case printToStandardError(level: Int32)
        /// Nothing is touched.
        case untouched
    }

    static let policy = Locked(FFmpegLogPolicy.captureErrors)
    private static let installation = Locked<Installation?>(nil)
    private struct WeakSink { weak var sink: FFmpegLogSink? }
    private static let sinks = Locked<[UInt: WeakSink]>([:])

    /// Sets up FFmpeg's logging the first time an engine opens, by the policy and the
    /// environment of that moment; later calls do nothing.
    static func installOnce() {
        installation.withLock { done in
            guard done == nil else { return }
            let chosen = choose(
                policy: policy.withLock { $0 },
                environment: getenv("FRAMESEEK_FFMPEG_LOG").map { String(cString: $0) })
            done = chosen
            switch chosen {
            case .untouched:
                break
            case .printToStandardError(let level):
                av_log_set_level(level)
            case .captureErrors:
                av_log_set_level(AV_LOG_ERROR)
                fs_install_log_filter()
            }
        }
    }

    /// A warning or error FFmpeg logged, formatted by `fs_log_filter`, which drops the rest in C.
    fileprivate static func handle(context: UnsafeMutableRawPointer?, level: Int32, text cText: UnsafePointer<CChar>) {
        let sink = sink(for: context) ?? threadSink()
        // A message no engine owns still reaches the transcript of the task that logs it.
        let transcript = sink?.transcript ?? FFmpegLogTranscript.current
        if sink == nil && transcript == nil { return }
        let text = String(cString: cText).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return }
        transcript?.append(level: level, context: context, text: text)
        guard let sink else { return }
        if level <= AV_LOG_ERROR {
            sink.record(text)
        } else if reportsMissingData(text) {
            sink.recordMissingData(text)
        }
    }

    /// Whether a warning says that whole media could not be read and was skipped. FFmpeg has
    /// no error code for this (the HLS demuxer reports it only as a warning and reads on), so
    /// its text is the one signal; the wording is the same in FFmpeg 5.1 to 7.
    static func reportsMissingData(_ text: String) -> Bool {
        text.hasPrefix("Failed to open segment")
    }

    /// The installation a policy and a `FRAMESEEK_FFMPEG_LOG` value call for. An application's
    /// `.leaveCallbackAlone` wins over the variable, which is a debugging aid for FrameSeek's
    /// own tools.
    static func choose(policy: FFmpegLogPolicy, environment: String?) -> Installation {
        if policy == .leaveCallbackAlone { return .untouched }
        switch environment {
        case "quiet": return .printToStandardError(level: AV_LOG_QUIET)
        case "error": return .printToStandardError(level: AV_LOG_ERROR)
        case "warning": return .printToStandardError(level: AV_LOG_WARNING)
        case "info": return .printToStandardError(level: AV_LOG_INFO)
        case "debug": return .printToStandardError(level: AV_LOG_DEBUG)
        default: return .captureErrors
        }
    }

    /// The sink `attributing(to:_:)` set for the calling thread.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()

    /// Runs `body` with the messages this thread logs from contexts no engine owns (swscale's
    /// `SwsContext`, or no context at all, as `av_image_check_size` logs) going to `sink`.
    /// Conversions run on the engine's own thread, so this is how their messages find it.
    static func attributing<Result, Failure: Error>(
        to sink: FFmpegLogSink,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let previous = pthread_getspecific(threadKey)
        pthread_setspecific(threadKey, sink.token)
        defer { pthread_setspecific(threadKey, previous) }
        return try body()
    }

    /// The calling thread's sink, alive because `attributing(to:_:)` holds it until it resets
    /// the value.
    fileprivate static func threadSink() -> FFmpegLogSink? {
        pthread_getspecific(threadKey).map { Unmanaged<FFmpegLogSink>.fromOpaque($0).takeUnretainedValue() }
    }

    fileprivate static func register(_ sink: FFmpegLogSink) {
        let key = sink.key
        sinks.withLock { $0[key] = WeakSink(sink: sink) }
    }

    fileprivate static func unregister(_ key: UInt) {
        _ = sinks.withLock { $0.removeValue(forKey: key) }
    }

    /// The sink of the engine that owns `context`, or of the context it logs for; nil for
    /// contexts FrameSeek did not open.
    static func sink(for context: UnsafeMutableRawPointer?) -> FFmpegLogSink? {
        var current = context
        // A few levels cover an I/O or codec-private context under its owner; the bound keeps a
        // cycle of parent pointers from looping.
        for _ in 0..<4 {
            guard let context = current, let logClass = fs_log_context_class(context) else { return nil }
            var token: UnsafeMutableRawPointer?
            if logClass == avformat_get_class() {
                token = context.assumingMemoryBound(to: AVFormatContext.self).pointee.opaque
            } else if logClass == avcodec_get_class() {
                token = context.assumingMemoryBound(to: AVCodecContext.self).pointee.opaque
            }
            if let token, let sink = sinks.withLock({ $0[UInt(bitPattern: token)]?.sink }) { return sink }
            current = fs_log_parent_context(context)
        }
        return nil
    }
}

/// The Swift end of `fs_log_filter` (shim.h), which FFmpeg calls through `av_log_set_callback`.
@_cdecl("fs_log_handle")
func fs_log_handle(_ context: UnsafeMutableRawPointer?, _ level: Int32, _ text: UnsafePointer<CChar>) {
    FFmpegLog.handle(context: context, level: level, text: text)
}

/// A copy of the warnings and errors FFmpeg logged for the contexts of one task's engines, for a
/// test to show when it fails.
///
/// Whatever the policy, FrameSeek's callback keeps FFmpeg's own lines off stderr; a test that
/// fails on a damaged file still wants to read them. `FFmpegLogTranscript.$current.withValue`
/// binds a transcript for a scope: every `FFmpegLogSink` made inside it (one per engine,
/// fetcher or decoder) copies the messages attributed to it into that transcript, from
/// whichever thread FFmpeg logs them, and so does a message that no sink owns but is logged on
/// the scope's own thread. Only the newest `limit` lines are kept, and how many were dropped.
package final class FFmpegLogTranscript: Sendable {
    /// The transcript new sinks copy their messages into; nil outside a scope that binds one.
    @TaskLocal package static var current: FFmpegLogTranscript?

    private struct Lines {
        var kept: [String] = []
        var dropped = 0
    }
    private let lines = Locked(Lines())
    private let limit: Int

    /// A transcript keeping the newest `limit` lines.
    package init(limit: Int = 500) { self.limit = max(1, limit) }

    /// The lines kept, oldest first, each as "error [h264] Invalid NAL unit size ..."; a first
    /// line says how many older ones were dropped, if any were.
    package var text: [String] {
        lines.withLock { lines in
            (lines.dropped > 0 ? ["(\(lines.dropped) earlier lines dropped)"] : []) + lines.kept
        }
    }

    fileprivate func append(level: Int32, context: UnsafeMutableRawPointer?, text: String) {
        // The context's item name, as FFmpeg's own callback prints it ("h264" rather than
        // "AVCodecContext"); a codec context without a codec names itself "NULL".
        let name = fs_log_context_class(context).flatMap { logClass -> String? in
            let item = logClass.pointee.item_name.flatMap { $0(context) }.map { String(cString: $0) }
            return item != nil && item != "NULL" ? item : logClass.pointee.class_name.map { String(cString: $0) }
        }
        let line = "\(level <= AV_LOG_ERROR ? "error" : "warning")\(name.map { " [\($0)]" } ?? "") \(text)"
        lines.withLock { lines in
            if lines.kept.count == limit {
                lines.kept.removeFirst()
                lines.dropped += 1
            }
            lines.kept.append(line)
        }
    }
}
