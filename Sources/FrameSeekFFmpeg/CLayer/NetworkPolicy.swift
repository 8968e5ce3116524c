internal import CFFmpeg
import Foundation

/// How FrameSeek reads over the network: how often a failed request is tried again, and how
/// long a resource may take in all.
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
    public var timeout: Duration
    /// The longest one network read may wait for data (FFmpeg's `rw_timeout`).
    public var readTimeout: Duration

    /// 3 retries, 30 s a resource, 10 s a read.
    public init(retries: Int = 3, timeout: Duration = .seconds(30), readTimeout: Duration = .seconds(10)) {
        self.retries = retries
        self.timeout = timeout
        self.readTimeout = readTimeout
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
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
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
    }
}
