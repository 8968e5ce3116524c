import FrameSeekCore

/// Carries out landing plans on one media's frame table: the decoders (`DecoderPool`), where
/// each stands, the landed frame and the frame cache are its own, and only it changes them.
///
/// An exact seek reads top-down here: `land(_:mode:interruption:)` takes the frame from the
/// cache, or `decode(frame:startingAt:cachingFrom:keyframeOnly:forwardPass:)` picks a decoder
/// that can go on to it or seeks one (`reposition(seekingTo:decodingFrom:fromFileStart:)`),
/// then decodes forward to its PTS (`run(toPTS:skippingTo:cachingFrom:keyframeOnly:tally:)`,
/// in `LandingExecutor+Decoding.swift`), going further back when the demuxer lands late or
/// the decoder misses the frame.
///
/// Not Sendable, as the engine that owns it: its demuxers and decoders are FFmpeg contexts.
final class LandingExecutor {
    /// How many times a seek goes further back when the demuxer lands late or the decoder
    /// cannot produce the frame, before decoding from the start of the file.
    static let seekRetries = 3

    /// The opened media: its path names errors, its selected stream says how to seek. Its
    /// truncation may be found by a landing (`noteTruncation(_:)`).
    private(set) var media: MediaDescription
    /// The selected stream's frames in presentation order: what plans are made on. A seek
    /// window until the engine needs the whole stream's table (`adopt(_:)`).
    private(set) var table: FrameTable
    /// Decode order of every packet of the table by PTS (packet-scanned tables only): how a
    /// packet read after a seek is recognised.
    private(set) var packetOrder: DecodeOrderByPTS
    /// `FFmpegEngine.Options.skipsNonReferenceFrames`.
    let skipsNonReferenceFrames: Bool
    /// Keyframes decoded while the file was scanned; nil unless the engine prefetches.
    let keyframePrefetch: KeyframePrefetch?
    /// The decoders parked in recently visited GOPs, and the one that lands now.
    private(set) var pool: DecoderPool
    /// Decoded frames kept for scrubbing and backward steps.
    let cache: FrameCache
    /// The last frame landed on, kept as FFmpeg decoded it; converted only on request.
    let landedFrame = Frame()
    /// The table index of `landedFrame`; nil before any landing and after a failed one.
    private(set) var landedFrameIndex: Int?
    /// Decode errors counted on the way to `landedFrame` (see `SeekLanding.decodeErrors`).
    /// Set where a frame lands: here, and by `run(toPTS:...)` in `LandingExecutor+Decoding.swift`.
    var landedDecodeErrors = 0
    /// Frames the decoder did not produce even when decoding from the start of the file, with
    /// why: asked for again, they fail at once instead of decoding the file again.
    private(set) var undecodable: [Int: String] = [:]
    /// The flag of the landing in progress, polled between packets.
    private(set) var interruption: SeekInterruptionFlag?
    /// Whether the landing in progress heeds its flag only once a run of it missed its frame (a
    /// step decoded ahead, `LandingMode.steppingAhead`): until then it is one step's decoding,
    /// which the step that may take it would wait for anyway, while the retries after a miss
    /// can decode from the start of the file, which a caller who wants something else must not
    /// wait for.
    private(set) var interruptsOnlyRetries = false
    /// Landings stopped by their interruption flag so far.
    private(set) var interruptedLandings = 0
    /// The frame and the packet every decoding run reads into.
    let buffers = (frame: Frame(), packet: Packet())
    /// Landings so far, counting a landed frame put back (`restoreLanding(_:)`) and a table
    /// adopted: a step decoded ahead (`DecodeAhead`) is taken only while this has not moved.
    private(set) var landingCount = 0
    /// The frame the last step decoded ahead of its caller landed on (`DecodeAhead`), kept
    /// beside the cache: the step that follows takes it (`landDecodedAhead()`), and any other
    /// landing on it finds it as it finds a cached frame, since the decoder has gone past it.
    private var decodedAhead: (index: Int, frame: Frame, decodeErrors: Int, decoded: Bool, lender: DecoderHoldings)?

