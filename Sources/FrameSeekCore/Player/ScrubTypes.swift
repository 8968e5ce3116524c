/// Where a scrub session stands.
public enum ScrubState: String, Sendable, Hashable {
    /// No scrub.
    case idle
    /// The finger is down: positions are tracked, nothing is decoded.
    case scrubbing
    /// The finger lifted: the one seek of the session is landing.
    case seeking

    /// True while scrubbing or seeking.
    public var isActive: Bool { self != .idle }
}

/// A scrub position event: the latest proposed time and how many updates led to it.
public struct ScrubPosition: Sendable, Hashable {
    /// The latest proposed time.
    public let time: MediaTime
    /// How many `updateScrubbing` calls the session has had so far; against the number of
    /// events received, it shows the throttling.
    public let sampleCount: Int

    /// Creates a position event.
    public init(time: MediaTime, sampleCount: Int) {
        self.time = time
        self.sampleCount = sampleCount
    }
}

/// How a scrub session ended.
public struct ScrubSessionResult: Sendable, Hashable {
    /// The outcome of the session's one seek; nil when the session issued none.
    public let outcome: SeekOutcome?
    /// How many updates the session had.
    public let sampleCount: Int

    /// Creates a result.
    public init(outcome: SeekOutcome?, sampleCount: Int) {
        self.outcome = outcome
        self.sampleCount = sampleCount
    }

    /// True when the session's seek was cancelled, or no seek was issued.
    public var wasCancelled: Bool { outcome.map { $0.interruption == .cancelled } ?? true }
}
