internal import CFFmpeg
import FrameSeekCore

/// Where the decoder stands between calls.
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

extension FFmpegEngine {
    /// How many times a seek goes further back when the demuxer lands late or the decoder
    /// cannot produce the frame, before decoding from the start of the file.
    static let seekRetries = 3

    /// Seeks as the landing rules say and decodes the landed frame.
    ///
    /// The landing is planned once on the frame table (`FrameTable.planLanding`) and carried
    /// out by `land(_:mode:interruption:)`: decode forward when the decoder already sits before
    /// the frame in the same GOP, else seek the demuxer to the random access point, flush, and
    /// decode forward, checking that decoding really starts at or before the target.
    public func seek(
        to time: MediaTime, precision: SeekPrecision,
        interruption: SeekInterruptionFlag?
    ) throws(MediaError) -> SeekLanding {
        try land(plan(at: time, precision: precision), interruption: interruption)
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
    func decode(
        frame index: Int, startingAt point: RandomAccessPoint, cachingFrom: Int?,
        keyframeOnly: Bool, forwardPass: Bool = false
    ) throws(MediaError) -> DecodeWork {
        let target = frameTable.frames[index]
        if let known = undecodable[index] {
            throw MediaError(
                path: path, reason: .decodeFailed,
                detail: "frame \(index) (pts \(target.pts)) cannot be decoded: \(known) (found by an earlier attempt)")
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
        if !keyframeOnly, let parked = slotDecodingOn(to: target, startingAt: point) {
            activate(parked)
            if let start = position?.startPoint, point.pts > start.pts {
                position?.startPoint = point  // it stands just before the keyframe of the target's GOP
            }
            continued = true
            skipTo = nil  // the decoder already sits before the target, close enough to go on
            decodeStart = position?.startPoint ?? point
            // A short run on from where the decoder stands is a drag forward or a step: keep
            // every frame on the way, so dragging back over them lands in the cache. A long run
            // is a seek that happens to fall after a parked decoder: it skips what a seek skips.
            if !forwardPass, cachingFrom == nil, let last = position?.lastOutputPTS, let lastIndex = frameTable.frameIndex(ofPTS: last),
                isDragDistance(from: lastIndex, to: index)
            {
                cachingFrom = lastIndex + 1
            }
        } else {
            activate(forwardPass ? active : slotForNewStart())
            try reposition(seekingTo: seekPoint, decodingFrom: decodeStart, fromFileStart: false)
            announceReads(from: seekPoint, to: target, keyframeOnly: keyframeOnly)
            seeks += 1
            skipTo = decodeStart
        }

        while true {
            let result = try run(
                toPTS: target.pts, skippingTo: skipTo, cachingFrom: cachingFrom,
                keyframeOnly: keyframeOnly, tally: &tally)
            switch result {
            case .landed:
                if keyframeOnly {
                    // The decoder was told the stream ended after the keyframe: whatever it held
                    // is gone, so the next landing repositions.
                    decoder.flush()
                    position = nil
                }
                return DecodeWork(startPoint: decodeStart, tally: tally, demuxerSeeks: seeks, continuedParkedDecoder: continued)
            case .interrupted:
                throw MediaError(
                    path: path, reason: .interrupted,
                    detail: "seek \(interruption?.interruption?.rawValue ?? "interrupted") after \(tally.framesDecoded) frames")
            case .demuxerLandedLate:
                seekPoint = frameTable.randomAccessPoint(before: seekPoint) ?? seekPoint
            case .targetMissed where keyframeOnly:
                // The keyframe's packet alone did not give the frame: decode it as any other
                // landing, from the same place and with the same retries.
                keyframeOnly = false
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
                guard let earlier = frameTable.randomAccessPoint(before: decodeStart) else {
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
            try reposition(seekingTo: seekPoint, decodingFrom: decodeStart, fromFileStart: attempt > Self.seekRetries)
            seeks += 1
            skipTo = decodeStart
        }
    }

    /// The pool's decoder that reaches `target` by decoding on for the least work, if any: one
    /// that has not passed the target and stands in the target's GOP, or just before the
    /// keyframe that starts it, so going on costs no more than a seek would.
    private func slotDecodingOn(to target: FrameEntry, startingAt point: RandomAccessPoint) -> DecoderSlot? {
        var best: (slot: DecoderSlot, last: Int64)?
        for slot in pool.slots {
            guard let position = slot.position, !position.drained, let last = position.lastOutputPTS,
                last < target.pts, last > best?.last ?? .min
            else { continue }
            if let skipped = position.skippedBeforePTS, target.pts < skipped { continue }
            if position.startPoint == point {
                best = (slot, last)
                continue
            }
            // Standing just before the keyframe that starts the target's GOP, it reads that
            // keyframe next.
            if let lastIndex = frameTable.frameIndex(ofPTS: last), let keyIndex = point.frameIndex,
                point.pts > position.startPoint.pts, lastIndex + 1 >= keyIndex
            {
                best = (slot, last)
            }
        }
        return best?.slot
    }

    /// Whether going on from frame `last` to frame `target` is a drag or a step (the target
    /// within a second of frames after it), whose frames are worth caching for a drag back;
    /// a longer run is a seek, and skips as one.
    private func isDragDistance(from last: Int, to target: Int) -> Bool {
        let frames = frameTable.frames
        guard last + 1 < target else { return true }
        return frames[target].time - frames[last + 1].time <= MediaTime(value: 1, timescale: 1)
    }

    /// Makes `slot` the decoder that lands now.
    private func activate(_ slot: DecoderSlot) {
        active = slot
        pool.touch(slot)
    }

    /// The decoder to seek and decode from a keyframe: the active one when it stands nowhere,
    /// else a new one while the pool's bound allows, else the least recently used one. A new
    /// decoder that cannot be opened leaves the pool as it is.
    private func slotForNewStart() -> DecoderSlot {
        if active.position == nil { return active }
        if pool.canGrow {
            do {
                // The file was probed when the engine opened it: the new decoder takes the
                // stream's parameters from there, and its demuxer only reads packets.
                let first = pool.slots[0].demuxer
                let demuxer = try first.reopened(probingStreams: false)
                guard demuxer.streamCount == first.streamCount else { return pool.leastRecentlyUsed }
                demuxer.selectOnly(streamIndex: streamIndex)
                let decoder = try Decoder(parameters: decoderParameters, threads: options.threads, log: log)
                let slot = DecoderSlot(demuxer: demuxer, decoder: decoder)
                pool.add(slot)
                return slot
            } catch {
                // Opening the file again failed (it went away, or memory ran out): the decoders
                // already open still land everything.
            }
        }
        return pool.leastRecentlyUsed
    }

    /// Tells a demuxer reading over HTTP which bytes the landing reads, from an MP4's index:
    /// the keyframe's sample alone, or from it through a few samples past the target in decode
    /// order (the reordering the decoder needs before it gives the target out).
    private func announceReads(from point: RandomAccessPoint, to target: FrameEntry, keyframeOnly: Bool) {
        guard demuxer.ranged != nil, frameTable.source == .sampleTable || frameTable.source == .containerIndex else { return }
        let first = point.decodeOrder, last = keyframeOnly ? first : max(first, target.decodeOrder) + 16
        var span: Range<Int64>?
        for order in first...last {
            guard let entry = demuxer.indexEntry(of: streamIndex, at: order) else { break }
            let sample = entry.position..<(entry.position + Int64(entry.size))
            span = span.map { min($0.lowerBound, sample.lowerBound)..<max($0.upperBound, sample.upperBound) } ?? sample
        }
        demuxer.expectReads(in: span)
    }

    private func reposition(
        seekingTo seekPoint: RandomAccessPoint, decodingFrom decodeStart: RandomAccessPoint,
        fromFileStart: Bool
    ) throws(MediaError) {
        decoder.flush()
        position = DecodePosition(startPoint: decodeStart, lastOutputPTS: nil, endOfStreamSent: false)
        if !fromFileStart {
            // Matroska and most demuxers seek by PTS, where the smaller of DTS and PTS never
            // lands after the keyframe. FFmpeg's mov demuxer takes the PTS and shifts it by
            // the composition offset before searching its DTS index (`mov_seek_stream`), so a
            // DTS lands a whole GOP early there: a GOP read for nothing, megabytes over HTTP.
            // A PTS that lands late is sent further back below, as for any demuxer.
            let timestamp = demuxer.formatName.hasPrefix("mov") ? seekPoint.pts : min(seekPoint.dts ?? seekPoint.pts, seekPoint.pts)
            // An audio frame's packet has one timestamp, its PTS, except the first frame's,
            // which priming moved: past it, the table can say where the packet is.
            if media.selectedStream.mediaType == .audio, let frame = seekPoint.frameIndex, frame > 0,
                let position = frameTable.frames[frame].packetPosition
            {
                demuxer.addSeekPoint(streamIndex: frameTable.streamIndex, position: position, timestamp: seekPoint.pts)
            }
            do {
                try demuxer.seek(streamIndex: frameTable.streamIndex, to: timestamp)
                return
            } catch {
                // Some inputs cannot seek at all; reading from the start still lands right.
            }
        }
        do {
            let reopened = try demuxer.reopened()
            reopened.selectOnly(streamIndex: frameTable.streamIndex)
            retiredReads = retiredReads + demuxer.reads
            demuxer = reopened
        } catch {
            throw MediaError(path: path, reason: .readFailed, detail: "cannot reopen to decode from the start: \(error.message)")
        }
    }

    /// After decoding from the start of the file missed frame `index`, records it, and every
    /// other frame the decoder passed over in the same jump, as undecodable, so that the
    /// fallback runs once per stretch of damage: a sequential pass over a damaged file costs
    /// one decode of it, and so does a run of backward steps into the damage.
    ///
    /// The decoder hands frames out in presentation order, so when its output jumps from one
    /// frame to a later one (or it runs out), the frames in between will not come out of this
    /// decode: FFmpeg's own decode of the file lacks them too.
    private func rememberUndecodable(from index: Int) -> MediaError {
        let why = "the decoder does not produce it, even decoding from the start of the file"
        let table = frameTable
        func frame(_ pts: Int64?) -> Int? { pts.flatMap(table.frameIndex(ofPTS:)) }
        let last = frame(position?.lastOutputPTS)
        // The frames between the last one produced before the target (or where decoding
        // started, if none was) and the first one produced after it (or the end, when the
        // decoder ran out) did not come out.
        let producedBefore = [last, frame(position?.previousOutputPTS)].compactMap { $0 }.filter { $0 < index }.max()
        var start = producedBefore.map { $0 + 1 } ?? min(position?.startPoint.frameIndex ?? index, index)
        let end = position?.drained == true ? table.frames.count : max(index + 1, last ?? 0)
        // Non-reference frames before `skippedBeforePTS` were skipped on purpose on the way
        // to the target: not coming out does not make them undecodable.
        if let skipped = position?.skippedBeforePTS {
            let firstNotSkipped = frameTable.frames.firstIndex { $0.pts >= skipped } ?? index
            start = max(start, min(firstNotSkipped, index))
        }
        for skipped in start..<end { undecodable[skipped] = why }
        return MediaError(
            path: path, reason: .decodeFailed,
            detail: "frame \(index) (pts \(frameTable.frames[index].pts)) cannot be decoded: \(why)")
    }
}
