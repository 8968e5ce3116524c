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
/// Every resource is hostile until read: what names it decides which protocols may open it
/// (`ResourceOrigin`), its size is bounded (`NetworkPolicy.playlistLimitBytes` and
/// `segmentLimitBytes`), and so is its time, in wall-clock terms, attempts included
/// (`NetworkPolicy.timeout`, through `NetworkDeadline`).
///
/// The messages FFmpeg's protocols log (the http protocol logs "HTTP error 404 Not Found")
/// come from a `URLContext` that belongs to no engine, so the fetch runs attributed to the
/// fetcher's own `FFmpegLogSink` (`FFmpegLog.attributing`), and the error quotes them.
final class SegmentFetcher: Sendable {
    /// Retries, timeouts, size limits and certificate checks.
    let policy: NetworkPolicy
    private let log = FFmpegLogSink()

    init(policy: NetworkPolicy = NetworkPolicy()) {
        self.policy = policy
        FFmpegLog.installOnce()
    }

    /// What FFmpeg is asked to open for `url`: a local path for `file:` URLs (percent-decoded,
    /// which FFmpeg's file protocol does not do), else the absolute URL.
    static func location(of url: URL) -> String {
        url.isFileURL ? url.path : url.absoluteString
    }

    /// The bytes of segment or EXT-X-MAP `url`, or of its `range` (EXT-X-BYTERANGE) when one
    /// is given, as something of `origin` named it; tried again as `policy` says when a
    /// request fails in a way that may pass.
    ///
    /// - Throws: `FetchError` when `origin` may not name `url` (a remote playlist naming a
    ///   local file), from `avio_open2`, `avio_seek` or `avio_read`, when the resource exceeds
    ///   `NetworkPolicy.segmentLimitBytes`, or when `NetworkPolicy.timeout` passes (see
    ///   `FetchError`); the last attempt's, with how many were made when there was more than one.
    func bytes(
        at url: URL, range: HLSByteRange? = nil, namedBy origin: ResourceOrigin, counting reads: inout MediaReads
    ) throws(FetchError) -> [UInt8] {
        try fetch(url, range: range, origin: origin, limit: policy.segmentLimitBytes, counting: &reads)
    }

    /// The 16 bytes of the AES-128 key at `url` (EXT-X-KEY's URI), as something of `origin`
    /// named it: a key is 16 bytes, so a larger answer is refused after 17.
    ///
    /// - Throws: `FetchError` as `bytes(at:range:namedBy:counting:)` does, and from
    ///   `avio_read` when the key is not 16 bytes.
    func key(at url: URL, namedBy origin: ResourceOrigin, counting reads: inout MediaReads) throws(FetchError) -> [UInt8] {
        let bytes = try fetch(url, range: nil, origin: origin, limit: 16, counting: &reads)
        guard bytes.count == 16 else {
            throw FetchError(
                url: Self.location(of: url), function: "avio_read",
                cause: "an AES-128 key of \(bytes.count) bytes; a key is 16")
        }
        return bytes
    }

    /// The text of playlist `url`, decoded as UTF-8 (RFC 8216 4.1: playlists are UTF-8), as
    /// something of `origin` named it (`.local` for the playlist the user gave).
    ///
    /// - Throws: `FetchError` as `bytes(at:range:namedBy:)` does, the limit being
    ///   `NetworkPolicy.playlistLimitBytes`.
    func text(at url: URL, namedBy origin: ResourceOrigin, counting reads: inout MediaReads) throws(FetchError) -> String {
        String(
            decoding: try fetch(url, range: nil, origin: origin, limit: policy.playlistLimitBytes, counting: &reads),
            as: UTF8.self)
    }

