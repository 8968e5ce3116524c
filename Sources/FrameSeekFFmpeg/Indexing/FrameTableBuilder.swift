import FrameSeekCore

/// Builds the frame table of one stream in a single pass over the file.
///
/// Video comes from a packet scan (no decoding): every packet carries its PTS, keyframe flag
/// and position, and packets an edit list discards are kept as places to start decoding but
/// not listed as frames. Audio comes from a packet scan too where its codec makes one frame of
/// each packet (`FrameTableBuilder+AudioPackets.swift`: the priming and padding the decoder
/// trims are worked out from side data, and checked by decoding the first packets). Other
/// audio, and video whose packets lack timestamps, come from a decode scan, because there the
/// decoder decides which frames exist. This type holds the ways to build a table; which of
/// them answers is the open's choice among `FrameTableSource`s (`FrameTableChoice`).
struct FrameTableBuilder {
    /// The table, and for packet scans the decode order of every packet by its PTS, which the
    /// engine uses to tell where a demuxer seek landed.
    struct Result {
        let table: FrameTable
        let packetOrder: DecodeOrderByPTS
        /// Why the packet scan stopped before the end of the file, when a read failed after
        /// some packets were read: the table holds what could be read, and the media reports
        /// the rest as truncated.
        private(set) var readError: String?
        /// Frames whose packet the demuxer flagged corrupt (`AV_PKT_FLAG_CORRUPT`).
        let corruptFrames: Set<Int>
        /// The frames after which media could not be read, with why (what the table's missing
        /// data was made from), kept so an index cache rebuilds the same table.
        let missingDataAfter: [Int: String]
        /// For a table read from the container's index: the bytes its scan read from the file,
        /// and the payload bytes it answered without reading.
        private(set) var indexScanBytes: (read: Int64, skipped: Int64)?
        /// What a table read through a second demuxer of its own read (its I/O is not the
        /// opening demuxer's): over HTTP the ranges asked for and the requests, which the open's
        /// cost must include. Nil when the opening demuxer did all the reading.
        private(set) var separateReads: MediaReads?

        init(
            table: FrameTable, packetOrder: DecodeOrderByPTS, readError: String? = nil, corruptFrames: Set<Int> = [],
            missingDataAfter: [Int: String] = [:], indexScanBytes: (read: Int64, skipped: Int64)? = nil
        ) {
            self.table = table
            self.packetOrder = packetOrder
            self.readError = readError
            self.corruptFrames = corruptFrames
            self.missingDataAfter = missingDataAfter
            self.indexScanBytes = indexScanBytes
        }

        /// This result with the read error that ended its scan early.
        func with(readError: String?) -> Result {
            var result = self
            result.readError = readError
            return result
        }

        /// This result with `reads` added to what demuxers of their own read for the open.
        func adding(separateReads reads: MediaReads) -> Result {
            guard reads != .none else { return self }
            var result = self
            result.separateReads = (separateReads ?? .none) + reads
            return result
        }

        /// This result with the bytes its index scan read and skipped, and what a demuxer of
        /// its own read for it.
        func with(indexScanBytes: (read: Int64, skipped: Int64), separateReads: MediaReads? = nil) -> Result {
            var result = self
            result.indexScanBytes = indexScanBytes
            result.separateReads = separateReads
            return result
        }
    }

    /// What a way of building the table that may not apply gives (`FrameTableSource`): the
    /// table, or why another way must answer.
    enum TableOutcome {
        case built(Result)
        /// The table could not be made this way; `movedDemuxer` when packets were read (the
        /// demuxer no longer stands at the first packet), `separateReads` what a demuxer of the
        /// source's own read before it gave up (the open paid for it all the same).
        case declined(movedDemuxer: Bool, separateReads: MediaReads? = nil)
        /// A packet the container's index lists could not be read (an I/O error, after the
        /// network's retries: a file over HTTP whose body always breaks off): the media ends
        /// before its index says, and only a scan can tell where. The demuxer has moved.
        case unreadable
    }

    private(set) var demuxer: Demuxer
    let streamIndex: Int
    let originPTS: Int64
    /// Called during a packet scan with each keyframe packet of the stream, while it is read
    /// (`KeyframePrefetch.offer`). A scan that hands out packets reads their payloads, so it is
    /// never an index scan.
    let onKeyframePacket: ((Packet) -> Void)?
    /// Whether the first keyframe's leading pictures are frames (`FFmpegEngine.Options`).
    var listsLeadingPictures = false