    init(
        media: MediaDescription, table: FrameTable, packetOrder: DecodeOrderByPTS, pool: DecoderPool,
        cacheBytes: Int, skipsNonReferenceFrames: Bool, keyframePrefetch: KeyframePrefetch?
    ) {
        self.media = media
        self.table = table
        self.packetOrder = packetOrder
        self.pool = pool
        self.cache = FrameCache(capacityBytes: cacheBytes)
        self.skipsNonReferenceFrames = skipsNonReferenceFrames
        self.keyframePrefetch = keyframePrefetch
    }

    /// The media's path, as errors name it.
    var path: String { media.path }

    /// Records that the stream ends before the container says: found by a seek window that
    /// read to the end of the stream, when the open read too little to tell.
    func noteTruncation(_ truncation: Truncation) {
        guard media.truncation == nil else { return }
        media = media.with(truncation: truncation)
    }

    /// Plans and lands on `built` from now on: another seek window, or the whole stream's
    /// table. Everything keyed by the old table's frame indices goes: the cached frames, what
    /// was found undecodable and where each decoder stands. The landed frame stays landed,
    /// found in the new table by its PTS.
    func adopt(_ built: FrameTableBuilder.Result) {
        let landedPTS = landedFrameIndex == nil ? nil : landedFrame.pts
        table = built.table
        packetOrder = built.packetOrder
        cache.removeAll()
        undecodable = [:]
        landedFrameIndex = landedPTS.flatMap(built.table.frameIndex(ofPTS:))
        pool.forgetPositions()
        decodedAhead = nil
        landingCount += 1
        pool.keepWithinBound()
    }

    /// The landed frame, moved out of `landedFrame` (no pixel is copied) with its index and
    /// damage, so that another landing can run and the frame be put back: how `DecodeAhead`
    /// lands the next step and leaves the engine standing where it was. The index stays.
    func setLandingAside() -> (frame: Frame, index: Int?, decodeErrors: Int) {
        let frame = Frame()
        frame.take(landedFrame)
        return (frame, landedFrameIndex, landedDecodeErrors)
    }

    /// Makes `landing`, set aside by `setLandingAside()`, the landed frame again; it cannot fail,
    /// as the frame's buffers move back without a reference being made.
    func restoreLanding(_ landing: (frame: Frame, index: Int?, decodeErrors: Int)) {
        landedFrame.take(landing.frame)
        landedFrameIndex = landing.index
        landedDecodeErrors = landing.decodeErrors
        landingCount += 1
    }

    /// Moves the frame a step decoded ahead just landed on (`LandingMode.steppingAhead`) out of
    /// `landedFrame` into `decodedAhead`; `decoded` says it did not come from the cache.
    func holdLandingAhead(decoded: Bool) {
        guard let index = landedFrameIndex else { return }
        let frame = Frame()
        frame.take(landedFrame)
        decodedAhead = (index, frame, landedDecodeErrors, decoded, pool.active.holdings)
    }

    /// Lands the frame the step decoded ahead landed on, as that step would have landed it now:
    /// a decoded frame joins the cache's trail. False when none is held.
    func landDecodedAhead() -> Bool {
        guard let ahead = decodedAhead else { return false }
        decodedAhead = nil
        landedFrame.take(ahead.frame)
        landedFrameIndex = ahead.index
        landedDecodeErrors = ahead.decodeErrors
        landingCount += 1
        if ahead.decoded {
            cache.insert(landedFrame, as: ahead.index, decodeErrors: ahead.decodeErrors, trailing: true, lentBy: ahead.lender)
            pool.keepWithinBound()
        }
        return true
    }

    /// Frame `index`, when a step decoded ahead landed on it and no step took it, for a seek or
    /// a step: kept in the cache as that landing would keep a frame it decoded. Not for a batch
    /// or a thumbnail, whose landings report the work and damage of a decode from the keyframe
    /// whichever decoder lands them.
    private func takeDecodedAhead(_ index: Int, mode: LandingMode) -> (frame: Frame, decodeErrors: Int)? {
        guard [.decode, .steppingForward, .refillingBackward].contains(mode), let ahead = decodedAhead, ahead.index == index
        else { return nil }
        decodedAhead = nil
        cache.insert(
            ahead.frame, as: index, decodeErrors: ahead.decodeErrors, trailing: mode == .steppingForward || mode == .forwardPass,
            lentBy: ahead.lender)
        pool.keepWithinBound()
        return (ahead.frame, ahead.decodeErrors)
    }

