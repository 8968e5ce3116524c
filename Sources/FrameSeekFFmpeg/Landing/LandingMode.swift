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

/// Where a decoder stands between landings.
struct DecodePosition {
    /// The random access point decoding started from after the last demuxer seek.
    var startPoint: RandomAccessPoint
    /// PTS of the last frame the decoder produced, nil before the first.
    var lastOutputPTS: Int64?
    /// PTS of the frame it produced before that one: when the output jumps over a target, the
    /// frames between the two are the ones this decode does not produce.
    var previousOutputPTS: Int64?
    /// True once the demuxer hit the end and the decoder was told so. The decoder still
    /// hands out the frames it held back, until it is drained.
    var endOfStreamSent: Bool
    /// True once the decoder returned its last frame: only a flush makes it usable again.
    var drained = false
    /// Decode errors counted since the decoder was last flushed (see `SeekLanding.decodeErrors`):
    /// every frame that comes out before the next flush may depend on the damaged data.
    var decodeErrors = 0
    /// Non-reference frames with a PTS below this were skipped since the last seek: a target
    /// below it may never come out, so going on from here cannot reach it.
    var skippedBeforePTS: Int64?
}