    /// A builder of the table of `demuxer`'s stream `streamIndex`, whose time zero is
    /// `originPTS`.
    init(demuxer: Demuxer, streamIndex: Int, originPTS: Int64, onKeyframePacket: ((Packet) -> Void)? = nil) {
        self.demuxer = demuxer
        self.streamIndex = streamIndex
        self.originPTS = originPTS
        self.onKeyframePacket = onKeyframePacket
    }

    /// The table from a scan of every packet (`PacketScanSource`), declined when a packet
    /// carries no PTS: the demuxer has read them all by then.
    func tableFromScan() throws(MediaError) -> TableOutcome {
        let (packets, readError, missingData) = try scanPackets()
        // The demuxer's own index, after edit lists are applied (it drops samples before the
        // keyframe an edit starts from); the sample count of the header would call such files
        // truncated.
        let indexed = demuxer.indexEntryCount(of: streamIndex)
        let declared = indexed > 0 ? indexed : demuxer.stream(streamIndex).frameCount
        if declared > 0 && packets.count < declared && demuxer.formatName.hasPrefix("mov") {
            throw MediaError(
                path: demuxer.path, reason: .truncated,
                cause:
                    "truncated: the container lists \(declared) packets in stream \(streamIndex) but only \(packets.count) could be read")
        }
        guard !packets.isEmpty && packets.allSatisfy({ $0.pts != nil }) else { return .declined(movedDemuxer: true) }
        let result = try tableFromPackets(ScannedPackets(packets: packets), missingDataBefore: missingData)
        return .built(result.with(readError: readError))
    }

    /// This builder reading a demuxer of the same file at its first packet.
    func reopened(probingStreams: Bool) throws(MediaError) -> FrameTableBuilder {
        var builder = self
        builder.demuxer = try reopenedDemuxer(probingStreams: probingStreams)
        return builder
    }

    /// A demuxer of the same file at its first packet, reading only the stream.
    private func reopenedDemuxer(probingStreams: Bool) throws(MediaError) -> Demuxer {
        let fresh: Demuxer
        do {
            fresh = try demuxer.reopened(probingStreams: probingStreams)
        } catch {
            throw MediaError(path: demuxer.path, reason: .readFailed, cause: "cannot reopen: \(demuxer.log.message(for: error))")
        }
        fresh.selectOnly(streamIndex: streamIndex)
        return fresh
    }

    var timeBase: TimeBase { demuxer.stream(streamIndex).timeBase }

    /// The stream's packets in decode order, why reading stopped early if it did, and where
    /// the demuxer skipped media it could not open (keyed by the index of the first packet
    /// after the gap). A read that fails after some packets ends the scan there rather than
    /// the open: the frames before it can be landed on, and the media says it is truncated.
    /// Decode timestamps that go back end the open (`DecodeTimeJoinCheck`).
    ///
    /// `watching` sees each of the stream's packets, with its index, while it is read, and
    /// ends the scan there by returning false; with `keepingPackets` false, it alone sees them
    /// (the scan returns no packets, and indices count the packets read).
    func scanPackets(
        keepingPackets: Bool = true, watching: ((Packet, Int) -> Bool)? = nil
    ) throws(MediaError)
        -> (packets: [ScannedPacket], readError: String?, missingData: [Int: String])
    {
        let packet = Packet()
        var packets: [ScannedPacket] = []
        var packetsRead = 0
        var missingData: [Int: String] = [:]
        // Only FFmpeg's HLS demuxer skips media it cannot open (`FFmpegLog.reportsMissingData`),
        // so other files take no lock per packet for it.
        let watchesSkippedMedia = demuxer.formatName == "hls"
        var joinCheck = DecodeTimeJoinCheck(self)
        while true {
            defer {
                // The HLS demuxer warns of a segment it cannot open inside the read that
                // returns the first packet after it.
                if watchesSkippedMedia {
                    let skipped = demuxer.log.takeMissingData()
                    if !skipped.isEmpty { missingData[packetsRead, default: ""] += skipped.joined(separator: "; ") }
                }
            }
            let more: Bool
            do { more = try demuxer.read(into: packet) } catch {
                let cause = demuxer.log.message(for: error)
                if packetsRead == 0 {
                    throw MediaError(
                        path: demuxer.path, reason: .readFailed, cause: "reading packets failed before the first packet: \(cause)")
                }
                return (packets, "reading failed after \(packetsRead) packets: \(cause)", missingData)
            }
            guard more else { break }
            defer { packet.unref() }
            guard packet.streamIndex == streamIndex else { continue }
            try joinCheck?.check(packet)
            let goesOn = watching?(packet, packetsRead) ?? true
            packetsRead += 1
            if keepingPackets { packets.append(ScannedPacket(packet)) }
            if packet.isKeyframe, let onKeyframePacket { onKeyframePacket(packet) }
            if !goesOn { break }
        }
        return (packets, nil, missingData)
    }

