/// How far a landing is from what was asked, computed in rational media time.
///
/// Every outcome has one, as the SDK's has: a seek that did not land (superseded, cancelled,
/// failed) measures the playhead where it stayed, is never within tolerance, and has an
/// `.invalid` landed time only when nothing was loaded to stay on.
///
/// The `MediaTime` members are authoritative. The `Double` members exist for display and
/// logging only: 1001/30000 s has no exact `Double`, and a comparison in seconds flips
/// exactly at the frame boundaries that matter, so nothing in FrameSeek reads them back.
public struct SeekAccuracy: Sendable, Hashable {
    /// The time the caller asked for, before any clamp.
    public let requestedMediaTime: MediaTime
    /// The presentation time of the frame the seek landed on; for a seek that did not land, the
    /// playhead where it stayed (`.invalid` when nothing was loaded).
    public let landedMediaTime: MediaTime
    /// The tolerance before the target that the precision allowed.
    public let toleranceBefore: MediaTime
    /// The tolerance after the target that the precision allowed.
    public let toleranceAfter: MediaTime
    /// Whether the landed frame's interval `[pts, next frame's pts)` meets the window
    /// `[requested - before, requested + after]`.
    public let withinRequestedTolerance: Bool

    /// Creates an accuracy record; `withinRequestedTolerance` is decided here, from the landed
    /// frame's interval (`landedDuration` is how long it covers: up to the next frame), so that
    /// no caller can get it from seconds.
    public init(
        requested: MediaTime, landed: MediaTime, landedDuration: MediaTime,
        toleranceBefore: MediaTime, toleranceAfter: MediaTime
    ) {
        self.requestedMediaTime = requested
        self.landedMediaTime = landed
        self.toleranceBefore = toleranceBefore
        self.toleranceAfter = toleranceAfter
        // Exact, as the landing rules decide (`ExactTime`): `MediaTime`'s sums round where the
        // timescales' multiple passes Int32.
        let windowStart = ExactTime(requested, minus: toleranceBefore)
        let windowEnd = ExactTime(requested, plus: toleranceAfter)
        let frameEnd = ExactTime(landed, plus: landedDuration)
        // The frame covers [landed, frameEnd); the window is closed at both ends.
        self.withinRequestedTolerance = ExactTime(landed) <= windowEnd && frameEnd > windowStart
    }

    /// The accuracy of a seek that did not land: `stayedAt` is the playhead it left where it
    /// was (`.invalid` with nothing loaded), and it is not within tolerance, since no frame was
    /// landed for it, whatever the distance.
    public init(requested: MediaTime, notLandedWithPlayheadAt stayedAt: MediaTime, precision: SeekPrecision) {
        self.requestedMediaTime = requested
        self.landedMediaTime = stayedAt
        (self.toleranceBefore, self.toleranceAfter) = precision.window
        self.withinRequestedTolerance = false
    }

    /// `landed - requested`, exact. Non-zero inside tolerance when the target falls in the
    /// middle of a frame; `.invalid` when `landedMediaTime` is.
    public var deltaMediaTime: MediaTime { landedMediaTime - requestedMediaTime }
    /// The size of `deltaMediaTime`.
    public var absoluteDeltaMediaTime: MediaTime { deltaMediaTime.magnitude }
    /// `requestedMediaTime` in seconds, for display.
    public var requestedTime: Double { requestedMediaTime.seconds }
    /// `landedMediaTime` in seconds, for display.
    public var landedTime: Double { landedMediaTime.seconds }
    /// `deltaMediaTime` in seconds, for display.
    public var delta: Double { deltaMediaTime.seconds }
    /// `absoluteDeltaMediaTime` in seconds, for display.
    public var absoluteDelta: Double { absoluteDeltaMediaTime.seconds }
}
