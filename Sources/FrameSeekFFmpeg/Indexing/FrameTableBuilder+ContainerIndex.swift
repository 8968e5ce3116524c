import FrameSeekCore

extension FrameTableBuilder {
    /// How many packets of an MP4 are read for real to learn what the demuxer adds to its
    /// sample table: enough to span the reordering of any B-frame pyramid.
    private static let calibrationPackets = 32

    /// The table of an MP4 or MOV made from its sample table without reading its packets.
    ///
    /// The demuxer's index gives each sample's DTS (edit list applied), position, size and
    /// sync flag; the `ctts` box (`MP4SampleTable`) gives its composition offset. Two things
    /// the demuxer adds differ between FFmpeg versions, so they are measured rather than
    /// assumed: the shift that makes the first PTS 0 (or the empty edit), and how it sets
    /// packet durations (from `stts`, or guessed from the frame rate). The first packets and
    /// the last one are read for real, and every one of them must agree with the table made
    /// this way, or the index scan answers instead.
    ///
    /// Declined, for another path to answer, when the file is not an MP4 read from its path, a
    /// sample lies past the end of the file (truncated), its samples do not map one to one to
    /// the index (more than one edit, a rate other than 1, a fragmented file), a box does not
    /// parse, or a packet read disagrees.
    func buildFromSampleTable() throws(MediaError) -> TableOutcome {
        guard demuxer.formatName.hasPrefix("mov"), demuxer.memory == nil else { return .declined(movedDemuxer: false) }
        let count = demuxer.indexEntryCount(of: streamIndex)
        guard count > 0, let reader = ByteRangeReader(borrowing: demuxer), let size = reader.size,
            samplesLieInFile(ofSize: size)
        else { return .declined(movedDemuxer: false) }
        // The packets first: the last sample lies just before a `moov` at the end of the file,
        // so over HTTP reading it and then the boxes is one stream of bytes forward.
        let observed: [(index: Int, packet: ScannedPacket)]
        switch observedPackets(count: count) {
        case .read(let packets): observed = packets
        case .unreadable: return .unreadable
        case .unusable: return .declined(movedDemuxer: true)
        }
        guard let unshifted = unshiftedPackets(count: count, reader: reader, fileSize: size) else {
            return .declined(movedDemuxer: true)
        }
        var pts = unshifted.pts
        guard let measured = measure(observed, count: count, unshiftedPTS: pts, lastSampleDelta: unshifted.lastSampleDelta) else {
            return .declined(movedDemuxer: true)
        }
        for i in 0..<count {
            let (shifted, overflow) = pts[i].addingReportingOverflow(measured.shift)
            guard !overflow else { return .declined(movedDemuxer: true) }
            pts[i] = shifted
        }
        let packets = SampleTablePackets(
            demuxer: demuxer, streamIndex: streamIndex, pts: pts, flags: unshifted.flags,
            durations: measured.durations, gaps: unshifted.gaps)
        let result = try tableFromPackets(packets, missingDataBefore: [:], source: .sampleTable)
        return .built(result.with(indexScanBytes: (reader.bytesRead, max(0, size - reader.bytesRead))))
    }

    /// Each packet's DTS plus its composition offset, and its flags (`SampleTablePackets`), with
    /// the last sample's duration; nil unless the track's samples map one to one to the
    /// demuxer's index. The offsets are let go here, before the table is made: their array
    /// holds the gaps from then on.
    private func unshiftedPackets(
        count: Int, reader: ByteRangeReader, fileSize: Int64
    )
        -> (pts: [Int64], flags: [UInt8], gaps: [Int32]?, lastSampleDelta: Int64?)?
    {
        let trackID = demuxer.stream(streamIndex).id
        guard
            var samples = MP4SampleTable.read(
                trackID: trackID, expectedSamples: count, fileSize: fileSize,
                using: { try? reader.read(at: $0, count: $1) }),
            samples.mediaEditCount <= 1, samples.editsPlayAtNormalRate
        else { return nil }
        guard let (dts, flags) = demuxer.indexTimestampsAndFlags(of: streamIndex, count: count) else { return nil }
        // The DTS, made PTS in place below once the gaps are taken from them (consumed, so not copied).
        var pts = consume dts
        // Each sample's gap to the next one's DTS, its stts duration, kept while every one fits.
        // Written over the composition offsets as they are used (slot i - 1 once slot i is
        // read), so that a long film's table takes no other array of 4 bytes a sample.
        var gaps: [Int32], hasOffsets: Bool
        if let offsets = samples.takeCompositionOffsets() {
            // The binding ends here: `gaps` holds the only reference, written without a copy.
            gaps = offsets
            hasOffsets = true
        } else {
            gaps = [Int32](repeating: 0, count: count)
            hasOffsets = false
        }
        guard gaps.count == count else { return nil }
        var gapsFit = true
        gaps.withUnsafeMutableBufferPointer { slots in
            pts.withUnsafeMutableBufferPointer { pts in
                var previousDTS = pts[0]
                for i in 0..<count {
                    let dts = pts[i]
                    if hasOffsets { pts[i] = dts &+ Int64(slots[i]) }
                    if i > 0, gapsFit {
                        if let gap = Int32(exactly: dts &- previousDTS) { slots[i - 1] = gap } else { gapsFit = false }
                    }
                    previousDTS = dts
                }
            }
            // The last sample has no next one: its slot is 0, never read.
            slots[count - 1] = 0
        }
        return (pts, flags, gapsFit ? gaps : nil, samples.lastSampleDelta)
    }