    /// The table made from `packets`, which all have a PTS.
    func tableFromPackets<Packets: FrameTablePackets>(
        _ packets: Packets, missingDataBefore: [Int: String],
        source: FrameTable.Source = .packetScan
    ) throws(MediaError) -> Result {
        let count = packets.count
        // Decoding can only start at a keyframe: packets before the first one (a stream cut
        // mid-GOP) and the leading pictures shown before it (RASL frames of an opening CRA,
        // B-frames of an open GOP) never come out of the decoder, so they are not frames;
        // unless the table lists leading pictures, which a decode from before shows.
        guard let firstKey = (0..<count).first(where: { packets.isKeyframe($0) }) else {
            throw MediaError(
                path: demuxer.path, reason: .decodeFailed, cause: "stream \(streamIndex) has no keyframe to start decoding from")
        }
        guard count <= Int(Int32.max) else {
            throw MediaError(path: demuxer.path, reason: .unsupported, cause: "stream \(streamIndex) has more than \(Int32.max) packets")
        }
        func pts(_ i: Int) -> Int64 { packets.pts(i)! }
        let firstKeyPTS = pts(firstKey), firstKeyDiscarded = packets.isDiscarded(firstKey)
        // Packets in 4 bytes each (not `Int`s, nor a dictionary by packet): for a long file
        // these arrays would otherwise weigh more than the table.
        var shown: [Int32] = []
        shown.reserveCapacity(count)
        var otherPackets: [Int64: Int] = [:]
        func isFrame(_ i: Int) -> Bool {
            i >= firstKey && (i == firstKey || pts(i) > firstKeyPTS || firstKeyDiscarded || listsLeadingPictures)
                && !packets.isDiscarded(i)
        }
        for i in 0..<count {
            if isFrame(i) { shown.append(Int32(i)) } else { otherPackets[pts(i)] = i }
        }
        Self.sortNearlyOrdered(&shown) { pts(Int($0)) }
        try checkUnique(count: shown.count) { pts(Int(shown[$0])) }
        // Missing media follows the latest frame read before it: frames are sorted by PTS,
        // so that is the highest frame index among packets read before the gap.
        var missingDataAfter: [Int: String] = [:]
        for (firstPacketAfter, evidence) in missingDataBefore {
            if let latest = shown.indices.last(where: { Int(shown[$0]) < firstPacketAfter }) {
                missingDataAfter[latest] = evidence
            }
        }
        let frames = try makeFrames(ShownPackets(packets: packets, shown: shown), endingAtOwnDuration: Set(missingDataAfter.keys))
        // Keyframes that are frames take their frame index from where they stand in `shown`;
        // the others (discarded by an edit list) are places to start decoding, not frames.
        var points = shown.indices.filter { packets.isKeyframe(Int(shown[$0])) }.map { frameIndex in
            let packet = Int(shown[frameIndex])
            return RandomAccessPoint(pts: pts(packet), dts: packets.dts(packet), decodeOrder: packet, frameIndex: frameIndex)
        }
        let pointsShown = points.count
        for packet in firstKey..<count where packets.isKeyframe(packet) && !isFrame(packet) {
            points.append(RandomAccessPoint(pts: pts(packet), dts: packets.dts(packet), decodeOrder: packet, frameIndex: nil))
        }
        if points.count > pointsShown { points.sort { $0.pts < $1.pts } }
        let table = FrameTable(
            streamIndex: streamIndex, timeBase: timeBase, originPTS: originPTS,
            frames: frames, randomAccessPoints: RandomAccessPointList(points), source: source,
            missingDataAfter: missingDataAfter)
        let corrupt = Set(shown.indices.filter { packets.isCorrupt(Int(shown[$0])) })
        return Result(
            table: table, packetOrder: DecodeOrderByPTS(others: otherPackets), corruptFrames: corrupt,
            missingDataAfter: missingDataAfter)
    }

