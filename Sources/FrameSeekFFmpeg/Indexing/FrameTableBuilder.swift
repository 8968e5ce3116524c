internal import CFFmpeg
import FrameSeekCore

/// Builds the frame table of one stream in a single pass over the file.
///
/// Video comes from a packet scan (no decoding): every packet carries its PTS, keyframe flag
/// and position, and packets an edit list discards are kept as places to start decoding but
/// not listed as frames. Audio, and video whose packets lack timestamps, come from a decode
/// scan, because there the decoder decides which frames exist (AAC and MP3 priming frames are
/// dropped by the decoder, not by the demuxer).
struct FrameTableBuilder {
    /// The table, and for packet scans the decode order of every packet by its PTS, which the
    /// engine uses to tell where a demuxer seek landed.
    struct Result {
        let table: FrameTable
        let packetOrder: PacketDecodeOrder
        /// Why the packet scan stopped before the end of the file, when a read failed after
        /// some packets were read: the table holds what could be read, and the media reports
        /// the rest as truncated.
        var readError: String?
        /// Frames whose packet the demuxer flagged corrupt (`AV_PKT_FLAG_CORRUPT`).
        var corruptFrames: Set<Int> = []
        /// The frames after which media could not be read, with why (what the table's missing
        /// data was made from), kept so an index cache rebuilds the same table.
        var missingDataAfter: [Int: String] = [:]
        /// For a table read from the container's index: the bytes its scan read from the file,
        /// and the payload bytes it answered without reading.
        var indexScanBytes: (read: Int64, skipped: Int64)?
    }

    let demuxer: Demuxer
    let streamIndex: Int
    let originPTS: Int64
    /// Called during a packet scan with each keyframe packet of the stream, while it is read
    /// (`KeyframePrefetch.offer`). A scan that hands out packets reads their payloads, so it is
    /// never an index scan.
    var onKeyframePacket: ((Packet) -> Void)? = nil
    /// Whether an MP4's table may come from its index (`buildFromContainerIndex`); off only to
    /// compare with the full scan.
    var readsContainerIndex = true

    /// One packet of the stream, as read in decode order: 40 bytes, so the scan of a long file
    /// holds its packets in a few megabytes (no timestamp is `AV_NOPTS_VALUE`, Int64.min,
    /// which is how an unknown one is kept).
    private struct ScannedPacket {
        private static let unknown = Int64.min
        private let rawPTS: Int64
        private let rawDTS: Int64
        private let rawPosition: Int64
        let duration: Int64
        private let flags: UInt8

        init(pts: Int64?, dts: Int64?, duration: Int64, position: Int64?, isKeyframe: Bool, isDiscarded: Bool, isCorrupt: Bool) {
            rawPTS = pts ?? Self.unknown
            rawDTS = dts ?? Self.unknown
            rawPosition = position ?? Self.unknown
            self.duration = duration
            flags = (isKeyframe ? 1 : 0) | (isDiscarded ? 2 : 0) | (isCorrupt ? 4 : 0)
        }

        var pts: Int64? { rawPTS == Self.unknown ? nil : rawPTS }
        var dts: Int64? { rawDTS == Self.unknown ? nil : rawDTS }
        var position: Int64? { rawPosition == Self.unknown ? nil : rawPosition }
        var isKeyframe: Bool { flags & 1 != 0 }
        var isDiscarded: Bool { flags & 2 != 0 }
        var isCorrupt: Bool { flags & 4 != 0 }
    }

    func build(decodeWith makeDecoder: () throws(FFmpegError) -> Decoder) throws(MediaError) -> Result {
        let stream = demuxer.stream(streamIndex)
        let isVideo = stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        if !isVideo { return try tableFromDecoding(demuxer, makeDecoder) }
        if readsContainerIndex, onKeyframePacket == nil, let indexed = try buildFromContainerIndex() { return indexed }
        let (packets, readError, missingData) = try scanPackets()
        // The demuxer's own index, after edit lists are applied (it drops samples before the
        // keyframe an edit starts from); the sample count of the header would call such files
        // truncated.
        let indexed = Int(avformat_index_get_entries_count(stream))
        let declared = indexed > 0 ? indexed : Int(stream.pointee.nb_frames)
        if declared > 0 && packets.count < declared && demuxer.formatName.hasPrefix("mov") {
            throw MediaError(path: demuxer.path, reason: .truncated,
                             detail: "truncated: the container lists \(declared) packets in stream \(streamIndex) but only \(packets.count) could be read")
        }
        if !packets.isEmpty && packets.allSatisfy({ $0.pts != nil }) {
            var result = try tableFromPackets(packets, missingDataBefore: missingData)
            result.readError = readError
            return result
        }
        // Some packets carry no PTS: only the decoder knows the frames. Read again from the start.
        let fresh: Demuxer
        do { fresh = try Demuxer(path: demuxer.path, log: demuxer.log, memory: demuxer.memory) } catch {
            throw MediaError(path: demuxer.path, reason: .readFailed, detail: "cannot reopen: \(demuxer.log.message(for: error))")
        }
        fresh.selectOnly(streamIndex: streamIndex)
        return try tableFromDecoding(fresh, makeDecoder)
    }