    /// Whether every sample of every stream lies inside the file: a truncated file is for the
    /// scan to report.
    private func samplesLieInFile(ofSize size: Int64) -> Bool {
        (0..<demuxer.streamCount).allSatisfy { demuxer.indexEntriesLie(in: size, of: $0) }
    }

    /// The first packets of the stream and its last one, read for real, each with its index in
    /// decode order; nil when a read fails.
    private func observedPackets(count: Int) -> PacketObservation {
        guard var read = readPackets(upTo: Self.calibrationPackets) else { return .unreadable }
        guard !read.isEmpty else { return .unusable }
        if count > read.count {
            // The last sample, alone: a seek to any sample past the end finds it.
            guard (try? demuxer.seekToAnySample(streamIndex: streamIndex, atOrBefore: Int64.max / 2)) != nil else { return .unusable }
            guard let last = readPackets(upTo: 1) else { return .unreadable }
            guard let lastPacket = last.first else { return .unusable }
            read.append((count - 1, lastPacket.packet))
        }
        return .read(read)
    }

    /// What reading the first packets and the last one gave.
    private enum PacketObservation {
        /// The packets, with their index in decode order.
        case read([(index: Int, packet: ScannedPacket)])
        /// A read failed: the media breaks off before the index says.
        case unreadable
        /// Nothing to measure by (no packet, or the seek to the last one failed).
        case unusable
    }

    /// The demuxer's PTS shift and duration rule, measured on the packets `read`; nil unless
    /// one shift and one rule hold for all of them.
    private func measure(
        _ read: [(index: Int, packet: ScannedPacket)], count: Int, unshiftedPTS: [Int64],
        lastSampleDelta: Int64?
    ) -> (shift: Int64, durations: SampleTablePackets.Durations)? {
        guard let firstPTS = read.first?.packet.pts else { return nil }
        let shift = firstPTS &- unshiftedPTS[0]
        for (i, packet) in read {
            guard let entry = demuxer.indexEntry(of: streamIndex, at: i), packet.pts == unshiftedPTS[i] &+ shift,
                packet.agrees(with: entry)
            else { return nil }
        }
        let last = lastSampleDelta ?? 0
        let followsTimeToSample = read.allSatisfy {
            $0.packet.duration
                == SampleTablePackets.timeToSample($0.index, count: count, last: last, demuxer: demuxer, streamIndex: streamIndex)
        }
        if followsTimeToSample { return (shift, .timeToSample(last: last)) }
        let constant = read[0].packet.duration
        if read.allSatisfy({ $0.packet.duration == constant }) { return (shift, .constant(constant)) }
        return nil
    }

    /// Up to `limit` packets of the stream from where the demuxer stands, with their index in
    /// decode order counted from there; nil when a read fails.
    private func readPackets(upTo limit: Int) -> [(index: Int, packet: ScannedPacket)]? {
        let packet = Packet()
        var read: [(index: Int, packet: ScannedPacket)] = []
        while read.count < limit {
            guard let more = try? demuxer.read(into: packet) else { return nil }
            guard more else { break }
            defer { packet.unref() }
            guard packet.streamIndex == streamIndex else { continue }
            read.append((read.count, ScannedPacket(packet)))
        }
        return read
    }