    /// The table from a decode of the stream (the last resort of `FrameTableChoice`): the
    /// frames the decoder produces.
    func tableFromDecoding(_ makeDecoder: () throws(FFmpegError) -> Decoder) throws(MediaError) -> Result {
        let decoder: Decoder
        do {
            decoder = try makeDecoder()
        } catch {
            throw MediaError(
                path: demuxer.path, reason: .decodeFailed, cause: "cannot decode stream \(streamIndex): \(demuxer.log.message(for: error))"
            )
        }
        typealias Decoded = DecodedFrames.Frame
        var decoded: [Decoded] = []
        var decodedWithoutTimestamps = 0
        let packet = Packet(), frame = Frame()
        let stream = demuxer.stream(streamIndex)
        let sampleRate = stream.sampleRate, streamTimeBase = stream.timeBase
        func collect() throws(FFmpegError) -> Bool {
            while true {
                switch try decoder.receive(into: frame) {
                case .needsInput: return true
                case .endOfStream: return false
                case .frame:
                    defer { frame.unref() }
                    guard let pts = frame.pts else { decodedWithoutTimestamps += 1; continue }
                    let duration = frame.duration(orSamplesAt: sampleRate, in: streamTimeBase)
                    decoded.append(
                        Decoded(
                            pts: pts, duration: duration, key: frame.isKeyframe,
                            position: frame.packetPosition))
                }
            }
        }
        do {
            reading: while true {
                guard try demuxer.read(into: packet) else { break reading }
                defer { packet.unref() }
                guard packet.streamIndex == streamIndex else { continue }
                do { try decoder.send(packet) } catch  where error.isInvalidData { continue }
                _ = try collect()
            }
            try decoder.sendEndOfStream()
            _ = try collect()
        } catch {
            throw MediaError(
                path: demuxer.path, reason: .decodeFailed,
                cause: "decoding stream \(streamIndex) failed after \(decoded.count) frames: \(demuxer.log.message(for: error))")
        }
        if decoded.isEmpty && decodedWithoutTimestamps > 0 {
            throw MediaError(
                path: demuxer.path, reason: .unsupported,
                cause: "stream \(streamIndex) has no timestamps (a raw elementary stream?); remux it into MP4 or Matroska first")
        }
        let sorted = decoded.enumerated().sorted { $0.element.pts < $1.element.pts }
        try checkUnique(count: sorted.count) { sorted[$0].element.pts }
        let frames = try makeFrames(DecodedFrames(sorted: sorted), endingAtOwnDuration: [])
        let table = FrameTable(
            streamIndex: streamIndex, timeBase: timeBase, originPTS: originPTS,
            frames: frames, randomAccessPoints: .keyframes(of: frames), source: .decodeScan)
        return Result(table: table, packetOrder: .unknown)
    }

    /// Sorts `packets` by `key` where they are nearly in order already, as packets in decode
    /// order are in presentation order: each moves back past the few that a B-frame pyramid
    /// puts before it (insertion sort, n times the reorder depth). A two-hour film's 215,784
    /// frames sort in well under a millisecond, where the general sort took 8 ms and a buffer
    /// as large as the array. Past 32 moves a packet on average, the general sort finishes.
    static func sortNearlyOrdered(_ packets: inout [Int32], by key: (Int32) -> Int64) {
        let moveBudget = 32 * packets.count + 1024
        var moves = 0
        for i in packets.indices.dropFirst() {
            let packet = packets[i], packetKey = key(packet)
            var j = i
            while j > 0, key(packets[j - 1]) > packetKey {
                packets[j] = packets[j - 1]
                j -= 1
                moves += 1
            }
            packets[j] = packet
            if moves > moveBudget {
                packets.sort { key($0) < key($1) }
                return
            }
        }
    }

    /// FrameSeek tells frames apart by PTS (it is what the decoder hands back), so two frames
    /// with one PTS (timestamps that restart, as in joined TS segments) would land on each
    /// other's pictures. Refused rather than answered wrongly. `sortedPTS(i)` ascends.
    private func checkUnique(count: Int, sortedPTS: (Int) -> Int64) throws(MediaError) {
        var repeats = 0, first: Int64?
        for i in 0..<max(0, count - 1) where sortedPTS(i) == sortedPTS(i + 1) {
            repeats += 1
            if first == nil { first = sortedPTS(i) }
        }
        guard let first else { return }
        throw MediaError(
            path: demuxer.path, reason: .unsupported,
            cause:
                "\(repeats) frames of stream \(streamIndex) repeat another frame's timestamp (first at pts \(first)); FrameSeek cannot tell such frames apart"
        )
    }