    /// Reads `url` as the type's documentation says, adding to `reads` the bytes it returns
    /// and, over the network, every request made (a failed attempt is a request too).
    private func fetch(
        _ url: URL, range: HLSByteRange?, origin: ResourceOrigin, limit: Int, counting reads: inout MediaReads
    ) throws(FetchError) -> [UInt8] {
        let location = Self.location(of: url)
        guard origin.permits(url) else {
            throw FetchError(
                url: location, function: "avio_open2",
                cause: "refused: a \(origin) resource may not name a \(url.scheme ?? "schemeless") URL"
                    + (origin == .remote ? " (a playlist fetched over http(s) may name only http(s) resources)" : ""))
        }
        let deadline = NetworkDeadline()
        deadline.arm(policy.timeout)
        var attempts = 0
        let isRemote = !url.isFileURL
        defer { if isRemote { reads.requests = (reads.requests ?? 0) + attempts } }
        do {
            let bytes = try policy.attempt { (n: Int) throws(FetchError) -> [UInt8] in
                attempts = n + 1
                _ = log.takeLastError()
                return try FFmpegLog.attributing(to: log) { () throws(FetchError) -> [UInt8] in
                    try read(location, range: range, whitelist: origin.protocolWhitelist, limit: limit, deadline: deadline)
                }
            }
            reads.bytes += Int64(bytes.count)
            return bytes
        } catch  where attempts > 1 {
            throw FetchError(
                url: error.url, function: error.function, cause: "\(error.cause) (after \(attempts) attempts)",
                retry: error.retry)
        }
    }

    private func failure(_ location: String, _ function: String, code: Int32, deadline: NetworkDeadline) -> FetchError {
        let error = FFmpegError(function: function, code: code)
        let logged = log.takeLastError()
        if code == FFmpegError.Code.exit || deadline.hasPassed {
            return FetchError(
                url: location, function: function,
                cause: "no answer within \(policy.timeout.components.seconds) s (the resource's timeout, --timeout)")
        }
        let cause = logged.map { $0 == error.message ? $0 : "\($0) (\(error.message))" } ?? error.message
        return FetchError(url: location, function: function, cause: cause, retry: FetchError.Retry(ffmpegCode: code))
    }

    private func read(
        _ location: String, range: HLSByteRange?, whitelist: String, limit limitBytes: Int, deadline: NetworkDeadline
    ) throws(FetchError) -> [UInt8] {
        let options = policy.openOptions(whitelist: whitelist)
        // Over HTTP a BYTERANGE is the request's own range (FFmpeg's `offset` and `end_offset`),
        // so the server sends that range and nothing before it; other protocols seek.
        let ranged = range != nil && (location.hasPrefix("http://") || location.hasPrefix("https://"))
        if let range, ranged {
            options.set("offset", Int64(range.offset))
            options.set("end_offset", Int64(range.offset) + Int64(range.length))
        }
        let io: IOContext
        do { io = try IOContext(reading: location, options: options, deadline: deadline) } catch {
            throw failure(location, error.function, code: error.code, deadline: deadline)
        }

        let wanted: Int
        var announced: Int64?
        if let range {
            guard range.length <= limitBytes else {
                throw FetchError(
                    url: location, function: "avio_size",
                    cause: "BYTERANGE of \(range.length) bytes exceeds the \(limitBytes)-byte limit")
            }
            if !ranged {
                do { try io.seek(to: Int64(range.offset)) } catch {
                    throw failure(location, error.function, code: error.code, deadline: deadline)
                }
            }
            wanted = range.length
        } else {
            let size = io.size
            if size > Int64(limitBytes) {
                throw FetchError(
                    url: location, function: "avio_size",
                    cause: "\(size) bytes exceeds the \(limitBytes)-byte limit")
            }
            wanted = limitBytes + 1  // read to the end; one byte more than the limit proves it is exceeded
            announced = size > 0 ? size : nil
        }

        let bytes: [UInt8]
        do { bytes = try io.bytes(upTo: wanted) } catch {
            throw failure(location, error.function, code: error.code, deadline: deadline)
        }
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
