import FrameSeekCore

/// How `FFmpegEngine.land(_:mode:interruption:)` produces the planned frame.
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

extension FFmpegEngine {
    /// Plans the landing for `time` at `precision` by the landing rules
    /// (`FrameTable.planLanding`), failing as this file's `MediaError`.
    package func plan(at time: MediaTime, precision: SeekPrecision) throws(MediaError) -> LandingPlan {
        do {
            return try frameTable.planLanding(at: time, precision: precision)
        } catch {
            throw MediaError(path: path, reason: .invalidRequest, detail: error.description)
        }
    }

    /// Carries out `plan`: the one function where a landing happens. Seeks, steps, thumbnails
    /// and scrub previews all come here with a plan made once by the landing rules.
    ///
    /// A frame in the cache lands without decoding, whatever the mode. Otherwise the frame is
    /// decoded as `mode` says (see `LandingMode`), and kept in the cache. The landing reports
    /// the frame the decoder really produced, identified by its PTS in the frame table: on
    /// decode-scanned (audio) streams the decoder's frame covering the target is the landing,
    /// and it need not carry the planned frame's PTS.
    ///
    /// - Parameter interruption: polled between packets; when set, the landing throws
    ///   `MediaError` with reason `.interrupted`.
    package func land(
        _ plan: LandingPlan, mode: LandingMode = .decode,
        interruption: SeekInterruptionFlag? = nil
    ) throws(MediaError) -> SeekLanding {
        self.interruption = interruption
        defer { self.interruption = nil }
        let clock = ContinuousClock()
        let start = clock.now
        let readsBefore = readsSoFar
        let index = plan.frameIndex
        let point = plan.randomAccessPoint
        let work: DecodeWork
        let fromCache: Bool
        if let cached = cache.frame(index) ?? prefetchedKeyframe(index, from: point, mode: mode) {
            try landFromCache(cached.frame, as: index)
            landedDecodeErrors = cached.decodeErrors
            fromCache = true
            work = DecodeWork(startPoint: point, tally: DecodeTally(), demuxerSeeks: 0, continuedParkedDecoder: false)
        } else {
            var cachingFrom: Int?
            let draggingBack = landedFrameIndex.map { index < $0 } == true && position?.startPoint == point
            if mode == .refillingBackward || (mode == .decode && draggingBack) {
                // A scrub dragging back inside the GOP the decoder stands in refills as a
                // backward step does. Only the frames nearest the target survive the bound;
                // inserting the others would only evict them again.
                let fitting = cache.capacity(framesOf: max(1, landedFrame.byteCount))
                cachingFrom = max(point.frameIndex ?? 0, index - fitting + 1)
            }
            work = try decode(
                frame: index, startingAt: point, cachingFrom: cachingFrom,
                keyframeOnly: mode == .keyframeOnly && decodesAlone(index, from: point),
                forwardPass: mode == .forwardPass)
            fromCache = work.continuedParkedDecoder
            landedFrameIndex = decodedFrameIndex(planned: index)
            // A pass forward (steps, a batch) rarely lands on a frame again: its landings keep
            // to the short trail, so the decoder's buffers go back to its pool instead of the
            // cache holding a fresh one per landing.
            cache.insert(
                landedFrame, as: landedFrameIndex ?? index, decodeErrors: landedDecodeErrors,
                trailing: mode == .steppingForward || mode == .forwardPass)
        }
        return SeekLanding(
            plan: plan, frame: frameTable.frames[landedFrameIndex ?? index],
            keyframeIndex: work.startPoint.frameIndex, framesDecoded: work.tally.framesDecoded,
            demuxerSeeks: work.demuxerSeeks, latency: clock.now - start,
            decodeErrors: landedDecodeErrors, missingData: frameTable.missingData(at: plan.target),
            reads: readsSoFar - readsBefore, packetsRead: work.tally.packetsRead,
            framesSkipped: work.tally.framesSkipped, decodeTime: work.tally.decodeTime,
            servedFromCache: fromCache)
    }

    /// What every demuxer of the pool has read, and those it replaced: a landing's reads are
    /// the difference across it, whichever decoders it used or opened.
    var readsSoFar: MediaReads {
        pool.slots.reduce(retiredReads) { $0 + $1.demuxer.reads }
    }

    /// The PTS the decoder gave the landed frame, as it came out: nil before any landing.
    package var landedFramePTS: Int64? { landedFrameIndex == nil ? nil : landedFrame.pts }

    /// The landed frame as 8-bit RGB scaled to `width` x `height` (coded orientation), in one
    /// swscale call straight from the decoder's pixel format: what a thumbnail needs.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`) when swscale cannot convert to that size.
    package func landedImage(width: Int, height: Int) throws(MediaError) -> RGBImage? {
        try landedRGB(width: width, height: height)
    }

    /// Keyframe `index` as `KeyframePrefetch` decoded it during the opening scan, for a
    /// keyframe-only landing: from its packet alone, with no error, so what this landing would
    /// decode. Taken from the prefetch and kept in the cache as a decoded frame is.
    private func prefetchedKeyframe(
        _ index: Int, from point: RandomAccessPoint,
        mode: LandingMode
    ) -> (frame: Frame, decodeErrors: Int)? {
        guard mode == .keyframeOnly, decodesAlone(index, from: point),
            let frame = keyframePrefetch?.take(pts: frameTable.frames[index].pts)
        else { return nil }
        cache.insert(frame, as: index, decodeErrors: 0)
        return (frame, 0)
    }

    /// Whether frame `index` decodes from its own packet alone: a keyframe that is its own
    /// random access point, on a stream whose packets are known by PTS (so the packet read
    /// after a seek can be recognised as that keyframe's).
    private func decodesAlone(_ index: Int, from point: RandomAccessPoint) -> Bool {
        frameTable.frames[index].isKeyframe && point.pts == frameTable.frames[index].pts && packetOrder.identifiesPackets
    }

    /// The table index of the frame in `landedFrame`, by the PTS the decoder gave it.
    ///
    /// Every packet-scanned landing carries its frame's PTS exactly. A decode-scanned (audio)
    /// landing is the decoder's frame covering the target, and after a seek back to the start
    /// some decoders keep the priming samples the scan saw trimmed (Opus in Matroska, MP3): the
    /// frame comes out earlier than its table entry, by less than a frame, so it is the first
    /// table frame starting after its PTS.
    private func decodedFrameIndex(planned: Int) -> Int {
        guard let pts = landedFrame.pts else { return planned }
        if let exact = frameTable.frameIndex(ofPTS: pts) { return exact }
        let covering = frameTable.frameIndex(covering: frameTable.time(ofPTS: pts))
        return min((covering ?? -1) + 1, frameTable.frames.count - 1)
    }
}