    private var timeBase: TimeBase { demuxer.stream(streamIndex).pointee.time_base.timeBase }

    /// The stream's packets in decode order, why reading stopped early if it did, and where
    /// the demuxer skipped media it could not open (keyed by the index of the first packet
    /// after the gap). A read that fails after some packets ends the scan there rather than
    /// the open: the frames before it can be landed on, and the media says it is truncated.
    private func scanPackets() throws(MediaError) -> (packets: [ScannedPacket], readError: String?, missingData: [Int: String]) {
        let packet = Packet()
        var packets: [ScannedPacket] = []
        var missingData: [Int: String] = [:]
        // Only FFmpeg's HLS demuxer skips media it cannot open (`FFmpegLog.reportsMissingData`),
        // so other files take no lock per packet for it.
        let watchesSkippedMedia = demuxer.formatName == "hls"
        while true {
            defer {
                // The HLS demuxer warns of a segment it cannot open inside the read that
                // returns the first packet after it.
                if watchesSkippedMedia {
                    let skipped = demuxer.log.takeMissingData()
                    if !skipped.isEmpty { missingData[packets.count, default: ""] += skipped.joined(separator: "; ") }
                }
            }
            let more: Bool
            do { more = try demuxer.read(into: packet) } catch {
                let cause = demuxer.log.message(for: error)
                if packets.isEmpty {
                    throw MediaError(path: demuxer.path, reason: .readFailed, detail: "reading packets failed before the first packet: \(cause)")
                }
                return (packets, "reading failed after \(packets.count) packets: \(cause)", missingData)
            }
            guard more else { break }
            defer { packet.unref() }
            guard packet.streamIndex == streamIndex else { continue }
            packets.append(ScannedPacket(pts: packet.pts, dts: packet.dts, duration: packet.duration,
                                         position: packet.position, isKeyframe: packet.isKeyframe,
                                         isDiscarded: packet.isDiscarded, isCorrupt: packet.isCorrupt))
            if packet.isKeyframe, let onKeyframePacket { onKeyframePacket(packet) }
        }
        return (packets, nil, missingData)
    }

    private func tableFromPackets(_ packets: [ScannedPacket], missingDataBefore: [Int: String],
                                  source: FrameTable.Source = .packetScan) throws(MediaError) -> Result {
        // Decoding can only start at a keyframe: packets before the first one (a stream cut
        // mid-GOP) and the leading pictures shown before it (RASL frames of an opening CRA,
        // B-frames of an open GOP) never come out of the decoder, so they are not frames.
        guard let firstKey = packets.firstIndex(where: \.isKeyframe) else {
            throw MediaError(path: demuxer.path, reason: .decodeFailed, detail: "stream \(streamIndex) has no keyframe to start decoding from")
        }
        let firstKeyPTS = packets[firstKey].pts!
        func decodable(_ i: Int) -> Bool { i >= firstKey && (i == firstKey || packets[i].pts! > firstKeyPTS || packets[firstKey].isDiscarded) }
        var isShown = [Bool](repeating: false, count: packets.count)
        for i in packets.indices where !packets[i].isDiscarded && decodable(i) { isShown[i] = true }
        var otherPackets: [Int64: Int] = [:]
        for (order, packet) in packets.enumerated() where !isShown[order] { otherPackets[packet.pts!] = order }
        let shown = packets.indices.filter { isShown[$0] }.sorted { packets[$0].pts! < packets[$1].pts! }
        try checkUnique(shown.map { packets[$0].pts! })
        // Missing media follows the latest frame read before it: frames are sorted by PTS,
        // so that is the highest frame index among packets read before the gap.
        var missingDataAfter: [Int: String] = [:]
        for (firstPacketAfter, evidence) in missingDataBefore {
            if let latest = shown.indices.last(where: { shown[$0] < firstPacketAfter }) {
                missingDataAfter[latest] = evidence
            }
        }
        let frames = try makeFrames(count: shown.count, endingAtOwnDuration: Set(missingDataAfter.keys),
                                pts: { packets[shown[$0]].pts! },
                                packetDuration: { packets[shown[$0]].duration },
                                isKeyframe: { packets[shown[$0]].isKeyframe },
                                decodeOrder: { shown[$0] },
                                position: { packets[shown[$0]].position })
        // Frame index by packet index, -1 for packets that are not frames: an array, not a
        // dictionary, which for a long file would cost more than the table itself.
        var frameIndexOfPacket = [Int](repeating: -1, count: packets.count)
        for (frameIndex, packetIndex) in shown.enumerated() { frameIndexOfPacket[packetIndex] = frameIndex }
        let points = packets.indices.filter { packets[$0].isKeyframe && $0 >= firstKey }
            .map { RandomAccessPoint(pts: packets[$0].pts!, dts: packets[$0].dts, decodeOrder: $0,
                                     frameIndex: frameIndexOfPacket[$0] < 0 ? nil : frameIndexOfPacket[$0]) }
            .sorted { $0.pts < $1.pts }
        let table = FrameTable(streamIndex: streamIndex, timeBase: timeBase, originPTS: originPTS,
                               frames: frames, randomAccessPoints: points, source: source,
                               missingDataAfter: missingDataAfter)
        let corrupt = Set(shown.indices.filter { packets[shown[$0]].isCorrupt })
        return Result(table: table, packetOrder: PacketDecodeOrder(others: otherPackets), corruptFrames: corrupt,
                      missingDataAfter: missingDataAfter)
    }

