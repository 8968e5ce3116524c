import FrameSeekCore

/// How `LandingExecutor.land(_:mode:interruption:)` produces the planned frame.
package enum LandingMode: Sendable, Hashable {
    /// Decode on from where the decoder stands when that reaches the frame for no more work
    /// than a seek, else seek to the plan's random access point and decode forward.
    case decode
    /// As `decode`, keeping every frame on the way that the cache can hold: a backward step,
    /// so the backward steps after it find their frames without decoding again.
    case refillingBackward
    /// As `decode`, for a forward frame step: the landed frame joins the cache's short trail
    /// of recent steps (`FrameCache.trailFrames`) instead of its least-recently-used pool, so
    /// a sequential pass does not fill the cache with frames it never asks for again.
    case steppingForward
    /// As `steppingForward`, for a step landed ahead of its caller (`DecodeAhead`): the landed
    /// frame is held beside the cache, not in its trail. The step that takes it puts it there
    /// then, so the cache is as if the step had landed then.
    case steppingAhead
    /// Read and decode only the planned keyframe's packet, then drain the decoder: one packet
    /// per picture instead of a GOP (thumbnails). Decodes as `decode` does when the planned
    /// frame is not a random access point of its own, the stream's packets cannot be told
    /// apart (decode-scanned tables), or that one packet does not produce the frame. A keyframe
    /// `KeyframePrefetch` decoded during the opening scan is taken from there instead.
    case keyframeOnly
    /// As `decode`, for a landing in a batch that goes forward (`seek(to:precision:...)` with
    /// several times): the frames on the way to the target are never kept in the cache, so
    /// every non-reference frame among them is skipped, however near the previous landing, and
    /// the landed frame joins the trail, as a forward step's does.
    case forwardPass
}

/// Where a decoder stands between landings. Changed only by its own methods, as the decoding
/// run reports what the decoder did.
struct DecodePosition {
    /// The random access point decoding started from after the last demuxer seek.
    private(set) var startPoint: RandomAccessPoint
    /// PTS of the last frame the decoder produced, nil before the first.
    private(set) var lastOutputPTS: Int64?
    /// PTS of the frame it produced before that one: when the output jumps over a target, the
    /// frames between the two are the ones this decode does not produce.
    private(set) var previousOutputPTS: Int64?
    /// True once the demuxer hit the end and the decoder was told so. The decoder still
    /// hands out the frames it held back, until it is drained.
    private(set) var endOfStreamSent = false
    /// True once the decoder returned its last frame: only a flush makes it usable again.
    private(set) var drained = false
    /// True when the end of the stream was sent before the demuxer's end, by a run that gave
    /// up on its target: the packets after that point were never read.
    private(set) var stoppedReading = false
    /// Decode errors counted since the decoder was last flushed (see `SeekLanding.decodeErrors`):
    /// every frame that comes out before the next flush may depend on the damaged data.
    private(set) var decodeErrors = 0
    /// Non-reference frames with a PTS below this were skipped since the last seek: a target
    /// below it may never come out, so going on from here cannot reach it.
    private(set) var skippedBeforePTS: Int64?

    /// A decoder just flushed and sought, to decode from `startPoint`.
    init(startPoint: RandomAccessPoint) { self.startPoint = startPoint }

    /// The decoder produced the frame with `pts` (nil when it gave none).
    mutating func recordOutput(pts: Int64?) {
        previousOutputPTS = lastOutputPTS
        lastOutputPTS = pts
    }

    /// The decoder returned its last frame.
    mutating func recordDrained() { drained = true }

    /// The decoder was told that no more packets come; `early` when the demuxer had not
    /// reached its end.
    mutating func recordEndOfStreamSent(early: Bool = false) {
        endOfStreamSent = true
        stoppedReading = stoppedReading || early
    }

    /// One more decode error on the way: invalid data, a corrupt packet or a damaged frame.
    mutating func countDecodeError() { decodeErrors += 1 }

    /// Non-reference frames with a PTS below `pts` are being skipped.
    mutating func recordSkipping(before pts: Int64) { skippedBeforePTS = max(skippedBeforePTS ?? pts, pts) }

    /// The decoder reads the keyframe `point` next, having stood just before it: decoding goes
    /// on from there as if it had started there. A point before the current start is ignored.
    mutating func advanceStart(to point: RandomAccessPoint) {
        if point.pts > startPoint.pts { startPoint = point }
    }
}
