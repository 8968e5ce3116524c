import FrameSeekCore

extension LandingExecutor {
    /// Consecutive invalid-data errors from the demuxer or decoder after which reading gives
    /// up: FFmpeg resynchronises after damage, so a long run means nothing more can be read.
    static let consecutiveErrorLimit = 64
    /// The most frames a decoder holds back for reordering before it outputs one: H.264's and
    /// HEVC's picture buffer holds at most 16.
    static let reorderSlack = 16

    /// Reads and decodes until the frame with `targetPTS` comes out.
    ///
    /// With `skippingTo`, packets before that random access point are passed over without
    /// decoding (the demuxer landed early), and a packet after it means the demuxer landed
    /// late. Frames before the target are dropped as they come: nothing is converted or copied.
    /// With `keyframeOnly`, the end of the stream is signalled right after the first packet
    /// decoded (the start point's), so the decoder hands out that one frame.
    ///
    /// Damage is counted on the way (`DecodePosition.decodeErrors`): invalid data from
    /// `avcodec_send_packet`, `avcodec_receive_frame` or `av_read_frame` (skipped, as FFmpeg's
    /// own decode skips it), packets the demuxer flags corrupt, and frames the decoder flags
    /// corrupt or with decode error bits (concealment), and, for a decoder that marks random
    /// access points (`Decoder.marksRandomAccessPoints`), a start point that it does not mark
    /// key. A frame that comes out carries the
    /// count since the last flush. The decoder's log is not counted: FFmpeg logs errors for
    /// clean pictures too (an H.264 stream cut mid-GOP starts with "mmco: unref short failure"
    /// on an intra frame that decodes exactly).
    ///
    /// A run that reads past the random access point after the target, and the reordering
    /// after it (`giveUpOrder(forTarget:decoder:)`), without the target or any later frame
    /// coming out, stops reading there and tells the decoder the stream ended: it hands out
    /// what it held back for reordering (which packets that decode to nothing never push out),
    /// and the target is among them or missed. Without that stop, a frame whose packets decode
    /// to nothing (a file whose payloads are zeroed from the target on) had every retry read
    /// to the end of the file.
    ///
    /// `afterMiss` says that an earlier run of the same landing missed its frame: a landing
    /// that heeds its flag only then (`interruptsOnlyRetries`) is interrupted from here on.
    func run(
        toPTS targetPTS: Int64, skippingTo: RandomAccessPoint?, cachingFrom: Int?,
        keyframeOnly: Bool, afterMiss: Bool, tally: inout DecodeTally
    ) throws(MediaError) -> RunResult {
        let slot = pool.active
        let decoder = slot.decoder
        var skipping = skippingTo
        let identifiesPackets = packetOrder.identifiesPackets
        if !identifiesPackets { skipping = nil }
        // Non-reference frames before the first frame anyone will look at (the target, or the
        // first frame a backward refill caches) are dropped undecoded. Only with packet PTS:
        // without them a packet cannot be placed before or after the target.
        let skipBeforePTS: Int64? =
            skipsNonReferenceFrames && identifiesPackets && decoder.nonReferenceFramesAreUnreferenced
            ? min(cachingFrom.map { table.frames[min($0, table.frames.count - 1)].pts } ?? targetPTS, targetPTS) : nil
        defer { decoder.skipsNonReferenceFrames = false }
        // The picture decoding starts from, where the decoder can tell whether it is one.
        let startPTS = identifiesPackets && decoder.marksRandomAccessPoints ? skippingTo?.pts : nil
        let giveUpOrder = identifiesPackets ? giveUpOrder(forTarget: targetPTS, decoder: decoder) : nil
        let clock = ContinuousClock()
        var consecutiveErrors = 0
        /// Tells the decoder the stream ended. With frame threads, a damaged packet's invalid
        /// data can come back from this send rather than its own; the stream has ended all
        /// the same, and the frames held back still come out.
        func sendEndOfStream() throws(FFmpegError) {
            do { try decoder.sendEndOfStream() } catch  where error.isInvalidData {
                try countInvalidData(error, consecutive: &consecutiveErrors, tally: &tally)
            }
        }
        do {
            while true {
                if isInterrupted(afterMiss: afterMiss) { return .interrupted }
                // Take every frame the decoder has ready before feeding it more.
                receiving: while true {
                    let output: Decoder.Output
                    let receiveStart = clock.now
                    do {
                        output = try decoder.receive(into: buffers.frame)
                        tally.addDecodeTime(clock.now - receiveStart)
                    } catch  where error.isInvalidData {
                        tally.addDecodeTime(clock.now - receiveStart)
                        try countInvalidData(error, consecutive: &consecutiveErrors, tally: &tally)
                        continue
                    }
                    switch output {
                    case .needsInput:
                        break receiving
                    case .endOfStream:
                        slot.recordDrained()
                        return .targetMissed
                    case .frame:
                        let pts = buffers.frame.pts
                        tally.countFrameDecoded(pts: pts, skipLine: skipBeforePTS)
                        slot.holdings.notePicture(bytes: buffers.frame.byteCount)
                        consecutiveErrors = 0
                        if buffers.frame.decoderFlaggedDamage { slot.countDecodeError() }
                        // A start the container calls a keyframe and the decoder does not: every
                        // picture from it was decoded from references the decoder invented.
                        if let startPTS, pts == startPTS, !buffers.frame.isKeyframe { slot.countDecodeError() }
                        let errors = slot.position?.decodeErrors ?? 0
                        slot.recordOutput(pts: pts)
                        if pts == targetPTS || (!identifiesPackets && buffers.frame.covers(targetPTS)) {
                            // Decode-scanned (audio) streams: after a seek a decoder may not trim
                            // its priming again (Opus in Matroska), shifting every PTS; the frame
                            // covering the target is the landing.
                            landedFrame.take(buffers.frame)
                            landedDecodeErrors = errors
                            return .landed
                        }
                        if let cachingFrom, let pts, let index = table.frameIndex(ofPTS: pts), index >= cachingFrom {
                            cache.insert(buffers.frame, as: index, decodeErrors: errors, lentBy: slot.holdings)
                        }
                        buffers.frame.unref()
                        if let pts, pts > targetPTS { return .targetMissed }
                    }
                }
                if slot.position?.endOfStreamSent == true { return .targetMissed }
                let more: Bool
                do {
                    more = try slot.demuxer.read(into: buffers.packet)
                } catch  where error.isInvalidData {
                    try countInvalidData(error, consecutive: &consecutiveErrors, tally: &tally)
                    continue
                } catch  where media.truncation != nil {
                    // The scan's reads broke off too, and that is where the readable media
                    // ends (a file over HTTP whose body always stops early): the end of the
                    // stream, as a file cut short on disk ends at EOF.
                    more = false
                }
                guard more else {
                    try sendEndOfStream()
                    slot.recordEndOfStreamSent()
                    continue
                }
                consecutiveErrors = 0
                defer { buffers.packet.unref() }
                guard buffers.packet.streamIndex == table.streamIndex else { continue }
                tally.countPacketRead()
                if let giveUpOrder, let pts = buffers.packet.pts, pts > targetPTS,
                    let order = packetOrder.order(ofPTS: pts, in: table), order > giveUpOrder
                {
                    try sendEndOfStream()
                    slot.recordEndOfStreamSent(early: true)
                    continue
                }
                if let point = skipping {
                    guard let pts = buffers.packet.pts else { tally.countPassedOver(); continue }
                    if pts == point.pts {
                        skipping = nil
                    } else {
                        if let order = packetOrder.order(ofPTS: pts, in: table), order > point.decodeOrder {
                            return .demuxerLandedLate
                        }
                        tally.countPassedOver()
                        continue
                    }
                }
                if let skipBeforePTS {
                    let skips = buffers.packet.pts.map { $0 < skipBeforePTS } ?? false
                    decoder.skipsNonReferenceFrames = skips
                    if skips {
                        tally.countSentBeforeSkipLine()
                        slot.recordSkipping(before: skipBeforePTS)
                    }
                }
                let sendStart = clock.now
                defer { tally.addDecodeTime(clock.now - sendStart) }
                do {
                    try decoder.send(buffers.packet)
                } catch  where error.isInvalidData {
                    // A damaged packet: skipped as FFmpeg's own decode skips it, and counted,
                    // since the frames after it may reference what it should have produced.
                    try countInvalidData(error, consecutive: &consecutiveErrors, tally: &tally)
                    continue
                }
                if buffers.packet.isCorrupt { slot.countDecodeError() }
                if keyframeOnly {
                    try sendEndOfStream()
                    slot.recordEndOfStreamSent()
                }
            }
        } catch {
            throw MediaError(path: path, reason: .decodeFailed, cause: "decoding failed: \(error.description)")
        }
    }

