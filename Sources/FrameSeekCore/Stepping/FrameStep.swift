/// Which way a frame step goes, in presentation order.
public enum FrameStepDirection: String, Sendable, Hashable {
    /// Toward later frames.
    case forward
    /// Toward earlier frames.
    case backward
}

/// Why a frame step could not happen.
public enum FrameStepUnavailableReason: String, Error, Sendable, Hashable, CustomStringConvertible {
    /// The media has no video: one audio frame means nothing to a viewer.
    case audioOnly
    /// A forward step from the last frame.
    case endOfStream
    /// A backward step from the first frame.
    case startOfStream
    /// Nothing is loaded.
    case noCurrentItem
    /// A seek is still landing; stepping now would race it.
    case seekInProgress
    /// The decoder failed to produce the frame.
    case decodeFailed

    /// One sentence for a person.
    public var explanation: String {
        switch self {
        case .audioOnly: return "The media has no video stream, so there are no frames to step through."
        case .endOfStream: return "The current frame is the last frame; there is nothing after it."
        case .startOfStream: return "The current frame is the first frame; there is nothing before it."
        case .noCurrentItem: return "No media is loaded."
        case .seekInProgress: return "A seek is still landing; step after it completes."
        case .decodeFailed: return "The decoder could not produce the next frame."
        }
    }

    /// The case name, as the command line prints it.
    public var description: String { rawValue }
}

/// The result of a frame step, shaped as the mobile SDKs shape it.
public enum FrameStepResult: Sendable, Hashable {
    /// The step happened; the landed time was read from the decoded frame.
    case stepped(FrameStepDirection, landedMediaTime: MediaTime)
    /// The step could not happen, for a typed reason.
    case unavailable(FrameStepUnavailableReason)

    /// True when the step happened.
    public var didStep: Bool {
        if case .stepped = self { return true }
        return false
    }

    /// The reason, when the step did not happen.
    public var unavailableReason: FrameStepUnavailableReason? {
        if case .unavailable(let reason) = self { return reason }
        return nil
    }
}

/// A frame step's result with what it cost and where it went.
public struct FrameStepReport: Sendable, Hashable {
    /// The SDK-shaped result.
    public let result: FrameStepResult
    /// The direction asked for.
    public let direction: FrameStepDirection
    /// The count asked for.
    public let requestedCount: Int
    /// How many frames the step actually moved: less than `requestedCount` near an edge; more
    /// when frames the decoder cannot produce were stepped over, each counted in
    /// `decodeErrors`, so such a step is `damaged`.
    public let framesStepped: Int
    /// The frame now current (unchanged when the step was unavailable), nil if none.
    public let frame: FrameEntry?
    /// Frames the decoder produced for this step (0 when the frame came from the cache).
    public let framesDecoded: Int
    /// Monotonic time from the call to the frame being available.
    public let latency: Duration
    /// Errors reported on the way to the frame now current, counted as `SeekLanding` counts
    /// them; 0 when the step was unavailable.
    public let decodeErrors: Int
    /// Whether `frame`'s index is its number in the whole stream. False for a step taken in a
    /// seek window (`FrameIndexing.asNeeded`), whose frames are numbered from the window's
    /// first, as `SeekLanding.isIndexed` says of a landing.
    public let isIndexed: Bool

    /// Whether the frame the step landed on may differ from a clean decode of it.
    public var damaged: Bool { decodeErrors > 0 }

    /// Creates a report.
    public init(
        result: FrameStepResult, direction: FrameStepDirection, requestedCount: Int,
        framesStepped: Int, frame: FrameEntry?, framesDecoded: Int, latency: Duration,
        decodeErrors: Int = 0, isIndexed: Bool = true
    ) {
        self.result = result
        self.direction = direction
        self.requestedCount = requestedCount
        self.framesStepped = framesStepped
        self.frame = frame
        self.framesDecoded = framesDecoded
        self.latency = latency
        self.decodeErrors = decodeErrors
        self.isIndexed = isIndexed
    }
}