    /// The active decoder's position; nil means "unknown: seek before decoding". Moved, through
    /// its slot, by the landing here and by the decoding run (`LandingExecutor+Decoding.swift`),
    /// nowhere else.
    var position: DecodePosition? { pool.active.position }

    /// Plans the landing for `time` at `precision` by the landing rules
    /// (`FrameTable.planLanding`), failing as this file's `MediaError`.
    func plan(at time: MediaTime, precision: SeekPrecision) throws(MediaError) -> LandingPlan {
        try table.planLanding(at: time, precision: precision, for: path)
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
    func land(
        _ plan: LandingPlan, mode: LandingMode = .decode,
        interruption: SeekInterruptionFlag? = nil
    ) throws(MediaError) -> SeekLanding {
        self.interruption = interruption
        interruptsOnlyRetries = mode == .steppingAhead
        defer { self.interruption = nil }
        landingCount += 1
        let clock = ContinuousClock()
        let start = clock.now
        let readsBefore = pool.reads
        let index = plan.frameIndex
        let point = plan.randomAccessPoint
        let work: DecodeWork
        let fromCache: Bool
        if let cached = cache.frame(index) ?? prefetchedKeyframe(index, from: point, mode: mode) ?? takeDecodedAhead(index, mode: mode) {
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
            if mode != .steppingAhead {
                cache.insert(
                    landedFrame, as: landedFrameIndex ?? index, decodeErrors: landedDecodeErrors,
                    trailing: mode == .steppingForward || mode == .forwardPass, lentBy: pool.active.holdings)
            }
            // The decoder grew, and the cache may have dropped frames back into parked
            // decoders' pools. A cache hit changes neither.
            pool.keepWithinBound()
        }
        return SeekLanding(
            plan: plan, frame: table.frames[landedFrameIndex ?? index],
            keyframeIndex: work.startPoint.frameIndex, framesDecoded: work.tally.framesDecoded,
            demuxerSeeks: work.demuxerSeeks, latency: clock.now - start,
            decodeErrors: landedDecodeErrors, missingData: table.missingData(at: plan.target),
            reads: pool.reads - readsBefore, packetsRead: work.tally.packetsRead,
            framesSkipped: work.tally.framesSkipped, decodeTime: work.tally.decodeTime,
            servedFromCache: fromCache, isIndexed: table.numbersStreamFrames)
    }

    /// Forgets where the active decoder stands, so the next landing seeks: a batch run that
    /// must report the same work and damage whichever decoder lands it.
    func forgetActivePosition() {
        pool.active.forgetPosition()
    }

    /// The work one landing took.
    struct DecodeWork {
        let startPoint: RandomAccessPoint
        let tally: DecodeTally
        let demuxerSeeks: Int
        /// Whether a parked decoder went on to the frame, without a seek.
        let continuedParkedDecoder: Bool
    }

    /// What one forward decoding run ended with.
    enum RunResult {
        case landed
        /// The demuxer delivered a packet after the start point before the start point itself.
        case demuxerLandedLate
        /// The decoder produced a frame after the target, or ran out, without the target.
        case targetMissed
        /// The seek's interruption flag was set: a newer seek or a cancel.
        case interrupted
    }

    /// Decodes until frame `index` is in `landedFrame`, caching frames from `cachingFrom` on.
    /// A short run on from where a decoder stands caches the frames on the way (a drag forward
    /// or a step), except in a `forwardPass` (a batch, which only goes forward): there every
    /// run skips as a seek does, and a start from a keyframe reuses the active decoder, which
    /// the batch has left behind for good, instead of parking another.
    ///
    /// With `keyframeOnly`, the frame must be a keyframe that is its own random access point:
    /// the demuxer seeks to it and only its packet is decoded, then the decoder is drained. A
    /// demuxer that lands late is sent further back as on the ordinary path (the packets before
    /// the keyframe are passed over undecoded); when the packet alone does not give the frame,
    /// decoding starts over as an ordinary landing.
    private func decode(
        frame index: Int, startingAt point: RandomAccessPoint, cachingFrom: Int?,
        keyframeOnly: Bool, forwardPass: Bool
    ) throws(MediaError) -> DecodeWork {
        let target = table.frames[index]
        if let known = undecodable[index] {
            throw MediaError(
                path: path, reason: .decodeFailed,
                cause: "frame \(index) (pts \(target.pts)) cannot be decoded: \(known) (found by an earlier attempt)")
        }
        var decodeStart = point
        var seekPoint = point
        var tally = DecodeTally()
        var seeks = 0
        var attempt = 0

        var skipTo: RandomAccessPoint?
        var cachingFrom = cachingFrom
        var continued = false
        var keyframeOnly = keyframeOnly
        if !keyframeOnly, let parked = pool.slotDecodingOn(to: target, startingAt: point, in: table) {
            pool.activate(parked)
            pool.active.advanceStart(to: point)  // it may stand just before the keyframe of the target's GOP
            continued = true
            skipTo = nil  // the decoder already sits before the target, close enough to go on
            decodeStart = position?.startPoint ?? point
            // A short run on from where the decoder stands is a drag forward or a step: keep
            // every frame on the way, so dragging back over them lands in the cache. A long run
            // is a seek that happens to fall after a parked decoder: it skips what a seek skips.
            if !forwardPass, cachingFrom == nil, let last = position?.lastOutputPTS, let lastIndex = table.frameIndex(ofPTS: last),
                isDragDistance(from: lastIndex, to: index)
            {
                cachingFrom = lastIndex + 1
            }
        } else {
            let fitting = cache.capacity(framesOf: max(1, pool.active.holdings.pictureBytes))
            let lentFrames = min(fitting, cachingFrom.map { index - $0 + 1 } ?? 1)
            pool.activate(forwardPass ? pool.active : pool.slotForNewStart(lending: lentFrames))
            try reposition(seekingTo: seekPoint, decodingFrom: decodeStart, fromFileStart: false)
            announceReads(from: seekPoint, to: target, keyframeOnly: keyframeOnly)
            seeks += 1
            skipTo = decodeStart
        }

        // Whether a run missed the frame: the runs after it are retries over damage.
        var missed = false
        // No landing goes on from the last resort's decoder, which decodes through damage: the
        // next on its slot seeks, and `reposition` gives the slot a decoder that explodes.
        defer { if pool.active.decoder.toleratesDamage { pool.active.forgetPosition() } }
        while true {
            let result = try run(
                toPTS: target.pts, skippingTo: skipTo, cachingFrom: cachingFrom,
                keyframeOnly: keyframeOnly, afterMiss: missed, tally: &tally)
            if case .targetMissed = result { missed = true }
            switch result {
            case .landed:
                if keyframeOnly {
                    // The decoder was told the stream ended after the keyframe: whatever it held
                    // is gone, so the next landing repositions.
                    pool.active.decoder.flush()
                    pool.active.forgetPosition()
                }
                return DecodeWork(startPoint: decodeStart, tally: tally, demuxerSeeks: seeks, continuedParkedDecoder: continued)
            case .interrupted:
                throw interrupted(after: tally)
            case .demuxerLandedLate:
                seekPoint = table.randomAccessPoint(before: seekPoint) ?? seekPoint
            case .targetMissed where keyframeOnly:
                // The keyframe's packet alone did not give the frame: decode it as any other
                // landing, from the same place and with the same retries.
                keyframeOnly = false
                if isInterrupted(afterMiss: missed) { throw interrupted(after: tally) }
                try reposition(seekingTo: seekPoint, decodingFrom: decodeStart, fromFileStart: false)
                seeks += 1
                skipTo = decodeStart
                continue
            case .targetMissed where continued:
                // Going on from where the decoder stood did not produce the target: start over
                // from the planned keyframe before suspecting the stream.
                continued = false
                decodeStart = point
                seekPoint = point
            case .targetMissed:
                guard let earlier = table.randomAccessPoint(before: decodeStart) else {
                    // Already decoding from the first random access point: going back cannot
                    // help, and repeating the same decode would only repeat the miss. Only the
                    // start-of-file fallback is left, once.
                    attempt = max(attempt, Self.seekRetries)
                    break
                }
                decodeStart = earlier
                if decodeStart.pts < seekPoint.pts { seekPoint = decodeStart }
            }
            attempt += 1
            if attempt > Self.seekRetries + 1 { throw rememberUndecodable(from: index) }
            // Before repositioning, which may reopen the demuxer (a request over HTTP).
            if isInterrupted(afterMiss: missed) { throw interrupted(after: tally) }
            let lastResort = attempt > Self.seekRetries
            try reposition(
                seekingTo: seekPoint, decodingFrom: decodeStart, fromFileStart: lastResort,
                toleratingDamage: lastResort && tally.invalidData > 0)
            seeks += 1
            skipTo = decodeStart
        }
    }

    /// Whether the landing in progress is to stop: its flag is set, and it heeds it now (a step
    /// decoded ahead only once a run missed, `afterMiss`).
    func isInterrupted(afterMiss: Bool) -> Bool {
        interruption?.isInterrupted == true && (afterMiss || !interruptsOnlyRetries)
    }

    /// The error of a landing its flag stopped, counted in `interruptedLandings`.
    private func interrupted(after tally: DecodeTally) -> MediaError {
        interruptedLandings += 1
        return MediaError(
            path: path, reason: .interrupted,
            cause: "seek \(interruption?.interruption?.rawValue ?? "interrupted") after \(tally.framesDecoded) frames")
    }

    /// Flushes the active decoder and seeks its demuxer to `seekPoint` (or reopens it to read
    /// from the start of the file), to decode from `decodeStart`; with `toleratingDamage`, with
    /// a decoder that decodes through damage, and else with one that explodes on it
    /// (`useDecoder(toleratingDamage:)`).
    private func reposition(
        seekingTo seekPoint: RandomAccessPoint, decodingFrom decodeStart: RandomAccessPoint,
        fromFileStart: Bool, toleratingDamage: Bool = false
    ) throws(MediaError) {
        try useDecoder(toleratingDamage: toleratingDamage)
        pool.active.decoder.flush()
        pool.active.startDecoding(from: decodeStart)
        let demuxer = pool.active.demuxer
        if !fromFileStart {
            // An audio frame's packet has one timestamp, its PTS, except the first frame's,
            // which priming moved: past it, the table can say where the packet is.
            if media.selectedStream.mediaType == .audio, let frame = seekPoint.frameIndex, frame > 0,
                let position = table.frames[frame].packetPosition
            {
                demuxer.addSeekPoint(streamIndex: table.streamIndex, position: position, timestamp: seekPoint.pts)
            }
            do {
                // A PTS that lands late is sent further back below, as for any demuxer.
                try demuxer.seek(streamIndex: table.streamIndex, toKeyframe: seekPoint)
                return
            } catch {
                // Some inputs cannot seek at all; reading from the start still lands right.
            }
        }
        do {
            let reopened = try demuxer.reopened()
            reopened.selectOnly(streamIndex: table.streamIndex)
            pool.replaceActiveDemuxer(with: reopened)
        } catch {
            throw MediaError(path: path, reason: .readFailed, cause: "cannot reopen to decode from the start: \(error.message)")
        }
    }

    /// After decoding from the start of the file missed frame `index`, records it, and every
    /// other frame the decoder passed over in the same jump, as undecodable, so that the
    /// fallback runs once per stretch of damage: a sequential pass over a damaged file costs
    /// one decode of it, and so does a run of backward steps into the damage.
    ///
    /// The decoder hands frames out in presentation order, so when its output jumps from one
    /// frame to a later one (or it runs out), the frames in between will not come out of this
    /// decode: FFmpeg's own decode of the file lacks them too. A run that stopped reading past
    /// the next random access point (`giveUpOrder(forTarget:decoder:)`) passed every frame
    /// decoded before that point; the frames after it were not read and are left alone.
    private func rememberUndecodable(from index: Int) -> MediaError {
        let why = "the decoder does not produce it, even decoding from the start of the file"
        let table = self.table
        func frame(_ pts: Int64?) -> Int? { pts.flatMap(table.frameIndex(ofPTS:)) }
        let last = frame(position?.lastOutputPTS)
        // The frames between the last one produced before the target (or where decoding
        // started, if none was) and the first one produced after it (or the end, when the
        // decoder ran out) did not come out.
        let producedBefore = [last, frame(position?.previousOutputPTS)].compactMap { $0 }.filter { $0 < index }.max()
        var start = producedBefore.map { $0 + 1 } ?? min(position?.startPoint.frameIndex ?? index, index)
        let end: Int
        if position?.drained == true, position?.stoppedReading == false {
            end = table.frames.count
        } else if let last, last > index {
            end = last
        } else {
            let resumesAt = table.randomAccessPoint(after: index)?.decodeOrder ?? table.frames[index].decodeOrder + 1
            var passed = index + 1
            while passed < table.frames.count, table.frames[passed].decodeOrder < resumesAt { passed += 1 }
            end = passed
        }
        // Non-reference frames before `skippedBeforePTS` were skipped on purpose on the way
        // to the target: not coming out does not make them undecodable.
        if let skipped = position?.skippedBeforePTS {
            let firstNotSkipped = table.frames.firstIndex { $0.pts >= skipped } ?? index
            start = max(start, min(firstNotSkipped, index))
        }
        for skipped in start..<end { undecodable[skipped] = why }
        return MediaError(
            path: path, reason: .decodeFailed,
            cause: "frame \(index) (pts \(table.frames[index].pts)) cannot be decoded: \(why)")
    }

    /// Makes the cached frame `index` the landed frame, sharing its buffers.
    ///
    /// - Throws: `MediaError` when `av_frame_ref` fails (out of memory); nothing is landed then.
    private func landFromCache(_ cached: Frame, as index: Int) throws(MediaError) {
        do {
            try landedFrame.reference(cached)
        } catch {
            landedFrameIndex = nil
            throw MediaError(path: path, reason: .decodeFailed, cause: "cannot reference cached frame \(index): \(error.description)")
        }
        landedFrameIndex = index
    }

    /// Keyframe `index` as `KeyframePrefetch` decoded it during the opening scan, for a
    /// keyframe-only landing: from its packet alone, with no error, so what this landing would
    /// decode. Taken from the prefetch and kept in the cache as a decoded frame is.
    private func prefetchedKeyframe(
        _ index: Int, from point: RandomAccessPoint,
        mode: LandingMode
    ) -> (frame: Frame, decodeErrors: Int)? {
        guard mode == .keyframeOnly, decodesAlone(index, from: point),
            let frame = keyframePrefetch?.take(pts: table.frames[index].pts)
        else { return nil }
        cache.insert(frame, as: index, decodeErrors: 0, lentBy: nil)
        pool.keepWithinBound()
        return (frame, 0)
    }

    /// Whether frame `index` decodes from its own packet alone: a keyframe that is its own
    /// random access point, on a stream whose packets are known by PTS (so the packet read
    /// after a seek can be recognised as that keyframe's).
    private func decodesAlone(_ index: Int, from point: RandomAccessPoint) -> Bool {
        table.frames[index].isKeyframe && point.pts == table.frames[index].pts && packetOrder.identifiesPackets
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
        if let exact = table.frameIndex(ofPTS: pts) { return exact }
        let covering = table.frameIndex(covering: table.time(ofPTS: pts))
        return min((covering ?? -1) + 1, table.frames.count - 1)
    }

    /// Whether going on from frame `last` to frame `target` is a drag or a step (the target
    /// within a second of frames after it), whose frames are worth caching for a drag back;
    /// a longer run is a seek, and skips as one.
    private func isDragDistance(from last: Int, to target: Int) -> Bool {
        let frames = table.frames
        guard last + 1 < target else { return true }
        return frames[target].time - frames[last + 1].time <= MediaTime(value: 1, timescale: 1)
    }
}