    /// The decode order of the last packet a run sends for the frame with `targetPTS`: the
    /// reordering after the random access point that follows it (or after the frame itself, in
    /// the last GOP), and one frame more per frame thread. Every frame decoded before that
    /// point has been sent by then, and comes out when the decoder is drained, if it ever
    /// does: so a run that stops there without the target has passed every frame up to that
    /// random access point (`rememberUndecodable`).
    private func giveUpOrder(forTarget targetPTS: Int64, decoder: Decoder) -> Int? {
        guard let index = table.frameIndex(ofPTS: targetPTS) else { return nil }
        // An open GOP's leading picture is decoded after the random access point that follows it.
        let resumesAt = max(table.randomAccessPoint(after: index)?.decodeOrder ?? 0, table.frames[index].decodeOrder)
        return resumesAt + Self.reorderSlack + decoder.threadCount
    }

    /// Gives the active slot the decoder a run starts with. With `toleratingDamage` (the run
    /// from the start of the file, the last before a frame is called undecodable, after runs
    /// that met invalid data), one that decodes through damage as FFmpeg's own decode does
    /// (`Decoder.toleratesDamage`), so that "undecodable" means what DamagedMedia says: FFmpeg's
    /// own decode lacks the frame too. A decoder asked to explode loses the frame that a
    /// damaged packet pushes out of its reorder buffer (an HEVC file cut inside its last packet
    /// loses the frame before it). Every other run gets one that explodes on damage.
    ///
    /// Only after invalid data (`DecodeTally.invalidData`): a stream read from its start for
    /// frames no run from a random access point produces (an open GOP's leading pictures at a
    /// segment's start) met no damage, and decodes as before. Every frame of that run is
    /// counted damaged (`DecoderSlot.startDecoding(from:)`): the runs before it missed the frame
    /// over damage the decoder reported, and decoding through damage, the decoder conceals it
    /// without a word, so no picture of the run can be told clean.
    ///
    /// Only codecs whose decoders explode have two kinds, and changing kind opens another
    /// decoder (`DecoderPool.useActiveDecoder(toleratingDamage:)`): with frame threads the error
    /// recognition cannot change once a decoder is open. So the last resort's decoder is opened
    /// for it, and the next run to start on its slot opens one that explodes.
    func useDecoder(toleratingDamage: Bool) throws(MediaError) {
        do {
            try pool.useActiveDecoder(toleratingDamage: toleratingDamage)
        } catch {
            throw MediaError(path: path, reason: .decodeFailed, cause: "cannot open a decoder: \(error.description)")
        }
    }