    /// The table of an MP4 or MOV read from its index: the packets of a second demuxer that
    /// reads the file through a `PayloadSkippingReader`, so only the boxes are read, and each
    /// packet's PTS, DTS, flags and position are the demuxer's own (no parser). Declined, for
    /// the full scan to answer, whenever the index cannot be trusted to: another container, no
    /// index, samples that lie past the end of the file (truncated), a read that fails, or any
    /// packet that differs from its index entry; with what the second demuxer read over HTTP
    /// either way, which the open paid for.
    func buildFromContainerIndex() throws(MediaError) -> TableOutcome {
        guard demuxer.formatName.hasPrefix("mov"), demuxer.memory == nil else { return .declined(movedDemuxer: false) }
        let count = demuxer.indexEntryCount(of: streamIndex)
        let scan = PayloadSkippingScan(demuxer)
        // What the scan read by the time it gives up, counted then.
        var declined: TableOutcome { .declined(movedDemuxer: false, separateReads: scan.reads) }
        guard count > 0, let reader = scan.reader, let size = reader.size, samplesLieInFile(ofSize: size) else { return declined }
        // Every stream's samples are skipped, so a read runs from one box to the next. A chunk's
        // samples lie back to back: kept as one run, there are as many runs as chunks.
        var payloads: [Range<Int64>] = []
        for index in 0..<demuxer.streamCount {
            for position in 0..<demuxer.indexEntryCount(of: index) {
                guard let entry = demuxer.indexEntry(of: index, at: position) else { return declined }
                let end = entry.position + Int64(entry.size)
                if let last = payloads.last, last.upperBound == entry.position {
                    payloads[payloads.count - 1] = last.lowerBound..<end
                } else {
                    payloads.append(entry.position..<end)
                }
            }
        }
        guard let packets = packets(through: reader, skipping: payloads, fromTheStart: false), packets.count == count else {
            return declined
        }
        for (position, packet) in packets.enumerated() {
            guard packet.pts != nil, let entry = demuxer.indexEntry(of: streamIndex, at: position),
                packet.agrees(with: entry), packet.isKeyframe == entry.isKeyframe
            else { return declined }
        }
        let result = try tableFromPackets(ScannedPackets(packets: packets), missingDataBefore: [:], source: .containerIndex)
        return .built(result.with(indexScanBytes: (reader.bytesRead, reader.bytesSkipped), separateReads: scan.reads))
    }

    /// The table of a fragmented MP4 read from its `moof` boxes: the top-level boxes are walked
    /// by their headers, and a second demuxer reads the file through a `PayloadSkippingReader`
    /// that skips every `mdat` body, so only the boxes are read, and each packet's PTS, DTS,
    /// flags and position are the demuxer's own (its `trun` entries). Declined for a file that
    /// is not a fragmented MP4 read from its path (its `moov` states samples), and for one
    /// whose boxes do not parse to its end (truncated, damaged), which the scan reports.
    func buildFromFragments() throws(MediaError) -> TableOutcome {
        guard demuxer.isFragmentedMP4(demuxer.stream(streamIndex)), demuxer.memory == nil,
            let boxes = ByteRangeReader(borrowing: demuxer), let size = boxes.size
        else { return .declined(movedDemuxer: false) }
        // Over HTTP the walk asks for little more than it reads: a header after a hop over an
        // `mdat` is a request for its 16 bytes and for twice the last `moof`, so that a `moof`
        // of about that size comes in the same request with the header after it. The boxes the
        // scan reads (`moof`, and the header's) are read whole and kept (`ReceivedBoxBytes`),
        // and the scan reads them from there: one request a fragment, where the walk asked for
        // each `moof` in two and the scan for each again. Reading on from a header without a
        // bound would fetch samples.
        let demuxer = demuxer
        let keepsBoxes = demuxer.ranged != nil
        var received = ReceivedBoxBytes()
        var lastMoofBytes: Int64 = 0
        var expected: Range<Int64>?
        let walked = MP4SampleTable.mediaDataBodies(
            fileSize: size,
            using: { offset, count in
                let inExpected = expected.map { $0.contains(offset) && $0.upperBound - offset >= Int64(count) } ?? false
                if !inExpected {
                    let guess = min(2 * lastMoofBytes, 256 * 1024)
                    expected = offset..<RangedHTTPReader.sum(offset, Int64(count) + guess)
                    demuxer.expectReads(in: expected)
                }
                let bytes = try? boxes.read(at: offset, count: count)
                if keepsBoxes, let bytes { received.keep(bytes, at: offset) }
                return bytes
            },
            visiting: { box in
                guard box.type != "mdat" else { return }
                expected = box.body.lowerBound..<RangedHTTPReader.sum(box.body.upperBound, 16)
                demuxer.expectReads(in: expected)
                guard keepsBoxes, ReceivedBoxBytes.scanReads(box.type) else { return }
                let bodyBytes = box.body.upperBound - box.body.lowerBound
                let body = received.hasRoom(for: bodyBytes) ? try? boxes.read(at: box.body.lowerBound, count: Int(bodyBytes)) : nil
                if let body { received.keep(body, at: box.body.lowerBound) }
                if box.type == "moof" { lastMoofBytes = body == nil ? 0 : box.body.upperBound - box.start }
            })
        demuxer.expectReads(in: nil)
        guard let bodies = walked, !bodies.isEmpty else { return .declined(movedDemuxer: true) }
        // A `moof` is a few kilobytes: one the walk did not keep (past the budget) is asked for
        // in a request that starts small, and grows while a large one is read.
        let scan = PayloadSkippingScan(demuxer, firstRequestBytes: 8 * 1024, received: keepsBoxes ? received : nil)
        // Skipped from the start: the header's own walk over fragments (without a `sidx`) then
        // steps over every `mdat` too.
        guard let reader = scan.reader, let packets = packets(through: reader, skipping: bodies, fromTheStart: true),
            !packets.isEmpty, packets.allSatisfy({ $0.pts != nil && ($0.position ?? -1) < size })
        else { return .declined(movedDemuxer: true, separateReads: scan.reads) }
        let result = try tableFromPackets(ScannedPackets(packets: packets), missingDataBefore: [:], source: .containerIndex)
        return .built(result.with(indexScanBytes: (reader.bytesRead, reader.bytesSkipped), separateReads: scan.reads))
    }

