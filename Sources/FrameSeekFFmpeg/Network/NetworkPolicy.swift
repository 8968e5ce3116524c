import Foundation

/// How FrameSeek reads over the network: how often a failed request is tried again, how long
/// a resource and each operation on it may take, how large a playlist or segment may be, and
/// whether TLS certificates are verified.
///
/// A library user gets every bound without the command line: each open, read and seek of a
/// network resource is bounded in wall-clock time (`timeout`, through FFmpeg's interrupt
/// callback, `NetworkDeadline`), whatever the server does.
///
/// FFmpeg's HTTP protocol bounds each read (`rw_timeout`, `readTimeout` here): a server that
/// stalls fails the request instead of hanging it. Trying again is FrameSeek's own layer
/// (`attempt(_:_:)`), for the playlists and segments `SegmentFetcher` reads and the byte
/// ranges of a file over HTTP (`RangedHTTPReader`): FFmpeg's `reconnect` options cover only
/// a connection lost mid-body, and neither a 5xx answer nor a 404 the moment a live origin
/// lists a segment before it serves it.
public struct NetworkPolicy: Sendable, Hashable {
    /// Attempts after the first for a transient failure: a 5xx status, a connection refused,
    /// reset or timed out, a body cut short. A 404 is tried once more (live origins publish a
    /// moment late), and so are the other 4xx statuses but 400, 401 and 403, which are never
    /// tried again: FFmpeg reports 408, 429 and the rest of them with one code, without the
    /// status, and hides the response's headers, so Retry-After cannot be honoured either.
    public var retries: Int
    /// The longest one resource may take, attempts and waits between them included: no retry
    /// starts that would end past it.
    ///
    /// It also bounds each later operation on an open resource (a demuxer's read or seek, one
    /// read of a byte range), in wall-clock time: a server that trickles bytes ends there.
    public var timeout: Duration
    /// The longest one network read may wait for data (FFmpeg's `rw_timeout`).
    public var readTimeout: Duration
    /// Whether HTTPS certificates are verified against the system's trust store (FFmpeg's
    /// `tls_verify`, which FFmpeg leaves off). Off only by the user's word (`--insecure`).
    public var verifiesCertificates = true
    /// The most bytes a playlist may have: 16 MiB. A long VOD playlist is a few MB; this
    /// bounds what a hostile server can make FrameSeek hold and parse.
    public var playlistLimitBytes = NetworkPolicy.defaultPlaylistLimitBytes
    /// The most bytes one segment or EXT-X-MAP section may have: 512 MiB. A segment is seconds
    /// of media, held in memory while it is indexed.
    public var segmentLimitBytes = NetworkPolicy.defaultSegmentLimitBytes
    /// The most HTTP redirects one request follows (FFmpeg's `max_redirects`; FFmpeg builds
    /// without the option stop at 8). A redirect never leaves http and https: FFmpeg's HTTP
    /// protocol follows only those.
    public var maxRedirects = 5

    /// 16 MiB.
    public static let defaultPlaylistLimitBytes = 16 << 20
    /// 512 MiB.
    public static let defaultSegmentLimitBytes = 512 << 20

    /// 3 retries, 30 s a resource or operation, 10 s a read, certificates verified.
    public init(retries: Int = 3, timeout: Duration = .seconds(30), readTimeout: Duration = .seconds(10)) {
        self.retries = retries
        self.timeout = timeout
        self.readTimeout = readTimeout
    }

    /// The options every open of a network resource gets, in one dictionary: the protocols
    /// `whitelist` allows, the read timeout, certificate verification and the redirect bound;
    /// with `reconnecting`, FFmpeg's own retries of a byte range as well (see
    /// `RangedHTTPReader`).
    func openOptions(whitelist: String, reconnecting: Bool = false) -> OptionsDictionary {
        let options = OptionsDictionary()
        options.set("protocol_whitelist", whitelist)
        options.set("rw_timeout", readTimeoutMicroseconds)
        options.set("tls_verify", verifiesCertificates ? 1 : 0)
        options.set("max_redirects", Int64(maxRedirects))
        if reconnecting {
            options.set("reconnect", "1")
            options.set("reconnect_on_network_error", "1")
            options.set("reconnect_on_http_error", "5xx,408,429")
            options.set("reconnect_delay_max", 4)
            options.set("reconnect_max_retries", Int64(retries))
            options.set("reconnect_delay_total_max", timeout.components.seconds)
            options.set("respect_retry_after", "1")
        }
        return options
    }

    /// The wait before retry `n` (from 0): 250 ms doubling, at most 4 s, with jitter of half
    /// either way so that clients that failed together do not retry together.
    func backoff(_ n: Int) -> Duration {
        let base = min(4.0, 0.25 * pow(2.0, Double(n)))
        return .milliseconds(Int(base * Double.random(in: 0.5..<1.5) * 1000))
    }

    /// `rw_timeout` in microseconds, as FFmpeg's protocols take it.
    var readTimeoutMicroseconds: Int64 {
        let (seconds, attoseconds) = readTimeout.components
        let micro = Int128(seconds) * 1_000_000 + Int128(attoseconds / 1_000_000_000_000)
        return micro >= Int128(Int64.max) ? .max : Int64(micro)
    }

    /// Runs `body` (given the attempt number, from 0) until it succeeds, fails for good, or
    /// the policy's attempts or time run out; the last failure is thrown.
    func attempt<T>(_ body: (Int) throws(FetchError) -> T) throws(FetchError) -> T {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var retriedOnce = false
        var n = 0
        while true {
            do {
                return try body(n)
            } catch {
                let retryable: Bool
                switch error.retry {
                case .transient: retryable = n < retries
                case .once: retryable = !retriedOnce && n < retries
                case .never: retryable = false
                }
                let wait = backoff(n)
                guard retryable, clock.now + wait < deadline else { throw error }
                if error.retry == .once { retriedOnce = true }
                Thread.sleep(forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
                n += 1
            }
        }
    }
}

extension FetchError {
    /// Whether trying again can help (see `NetworkPolicy.retries`).
    enum Retry: Sendable, Hashable {
        /// As often as the policy allows.
        case transient
        /// Once (404, other 4xx).
        case once
        /// Never (400, 401, 403, a resource over the size limit).
        case never

        /// How a request that failed with FFmpeg's `code` is treated: a 5xx, a connection
        /// refused, reset or timed out, an I/O error or a body cut short is worth retrying; a
        /// 404 one retry, because a live origin may answer it a moment before it serves a
        /// segment it lists, and so the other 4xx statuses (among them 408 and 429), which
        /// FFmpeg reports with one code and without the status; 400, 401, 403, bad data and
        /// the rest never.
        init(ffmpegCode code: Int32) {
            typealias Code = FFmpegError.Code
            switch code {
            case Code.httpServerError: self = .transient
            case Code.httpNotFound, Code.httpOther4xx: self = .once
            case Code.httpBadRequest, Code.httpUnauthorized, Code.httpForbidden: self = .never
            case Code.endOfFile: self = .transient
            case _ where Self.transientErrnos.contains(code): self = .transient
            default: self = .never
            }
        }

        private static let transientErrnos = Set(
            [ECONNREFUSED, ECONNRESET, ETIMEDOUT, EIO, EPIPE, EAGAIN, EHOSTUNREACH, ENETUNREACH].map(FFmpegError.Code.posix))
    }
}
