/// A stretch of the timeline whose media could not be read at all: an HLS segment that failed
/// to open, which FFmpeg skips with a warning and reads on from the next one.
///
/// No frame covers it. The frame before it covers only its own duration, so an exact seek
/// into the stretch lands on that frame outside tolerance, flagged damaged, rather than
/// "within tolerance" a second early.
public struct MissingData: Sendable, Hashable, CustomStringConvertible {
    /// The frame the missing media follows, in presentation order; -1 when it comes before
    /// the first frame (an HLS window whose first segments could not be read).
    public let afterFrame: Int
    /// Where the missing media starts: the end of that frame's own duration.
    public let start: MediaTime
    /// Where frames resume: the next frame's time, or the end of the last frame when the
    /// media is missing at the end.
    public let end: MediaTime
    /// What FFmpeg said ("Failed to open segment 1 of playlist 0").
    public let evidence: String

    /// Creates a missing-data fact.
    public init(afterFrame: Int, start: MediaTime, end: MediaTime, evidence: String) {
        self.afterFrame = afterFrame
        self.start = start
        self.end = end
        self.evidence = evidence
    }

    /// Whether `time` falls in the stretch.
    public func contains(_ time: MediaTime) -> Bool { start <= time && time < end }

    /// One phrase for a person: "missing data: no frames from 1.96 s to 4.0 s (...)".
    public var description: String {
        "missing data: no frames from \(start.secondsToTheMillisecond) s to \(end.secondsToTheMillisecond) s (\(evidence))"
    }
}