    /// The table of an MP4 or MOV read from its index: the packets of a second demuxer that
    /// reads the file through a `PayloadSkippingReader`, so only the boxes are read, and each
    /// packet's PTS, DTS, flags and position are the demuxer's own (no parser). Nil, for the
    /// full scan to answer, whenever the index cannot be trusted to: another container, no
    /// index, samples that lie past the end of the file (truncated), a read that fails, or any
    /// packet that differs from its index entry.
    private func buildFromContainerIndex() throws(MediaError) -> Result? {
        guard demuxer.formatName.hasPrefix("mov"), demuxer.memory == nil else { return nil }
        let count = demuxer.indexEntryCount(of: streamIndex)
        guard count > 0, let reader = try? PayloadSkippingReader(path: demuxer.path), let size = reader.size else { return nil }
        // Every stream's samples are skipped, so a read runs from one box to the next. A chunk's
        // samples lie back to back: kept as one run, there are as many runs as chunks.
        var payloads: [Range<Int64>] = []
        for index in 0..<demuxer.streamCount {
            for position in 0..<demuxer.indexEntryCount(of: index) {
                guard let entry = demuxer.indexEntry(of: index, at: position) else { return nil }
                let end = entry.position + Int64(entry.size)
                guard entry.position >= 0, end <= size else { return nil }
                if let last = payloads.last, last.upperBound == entry.position {
                    payloads[payloads.count - 1] = last.lowerBound..<end
                } else {
                    payloads.append(entry.position..<end)
                }
            }
        }
        guard let indexed = try? Demuxer(path: demuxer.path, log: demuxer.log, probingStreams: false, skippingPayloads: reader),
              indexed.streamCount == demuxer.streamCount else { return nil }
        indexed.selectOnly(streamIndex: streamIndex)
        reader.skip(payloads)
        let scan = FrameTableBuilder(demuxer: indexed, streamIndex: streamIndex, originPTS: originPTS)
        guard let scanned = try? scan.scanPackets(), scanned.readError == nil, scanned.packets.count == count else { return nil }
        let packets = scanned.packets
        for (position, packet) in packets.enumerated() {
            guard packet.pts != nil, let entry = demuxer.indexEntry(of: streamIndex, at: position),
                  packet.position == entry.position, packet.dts == entry.timestamp,
                  packet.isKeyframe == entry.isKeyframe, packet.isDiscarded == entry.isDiscarded else { return nil }
        }
        var result = try tableFromPackets(packets, missingDataBefore: [:], source: .containerIndex)
        result.indexScanBytes = (reader.bytesRead, reader.bytesSkipped)
        return result
    }

