/// Why media could not be opened, indexed or decoded. Its description is the one line the
/// command-line tool prints: the file, then the cause.
public struct MediaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, for callers that react to it.
    public enum Reason: Sendable, Hashable {
        /// No file at the path.
        case fileNotFound
        /// The file exists but is zero bytes long.
        case emptyFile
        /// FFmpeg recognizes no container in the file.
        case notMedia
        /// The file has no video or audio stream FrameSeek can decode.
        case noPlayableStream
        /// The stream asked for with `--stream` does not exist or cannot be decoded.
        case streamUnavailable
        /// The file ends before the data its container describes.
        case truncated
        /// The container's header is damaged: it names sizes or counts no file could hold
        /// (FFmpeg fails to allocate them) or structures it cannot parse, although the file
        /// starts as a media file does.
        case damagedHeader
        /// The decoder failed, or did not produce a frame the index promised.
        case decodeFailed
        /// A decoded picture could not be converted to RGB (swscale refused its format or size,
        /// or failed while converting); never answered with a black picture instead.
        case conversionFailed
        /// Reading failed below the demuxer.
        case readFailed
        /// A seek asked for something no landing can satisfy (an invalid time).
        case invalidRequest
        /// A newer seek or a cancel stopped the work (see `SeekInterruptionFlag`).
        case interrupted
        /// The file reads, but FrameSeek cannot land exactly in it (timestamps that repeat,
        /// are missing or overflow).
        case unsupported
    }

    /// The file or URL as the caller named it.
    public let path: String
    /// The kind of failure.
    public let reason: Reason
    /// The cause, in words, without the path.
    public let cause: String

    /// Creates an error for `path`.
    public init(path: String, reason: Reason, cause: String) {
        self.path = path
        self.reason = reason
        self.cause = cause
    }

    /// `PATH: cause`, one line.
    public var description: String { "\(path): \(cause)" }

    /// The cause, under the name `cause` that every FrameSeek error with a path uses.
    @available(*, deprecated, renamed: "cause")
    public var detail: String { cause }
}
