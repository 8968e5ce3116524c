/// What an engine did for one seek: the plan, the frame it produced, and what that cost.
public struct SeekLanding: Sendable, Hashable {
    /// The decision made on the frame table.
    public let plan: LandingPlan
    /// The frame landed on; its time was read back from the decoded frame.
    public let frame: FrameEntry
    /// The presentation index of the keyframe decoding started from, or nil when that
    /// keyframe is a packet an edit list discards (it is not a frame) or nothing was decoded.
    public let keyframeIndex: Int?
    /// Requested versus landed, in rational time.
    public let accuracy: SeekAccuracy
    /// Frames the decoder produced for this seek, the landed one included (0 on a cache hit).
    public let framesDecoded: Int
    /// Demuxer seeks made (0 when decoding simply went forward; more than 1 when the
    /// demuxer landed late and had to be sent further back).
    public let demuxerSeeks: Int
    /// Monotonic time from the call to the landed frame being available.
    public let latency: Duration
    /// Errors the decoder and demuxer reported between the random access point decoding
    /// started from and the landed frame (inclusive): packets the decoder rejected or logged
    /// errors for, packets the demuxer flagged corrupt, frames the decoder flagged. Packets
    /// sent after the landed frame in decode order (B-frame reordering) may be counted too:
    /// the count errs toward damage, never away from it.
    public let decodeErrors: Int

    /// What the landing read from the media: bytes, and requests over HTTP. Nil where the
    /// engine does not count (an HLS window, whose segments are fetched whole when opened).
    public let reads: MediaReads?

    /// Packets of the stream read from the demuxer for this landing (frames demuxed); 0 on a
    /// cache hit.
    public let packetsRead: Int
    /// Packets read and never decoded into a frame: those before the start point when the
    /// demuxer landed early, and the non-reference frames before the target that the decoder
    /// dropped (`skip_frame`).
    public let framesSkipped: Int
    /// Time spent inside the decoder (`avcodec_send_packet`, `avcodec_receive_frame`), a part
    /// of `latency`; the rest is demuxing, reading and the engine's own work.
    public let decodeTime: Duration
    /// Whether the landing needed no seek: the frame cache held the frame, or a decoder
    /// parked in the pool went on to it (AVMetrics' `didSeekInBuffer`).
    public let servedFromCache: Bool

    /// Whether `frame.index` and `keyframeIndex` are the frames' numbers in the stream: false
    /// when the landing was planned on a seek window (`FrameTable.Source.seekWindow`), whose
    /// frames are numbered from the window's start because the frames before it were never
    /// indexed. The PTS, time and picture are the same either way.
    public let isIndexed: Bool

    /// The stretch of unreadable media the target fell in, if it did: then no frame of the
    /// file shows at the target, and the landing is the nearest the rules could do.
    public let missingData: MissingData?

    /// Whether the landing may differ from a clean decode of intact media: any error on the
    /// way to the frame, or a target inside missing media. A regression tool must not compare
    /// such a frame's MD5 as a true one.
    public var damaged: Bool { decodeErrors > 0 || missingData != nil }

    /// Creates a landing record.
    public init(
        plan: LandingPlan, frame: FrameEntry, keyframeIndex: Int?, framesDecoded: Int,
        demuxerSeeks: Int, latency: Duration, decodeErrors: Int = 0, missingData: MissingData? = nil,
        reads: MediaReads? = nil, packetsRead: Int = 0, framesSkipped: Int = 0, decodeTime: Duration = .zero,
        servedFromCache: Bool = false, isIndexed: Bool = true
    ) {
        self.plan = plan
        self.frame = frame
        self.keyframeIndex = keyframeIndex
        let window = plan.precision.window
        self.accuracy = SeekAccuracy(
            requested: plan.requested, landed: frame.time,
            landedDuration: frame.end - frame.time,
            toleranceBefore: window.before, toleranceAfter: window.after)
        self.framesDecoded = framesDecoded
        self.demuxerSeeks = demuxerSeeks
        self.latency = latency
        self.decodeErrors = decodeErrors
        self.missingData = missingData
        self.reads = reads
        self.packetsRead = packetsRead
        self.framesSkipped = framesSkipped
        self.decodeTime = decodeTime
        self.servedFromCache = servedFromCache
        self.isIndexed = isIndexed
    }

    /// This landing with the cost of reading its seek window added: the window's reads,
    /// demuxer seeks and time come before the landing's own.
    public func addingWindowCost(
        reads windowReads: MediaReads?, demuxerSeeks windowSeeks: Int, latency windowLatency: Duration
    )
        -> SeekLanding
    {
        let total: MediaReads? =
            switch (reads, windowReads) {
            case (let a?, let b?): a + b
            case (let a?, nil): a
            case (nil, let b?): b
            case (nil, nil): nil
            }
        return SeekLanding(
            plan: plan, frame: frame, keyframeIndex: keyframeIndex, framesDecoded: framesDecoded,
            demuxerSeeks: demuxerSeeks + windowSeeks, latency: latency + windowLatency, decodeErrors: decodeErrors,
            missingData: missingData, reads: total, packetsRead: packetsRead, framesSkipped: framesSkipped,
            decodeTime: decodeTime, servedFromCache: servedFromCache, isIndexed: isIndexed)
    }
}