    private func tableFromDecoding(_ demuxer: Demuxer, _ makeDecoder: () throws(FFmpegError) -> Decoder) throws(MediaError) -> Result {
        let decoder: Decoder
        do {
            decoder = try makeDecoder()
        } catch {
            throw MediaError(path: demuxer.path, reason: .decodeFailed, detail: "cannot decode stream \(streamIndex): \(demuxer.log.message(for: error))")
        }
        struct Decoded { let pts: Int64; let duration: Int64; let key: Bool; let position: Int64? }
        var decoded: [Decoded] = []
        var decodedWithoutTimestamps = 0
        let packet = Packet(), frame = Frame()
        let stream = demuxer.stream(streamIndex).pointee
        let sampleRate = stream.codecpar.pointee.sample_rate
        func collect() throws(FFmpegError) -> Bool {
            while true {
                switch try decoder.receive(into: frame) {
                case .needsInput: return true
                case .endOfStream: return false
                case .frame:
                    defer { frame.unref() }
                    guard let pts = frame.pts else { decodedWithoutTimestamps += 1; continue }
                    var duration = frame.duration
                    if duration <= 0 && sampleRate > 0 {
                        duration = av_rescale_q(Int64(frame.pointer.pointee.nb_samples),
                                                AVRational(num: 1, den: sampleRate), stream.time_base)
                    }
                    decoded.append(Decoded(pts: pts, duration: duration, key: frame.isKeyframe,
                                           position: frame.packetPosition))
                }
            }
        }
        do {
            reading: while true {
                guard try demuxer.read(into: packet) else { break reading }
                defer { packet.unref() }
                guard packet.streamIndex == streamIndex else { continue }
                do { try decoder.send(packet) } catch where error.code == fs_averror_invaliddata() { continue }
                _ = try collect()
            }
            try decoder.sendEndOfStream()
            _ = try collect()
        } catch {
            throw MediaError(path: demuxer.path, reason: .decodeFailed,
                             detail: "decoding stream \(streamIndex) failed after \(decoded.count) frames: \(demuxer.log.message(for: error))")
        }
        if decoded.isEmpty && decodedWithoutTimestamps > 0 {
            throw MediaError(path: demuxer.path, reason: .unsupported,
                             detail: "stream \(streamIndex) has no timestamps (a raw elementary stream?); remux it into MP4 or Matroska first")
        }
        let sorted = decoded.enumerated().sorted { $0.element.pts < $1.element.pts }
        try checkUnique(sorted.map(\.element.pts))
        let frames = try makeFrames(count: sorted.count, endingAtOwnDuration: [],
                                pts: { sorted[$0].element.pts },
                                packetDuration: { sorted[$0].element.duration },
                                isKeyframe: { sorted[$0].element.key },
                                decodeOrder: { sorted[$0].offset },
                                position: { sorted[$0].element.position })
        let points = frames.filter(\.isKeyframe).map {
            RandomAccessPoint(pts: $0.pts, dts: nil, decodeOrder: $0.decodeOrder, frameIndex: $0.index)
        }
        let table = FrameTable(streamIndex: streamIndex, timeBase: timeBase, originPTS: originPTS,
                               frames: frames, randomAccessPoints: points, source: .decodeScan)
        return Result(table: table, packetOrder: .unknown)
    }

    /// FrameSeek tells frames apart by PTS (it is what the decoder hands back), so two frames
    /// with one PTS (timestamps that restart, as in joined TS segments) would land on each
    /// other's pictures. Refused rather than answered wrongly. `sortedPTS` is ascending.
    private func checkUnique(_ sortedPTS: [Int64]) throws(MediaError) {
        let repeats = zip(sortedPTS, sortedPTS.dropFirst()).filter { $0 == $1 }
        guard let first = repeats.first else { return }
        throw MediaError(path: demuxer.path, reason: .unsupported,
                         detail: "\(repeats.count) frames of stream \(streamIndex) repeat another frame's timestamp (first at pts \(first.0)); FrameSeek cannot tell such frames apart")
    }

    /// Frames in presentation order, packed as they are made. A frame's duration is its
    /// packet's; where the packet has none, the gap to the next frame; for a last frame
    /// without one, the median gap.
    private func makeFrames(count: Int, endingAtOwnDuration: Set<Int>, pts: (Int) -> Int64, packetDuration: (Int) -> Int64,
                            isKeyframe: (Int) -> Bool, decodeOrder: (Int) -> Int,
                            position: (Int) -> Int64?) throws(MediaError) -> FrameList {
        let outOfRange = MediaError(path: demuxer.path, reason: .unsupported,
                                    detail: "timestamps of stream \(streamIndex) are out of range (they overflow 64 bits)")
        var gaps: [Int64] = []
        gaps.reserveCapacity(max(0, count - 1))
        for i in 0..<max(0, count - 1) {
            let (gap, overflow) = pts(i + 1).subtractingReportingOverflow(pts(i))
            if overflow { throw outOfRange }
            gaps.append(gap)
        }
        let medianGap = gaps.isEmpty ? 0 : gaps.sorted()[gaps.count / 2]
        for i in 0..<count where pts(i).subtractingReportingOverflow(originPTS).overflow { throw outOfRange }
        return FrameList(count: count, timeBase: timeBase, originPTS: originPTS, endingAtOwnDuration: endingAtOwnDuration) { i in
            var ticks = packetDuration(i)
            if ticks <= 0 { ticks = i < gaps.count ? gaps[i] : medianGap }
            return (pts(i), ticks, isKeyframe(i), decodeOrder(i), position(i))
        }
    }
}
