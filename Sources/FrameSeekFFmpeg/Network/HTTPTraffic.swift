/// What reading a file over HTTP cost, as FrameSeek counts it (`RangedHTTPReader`): every
/// request asks for a bounded byte range, so what a server sends lies between the bytes
/// received and the bytes requested (a request given up early may not have been sent whole).
public struct HTTPTraffic: Sendable, Hashable {
    /// Bytes the demuxer read from the responses.
    public let bytesReceived: Int64
    /// Bytes the requests asked for: the sum of their ranges' lengths.
    public let bytesRequested: Int64
    /// HTTP requests made.
    public let requests: Int

    /// Counts as given.
    public init(bytesReceived: Int64, bytesRequested: Int64, requests: Int) {
        self.bytesReceived = bytesReceived
        self.bytesRequested = bytesRequested
        self.requests = requests
    }
}
