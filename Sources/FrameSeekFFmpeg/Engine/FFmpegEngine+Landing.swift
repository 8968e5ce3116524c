import FrameSeekCore

extension FFmpegEngine {
    /// Seeks as the landing rules say and decodes the landed frame.
    ///
    /// The landing is planned once on the frame table (`FrameTable.planLanding`) and carried
    /// out by the engine's `LandingExecutor`: decode forward when a decoder already sits
    /// before the frame in the same GOP, else seek the demuxer to the random access point,
    /// flush, and decode forward, checking that decoding really starts at or before the target.
    public func seek(
        to time: MediaTime, precision: SeekPrecision,
        interruption: SeekInterruptionFlag?
    ) throws(MediaError) -> SeekLanding {
        decodeAhead.abandon()
        if let deferredIndex, !executor.table.coversStream {
            return try seekInWindow(to: time, precision: precision, interruption: interruption, deferredIndex: deferredIndex)
        }
        return try executor.land(executor.plan(at: time, precision: precision), interruption: interruption)
    }

    /// Plans the landing for `time` at `precision` by the landing rules
    /// (`FrameTable.planLanding`) on the whole stream's table, failing as this file's
    /// `MediaError`.
    package func plan(at time: MediaTime, precision: SeekPrecision) throws(MediaError) -> LandingPlan {
        try completeFrameTable()
        return try executor.plan(at: time, precision: precision)
    }

    /// Carries out `plan` (`LandingExecutor.land(_:mode:interruption:)`): seeks, steps,
    /// thumbnails and scrub previews all land through here with a plan made once by the
    /// landing rules.
    ///
    /// - Parameter interruption: polled between packets; when set, the landing throws
    ///   `MediaError` with reason `.interrupted`.
    package func land(
        _ plan: LandingPlan, mode: LandingMode = .decode,
        interruption: SeekInterruptionFlag? = nil
    ) throws(MediaError) -> SeekLanding {
        decodeAhead.abandon()
        return try executor.land(plan, mode: mode, interruption: interruption)
    }

    /// The last frame landed on, as FFmpeg decoded it. While the next step is decoded ahead,
    /// the caller's own reference to it, read without waiting (`DecodeAhead.standing`).
    var landedFrame: Frame { decodeAhead.standing?.frame ?? executor.landedFrame }

    /// The table index of the last frame landed on, nil before any.
    var landedFrameIndex: Int? { decodeAhead.standing.map(\.index) ?? executor.landedFrameIndex }

    /// Frames known not to come out of the decoder, even decoding from the start, with why.
    var undecodable: [Int: String] { executor.undecodable }

    /// The decoders parked in recently visited GOPs (see `DecoderPool`).
    var pool: DecoderPool { executor.pool }

    /// The PTS the decoder gave the landed frame, as it came out: nil before any landing.
    package var landedFramePTS: Int64? { landedFrameIndex == nil ? nil : landedFrame.pts }

    /// The landed frame as 8-bit RGB scaled to `width` x `height` (coded orientation), in one
    /// swscale call straight from the decoder's pixel format: what a thumbnail needs.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`) when swscale cannot convert to that size.
    package func landedImage(width: Int, height: Int) throws(MediaError) -> RGBImage? {
        try landedRGB(width: width, height: height)
    }
}