    /// Counts one invalid-data error on the way to a landing, and rethrows it once too many
    /// come in a row: past that, nothing more of the stream can be read.
    private func countInvalidData(
        _ error: FFmpegError, consecutive: inout Int, tally: inout DecodeTally
    ) throws(FFmpegError) {
        pool.active.countDecodeError()
        tally.countInvalidData()
        consecutive += 1
        if consecutive > Self.consecutiveErrorLimit { throw error }
    }
}

/// What one landing's decoding runs did, counted as they went: the cost a seek reports
/// (`SeekLanding.packetsRead`, `.framesSkipped`, `.decodeTime`).
struct DecodeTally {
    /// Frames the decoder produced.
    private(set) var framesDecoded = 0
    /// Packets of the stream read from the demuxer.
    private(set) var packetsRead = 0
    /// Packets read before the start point (the demuxer landed early) and not decoded.
    private(set) var packetsPassedOver = 0
    /// Packets sent while the decoder dropped non-reference frames (those before the target).
    private(set) var sentBeforeSkipLine = 0
    /// Frames that came out from before that line: the reference frames among those packets.
    private(set) var decodedBeforeSkipLine = 0
    /// Time inside `avcodec_send_packet` and `avcodec_receive_frame`.
    private(set) var decodeTime: Duration = .zero

    /// The decoder produced the frame with `pts`, while non-reference frames before `skipLine`
    /// (if any) were skipped.
    mutating func countFrameDecoded(pts: Int64?, skipLine: Int64?) {
        framesDecoded += 1
        if let skipLine, let pts, pts < skipLine { decodedBeforeSkipLine += 1 }
    }

    /// A packet of the stream was read.
    mutating func countPacketRead() { packetsRead += 1 }

    /// Packets and frames the decoder refused as invalid data, skipped and counted damaged.
    private(set) var invalidData = 0
    mutating func countInvalidData() { invalidData += 1 }

    /// A packet before the start point was passed over undecoded.
    mutating func countPassedOver() { packetsPassedOver += 1 }

    /// A packet was sent while the decoder skipped non-reference frames.
    mutating func countSentBeforeSkipLine() { sentBeforeSkipLine += 1 }

    /// Time spent in the decoder.
    mutating func addDecodeTime(_ duration: Duration) { decodeTime += duration }

    /// Packets read and never decoded into a frame: passed over before the start point, or
    /// non-reference frames the decoder dropped. Every frame before the target comes out
    /// before it, so by the landing each packet sent before the line is either out or dropped.
    var framesSkipped: Int { packetsPassedOver + max(0, sentBeforeSkipLine - decodedBeforeSkipLine) }
}
