internal import CFFmpeg
import Foundation
import FrameSeekCore

/// Why a playlist or segment could not be read whole.
///
/// `function` names the FFmpeg C function that failed: `avio_open2` (the resource cannot be
/// opened: no such file, connection refused, "HTTP error 404 Not Found"), `avio_seek` (a
/// BYTERANGE offset cannot be reached), `avio_read` (reading stopped with an error or before
/// the BYTERANGE's length), or `avio_size` when the resource is larger than the fetcher's
/// limit (no C call failed then; the size it reported, or the bytes read, exceeded the cap).
struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL or path as FFmpeg was asked to open it.
    let url: String
    /// The FFmpeg function that failed, see the type's documentation.
    let function: String
    /// The cause in words: FFmpeg's logged message when it logged one, else `av_strerror`'s
    /// text for the code ("Server returned 404 Not Found").
    let cause: String
    /// Whether trying again can help (`NetworkPolicy.attempt`).
    var retry: Retry = .never

    /// `URL: cause`.
    var description: String { "\(url): \(cause)" }
}

/// Reads whole resources (playlists, segments, EXT-X-MAP sections) into memory through FFmpeg's
/// I/O layer, so that every protocol FFmpeg was built with (file, http, https, ...) works
/// as it does for `FFmpegEngine(path:)`, with the same errors.
///
/// The messages FFmpeg's protocols log (the http protocol logs "HTTP error 404 Not Found")
/// come from a `URLContext` that belongs to no engine, so the fetch runs attributed to the
/// fetcher's own `FFmpegLogSink` (`FFmpegLog.attributing`), and the error quotes them.
final class SegmentFetcher: Sendable {
    /// The most bytes one resource may have: 512 MiB. A segment is seconds of media; this is
    /// far above any real one, and it bounds the memory a hostile or broken server can make
    /// FrameSeek allocate (the whole segment is held in memory while it is indexed).
    static let defaultLimitBytes = 512 << 20
    let limitBytes: Int
    /// Retries and timeouts; a stalled server fails a read after `readTimeout` instead of
    /// hanging the engine.
    let policy: NetworkPolicy
    private let log = FFmpegLogSink()

    init(limitBytes: Int = SegmentFetcher.defaultLimitBytes, policy: NetworkPolicy = NetworkPolicy()) {
        self.limitBytes = limitBytes
        self.policy = policy
        FFmpegLog.installOnce()
    }

    /// What FFmpeg is asked to open for `url`: a local path for `file:` URLs (percent-decoded,
    /// which FFmpeg's file protocol does not do), else the absolute URL.
    static func location(of url: URL) -> String {
        url.isFileURL ? url.path : url.absoluteString
    }

    /// The bytes of `url`, or of its `range` (EXT-X-BYTERANGE) when one is given, tried
    /// again as `policy` says when a request fails in a way that may pass.
    ///
    /// - Throws: `FetchError` from `avio_open2`, `avio_seek` or `avio_read`, or when the
    ///   resource exceeds `limitBytes` (see `FetchError`); the last attempt's, with how many
    ///   were made when there was more than one.
    func bytes(at url: URL, range: HLSByteRange? = nil) throws(FetchError) -> [UInt8] {
        let location = Self.location(of: url)
        var attempts = 0
        do {
            return try policy.attempt { (n: Int) throws(FetchError) -> [UInt8] in
                attempts = n + 1
                _ = log.takeLastError()
                return try FFmpegLog.attributing(to: log) { () throws(FetchError) -> [UInt8] in
                    try read(location, range: range)
                }
            }
        } catch  where attempts > 1 {
            throw FetchError(
                url: error.url, function: error.function, cause: "\(error.cause) (after \(attempts) attempts)",
                retry: error.retry)
        }
    }

    /// The text of `url`, decoded as UTF-8 (RFC 8216 4.1: playlists are UTF-8).
    ///
    /// - Throws: `FetchError` as `bytes(at:range:)` does.
    func text(at url: URL) throws(FetchError) -> String {
        String(decoding: try bytes(at: url), as: UTF8.self)
    }

    private func failure(_ location: String, _ function: String, code: Int32) -> FetchError {
        let error = FFmpegError(function: function, code: code)
        let logged = log.takeLastError()
        let cause = logged.map { $0 == error.message ? $0 : "\($0) (\(error.message))" } ?? error.message
        let retry: FetchError.Retry
        switch fs_network_error_class(code) {
        case 2: retry = .transient
        case 1: retry = .once
        default: retry = .never
        }
        return FetchError(url: location, function: function, cause: cause, retry: retry)
    }

    private func read(_ location: String, range: HLSByteRange?) throws(FetchError) -> [UInt8] {
        var options: OpaquePointer?
        av_dict_set_int(&options, "rw_timeout", policy.readTimeoutMicroseconds, 0)
        defer { av_dict_free(&options) }
        var context: UnsafeMutablePointer<AVIOContext>?
        let opened = avio_open2(&context, location, AVIO_FLAG_READ, nil, &options)
        guard opened >= 0, let io = context else {
            throw failure(location, "avio_open2", code: opened < 0 ? opened : fs_averror(EIO))
        }
        defer { avio_closep(&context) }

        let wanted: Int
        var announced: Int64?
        if let range {
            guard range.length <= limitBytes else {
                throw FetchError(
                    url: location, function: "avio_size",
                    cause: "BYTERANGE of \(range.length) bytes exceeds the \(limitBytes)-byte limit")
            }
            let sought = avio_seek(io, Int64(range.offset), SEEK_SET)
            guard sought >= 0 else { throw failure(location, "avio_seek", code: Int32(truncatingIfNeeded: sought)) }
            wanted = range.length
        } else {
            let size = avio_size(io)
            if size > Int64(limitBytes) {
                throw FetchError(
                    url: location, function: "avio_size",
                    cause: "\(size) bytes exceeds the \(limitBytes)-byte limit")
            }
            wanted = limitBytes + 1  // read to the end; one byte more than the limit proves it is exceeded
            announced = size > 0 ? size : nil
        }

        let bytes: [UInt8]
        do { bytes = try readBytes(from: io, upTo: wanted) } catch { throw failure(location, "avio_read", code: error.code) }
        if let range, bytes.count < range.length {
            throw FetchError(
                url: location, function: "avio_read",
                cause: "BYTERANGE \(range.length)@\(range.offset): only \(bytes.count) bytes could be read",
                retry: .transient)
        }
        if let announced, Int64(bytes.count) < announced {
            // The server said how long the body is and closed before sending it all.
            throw FetchError(
                url: location, function: "avio_read",
                cause: "the body was cut short: \(bytes.count) of \(announced) bytes", retry: .transient)
        }
        if range == nil, bytes.count > limitBytes {
            throw FetchError(url: location, function: "avio_size", cause: "more than \(limitBytes) bytes (the limit)")
        }
        return bytes
    }
}
