/// What reading media cost, as the engine that read it counts it: never an estimate.
public struct MediaReads: Sendable, Hashable {
    /// Bytes read from the source: from the file, or over HTTP the bytes the responses carried
    /// (the ranges asked for, which the server sends whole).
    public var bytes: Int64
    /// Requests made to an HTTP server, each for a bounded byte range; nil for a local file,
    /// which is read without requests.
    public var requests: Int?

    /// Counts as given.
    public init(bytes: Int64, requests: Int?) {
        self.bytes = bytes
        self.requests = requests
    }

    /// Nothing read.
    public static let none = MediaReads(bytes: 0, requests: nil)

    /// Both counts added; requests stay nil only when neither side made any.
    public static func + (lhs: MediaReads, rhs: MediaReads) -> MediaReads {
        let requests: Int? = lhs.requests == nil && rhs.requests == nil ? nil : (lhs.requests ?? 0) + (rhs.requests ?? 0)
        return MediaReads(bytes: lhs.bytes + rhs.bytes, requests: requests)
    }

    /// What `lhs` counts beyond `rhs`, an earlier count of the same reads.
    public static func - (lhs: MediaReads, rhs: MediaReads) -> MediaReads {
        let requests: Int? = lhs.requests.map { $0 - (rhs.requests ?? 0) }
        return MediaReads(bytes: lhs.bytes - rhs.bytes, requests: requests)
    }
}
