import Foundation

/// Why a seek did not finish.
///
/// Superseded and cancelled are different facts: a superseded seek lost to a newer seek (the
/// playhead goes where the newer one lands), a cancelled one was called off (the playhead
/// stays where it was).
public enum SeekInterruption: String, Sendable, Hashable {
    /// A newer seek was issued before this one landed; this one stopped decoding at once.
    case superseded
    /// The seek was cancelled, or the player closed, before it landed.
    case cancelled
    /// No media was loaded: the seek had nothing to land on.
    case notReady
    /// The engine could not produce the frame (a decode failure); `SeekOutcome.error` says why.
    case failed
}

/// Where a seek asked for and where it really landed, as the player reports it.
///
/// Named as the precision-seek API it ports: `requestedTime`, `landedTime`, `delta` and
/// `absoluteDelta` are `Double` seconds for display; the `…MediaTime` members are the exact
/// values every comparison uses.
public struct SeekOutcome: Sendable, Hashable {
    /// The time the caller asked for, unclamped: authoritative.
    public let requestedMediaTime: MediaTime
    /// The presentation time of the frame landed on; for a seek that did not land, the
    /// playhead where it stayed (`.invalid` when nothing was loaded). `finished` tells the two
    /// apart.
    public var landedMediaTime: MediaTime { accuracy.landedMediaTime }
    /// The precision asked for.
    public let precision: SeekPrecision
    /// Requested versus landed, in rational time. A seek that did not land measures the
    /// playhead where it stayed and is not within tolerance (`SeekAccuracy`).
    public let accuracy: SeekAccuracy
    /// Whether and where the target was clamped.
    public let clamp: SeekClamp
    /// Why the seek did not finish, or nil when it did.
    public let interruption: SeekInterruption?
    /// Monotonic time from the call to the landed frame being available (or to the interruption).
    public let latency: Duration
    /// Frames the decoder produced for this seek.
    public let framesDecoded: Int
    /// The index of the frame landed on, in presentation order.
    public let frameIndex: Int?
    /// The engine's error when the seek `.failed`.
    public let error: MediaError?
    /// Errors reported on the way to the landed frame (`SeekLanding.decodeErrors`); 0 when
    /// the seek did not land.
    public let decodeErrors: Int
    /// The stretch of unreadable media the target fell in (`SeekLanding.missingData`).
    public let missingData: MissingData?
    /// What the seek read from the media (`SeekLanding.reads`): bytes, and requests over
    /// HTTP; nil when the seek did not land or the engine does not count.
    public let reads: MediaReads?
    /// Packets of the stream demuxed for the seek (`SeekLanding.packetsRead`).
    public let packetsRead: Int
    /// Packets read and not decoded (`SeekLanding.framesSkipped`).
    public let framesSkipped: Int
    /// Time inside the decoder (`SeekLanding.decodeTime`), a part of `latency`.
    public let decodeTime: Duration
    /// Whether the frame cache or a parked decoder served the seek, with no seek in the media
    /// (`SeekLanding.servedFromCache`, AVMetrics' `didSeekInBuffer`).
    public let servedFromCache: Bool
    /// The program date (EXT-X-PROGRAM-DATE-TIME) of the landed frame, exact: beside
    /// `landedMediaTime` for an item whose live window is date-addressable. Nil for files,
    /// playlists without dates, and seeks that did not land.
    public let landedDate: ProgramDate?

    /// Whether the landed frame may differ from a clean decode of intact media
    /// (`SeekLanding.damaged`); false when the seek did not land.
    public var damaged: Bool { decodeErrors > 0 || missingData != nil }

    /// True when the seek landed.
    public var finished: Bool { interruption == nil }

    /// `requestedMediaTime` in seconds, for display.
    public var requestedTime: Double { requestedMediaTime.seconds }
    /// `landedMediaTime` in seconds, for display; NaN with nothing loaded.
    public var landedTime: Double { landedMediaTime.seconds }
    /// `landedMediaTime - requestedMediaTime`, exact; `.invalid` with nothing loaded.
    public var deltaMediaTime: MediaTime { accuracy.deltaMediaTime }
    /// The size of `deltaMediaTime`; `.invalid` with nothing loaded.
    public var absoluteDeltaMediaTime: MediaTime { accuracy.absoluteDeltaMediaTime }
    /// `deltaMediaTime` in seconds, for display; NaN with nothing loaded.
    public var delta: Double { deltaMediaTime.seconds }
    /// `absoluteDeltaMediaTime` in seconds, for display; NaN with nothing loaded.
    public var absoluteDelta: Double { absoluteDeltaMediaTime.seconds }
    /// Whether the landed frame meets the precision's window; false when the seek did not land.
    public var withinRequestedTolerance: Bool { accuracy.withinRequestedTolerance }
    /// `landedDate` as a Foundation `Date`, as the SDK reports the date a seek reached (named
    /// like `LiveSeekWindow.startDate`); precision below ~0.1 µs is lost, so compare
    /// `landedDate` instead.
    public var landedFoundationDate: Date? { landedDate?.date }

    /// An outcome for a seek that landed; `landedDate` is the landed frame's program date, when
    /// the item has dates.
    public init(landing: SeekLanding, latency: Duration, landedDate: ProgramDate? = nil) {
        requestedMediaTime = landing.plan.requested
        precision = landing.plan.precision
        accuracy = landing.accuracy
        clamp = landing.plan.clamp
        interruption = nil
        self.latency = latency
        framesDecoded = landing.framesDecoded
        frameIndex = landing.frame.index
        error = nil
        decodeErrors = landing.decodeErrors
        missingData = landing.missingData
        reads = landing.reads
        packetsRead = landing.packetsRead
        framesSkipped = landing.framesSkipped
        decodeTime = landing.decodeTime
        servedFromCache = landing.servedFromCache
        self.landedDate = landedDate
    }

    /// An outcome for a seek that did not land, with the playhead where it stayed (`.invalid`
    /// when nothing was loaded).
    public init(
        requested: MediaTime, precision: SeekPrecision, clamp: SeekClamp,
        interruption: SeekInterruption, playhead: MediaTime, latency: Duration,
        framesDecoded: Int = 0, error: MediaError? = nil
    ) {
        requestedMediaTime = requested
        self.precision = precision
        accuracy = SeekAccuracy(requested: requested, notLandedWithPlayheadAt: playhead, precision: precision)
        self.clamp = clamp
        self.interruption = interruption
        self.latency = latency
        self.framesDecoded = framesDecoded
        frameIndex = nil
        self.error = error
        decodeErrors = 0
        missingData = nil
        reads = nil
        packetsRead = 0
        framesSkipped = 0
        decodeTime = .zero
        servedFromCache = false
        landedDate = nil
    }
}