    /// The stream's packets as a second demuxer reads them through `reader`, which skips
    /// `payloads`: from the start, or once the demuxer has read the header for real. Nil when
    /// the demuxer cannot open, finds other streams, or a read fails.
    private func packets(
        through reader: PayloadSkippingReader, skipping payloads: [Range<Int64>], fromTheStart: Bool
    )
        -> [ScannedPacket]?
    {
        if fromTheStart { reader.skip(payloads) }
        guard
            let indexed = try? Demuxer(
                path: demuxer.path, log: demuxer.log, probingStreams: false, skippingPayloads: reader, network: demuxer.network),
            indexed.streamCount == demuxer.streamCount
        else { return nil }
        indexed.selectOnly(streamIndex: streamIndex)
        if !fromTheStart { reader.skip(payloads) }
        let scan = FrameTableBuilder(demuxer: indexed, streamIndex: streamIndex, originPTS: originPTS)
        guard let scanned = try? scan.scanPackets(), scanned.readError == nil else { return nil }
        return scanned.packets
    }
}

/// The payload-skipping reader a second demuxer reads a file through for an index scan. Over
/// HTTP it reads through bounded, counted ranges, as the opening demuxer does: FFmpeg's own
/// protocol asks for the rest of the file at every hop over a payload.
private struct PayloadSkippingScan {
    /// The reader; nil when it could not be opened.
    let reader: PayloadSkippingReader?
    private let ranged: RangedHTTPReader?

    /// Over HTTP, reads inside `received` are answered from it.
    init(_ demuxer: Demuxer, firstRequestBytes: Int64 = RangedHTTPReader.defaultFirstRequestBytes, received: ReceivedBoxBytes? = nil) {
        let ranged =
            RangedHTTPReader.reads(demuxer.path)
            // A scan reads each box once: nothing is kept to be read again.
            ? RangedHTTPReader(url: demuxer.path, policy: demuxer.network, firstRequestBytes: firstRequestBytes, keptBytes: 0)
            : nil
        self.ranged = ranged
        reader =
            ranged.map { ranged in
                let source: any ByteSource = received.map { ReceivedBytesSource($0, reading: ranged) } ?? ranged
                return try? PayloadSkippingReader(source: source, deadline: nil, timeout: demuxer.network.timeout)
            }
            ?? (try? PayloadSkippingReader(path: demuxer.path, network: demuxer.network))
    }

    /// What the scan asked for over HTTP, which the open paid for; nil for a local file.
    var reads: MediaReads? { ranged.map { MediaReads(bytes: $0.traffic.bytesRequested, requests: $0.traffic.requests) } }
}