    /// Frames in presentation order, packed as they are made. A frame's duration is its
    /// packet's; where the packet has none, the gap to the next frame; for a last frame
    /// without one, the median gap.
    private func makeFrames<Frames: PresentationOrderFrames>(
        _ frames: Frames, endingAtOwnDuration: Set<Int>
    ) throws(MediaError) -> FrameList {
        let count = frames.count
        for i in 0..<count {
            let outOfRange =
                frames.pts(i).subtractingReportingOverflow(originPTS).overflow
                || (i + 1 < count && frames.pts(i + 1).subtractingReportingOverflow(frames.pts(i)).overflow)
            if outOfRange {
                throw MediaError(
                    path: demuxer.path, reason: .unsupported,
                    cause: "timestamps of stream \(streamIndex) are out of range (they overflow 64 bits)")
            }
        }
        // Only a last frame without a duration needs the median, so the gaps are sorted only then.
        var medianGap: Int64 {
            let gaps = (0..<max(0, count - 1)).map { frames.pts($0 + 1) - frames.pts($0) }.sorted()
            return gaps.isEmpty ? 0 : gaps[gaps.count / 2]
        }
        func duration(_ i: Int) -> Int64 {
            let ticks = frames.packetDuration(i)
            return ticks > 0 ? ticks : i + 1 < count ? frames.pts(i + 1) - frames.pts(i) : medianGap
        }
        // Only an audio landing reads a frame's packet position (FFmpegEngine+LandedAudio).
        let isAudio = demuxer.stream(streamIndex).mediaType == .audio
        if !isAudio {
            // Video keeps no positions: its frames are packed here in one loop, what
            // `FrameList.Builder` makes of them a frame at a time. Left to the builder: frames
            // that are all keyframes (intra-only video, which it may keep as runs) and numbers
            // that do not fit the packed form (kept whole).
            var fits = true, allKeyframes = true
            let packed = [FrameList.Packed](unsafeUninitializedCapacity: count) { buffer, initialized in
                for i in 0..<count {
                    let isKeyframe = frames.isKeyframe(i)
                    guard
                        let frame = FrameList.Packed(
                            pts: frames.pts(i), durationTicks: duration(i),
                            decodeOrder: frames.decodeOrder(i), isKeyframe: isKeyframe)
                    else {
                        fits = false
                        initialized = i
                        return
                    }
                    buffer.initializeElement(at: i, to: frame)
                    allKeyframes = allKeyframes && isKeyframe
                }
                initialized = count
            }
            if fits && !allKeyframes {
                return FrameList(packed: packed, timeBase: timeBase, originPTS: originPTS, endingAtOwnDuration: endingAtOwnDuration)
            }
        }
        return FrameList(
            count: count, timeBase: timeBase, originPTS: originPTS, endingAtOwnDuration: endingAtOwnDuration,
            keepingPacketPositions: isAudio
        ) { i in
            // Not asked for where it is not kept: from a sample table, one more index lookup a frame.
            (frames.pts(i), duration(i), frames.isKeyframe(i), frames.decodeOrder(i), isAudio ? frames.position(i) : nil)
        }
    }
}

/// Frames in presentation order, as `FrameTableBuilder.makeFrames` packs them: a protocol
/// rather than five closures, so that the specialized loop reads a two-hour film's 215,784
/// frames straight from their arrays (the closure calls cost more than the rest of the table).
private protocol PresentationOrderFrames {
    var count: Int { get }
    func pts(_ i: Int) -> Int64
    /// The frame's packet's duration in ticks, 0 or less when unknown.
    func packetDuration(_ i: Int) -> Int64
    func isKeyframe(_ i: Int) -> Bool
    func decodeOrder(_ i: Int) -> Int
    func position(_ i: Int) -> Int64?
}

/// The packets that are frames, as `shown` lists them (their decode-order indices sorted by
/// PTS); every one has a PTS.
private struct ShownPackets<Packets: FrameTablePackets>: PresentationOrderFrames {
    let packets: Packets
    let shown: [Int32]

    var count: Int { shown.count }
    func pts(_ i: Int) -> Int64 { packets.pts(Int(shown[i]))! }
    func packetDuration(_ i: Int) -> Int64 { packets.duration(Int(shown[i])) }
    func isKeyframe(_ i: Int) -> Bool { packets.isKeyframe(Int(shown[i])) }
    func decodeOrder(_ i: Int) -> Int { Int(shown[i]) }
    func position(_ i: Int) -> Int64? { packets.position(Int(shown[i])) }
}

/// The frames a decode scan produced, sorted by PTS, each with its place in decode order.
private struct DecodedFrames: PresentationOrderFrames {
    /// One decoded frame's numbers.
    struct Frame { let pts: Int64; let duration: Int64; let key: Bool; let position: Int64? }
    let sorted: [(offset: Int, element: Frame)]

    var count: Int { sorted.count }
    func pts(_ i: Int) -> Int64 { sorted[i].element.pts }
    func packetDuration(_ i: Int) -> Int64 { sorted[i].element.duration }
    func isKeyframe(_ i: Int) -> Bool { sorted[i].element.key }
    func decodeOrder(_ i: Int) -> Int { sorted[i].offset }
    func position(_ i: Int) -> Int64? { sorted[i].element.position }
}
