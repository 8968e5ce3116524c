/// What FrameSeek reads itself from one track of an MP4 or MOV `moov` box: the sample count,
/// the composition offsets (`ctts`), the last sample's duration (`stts`) and how many edits
/// its edit list has.
///
/// Why: FFmpeg's demuxer holds every sample's DTS, position, size and sync flag in its index
/// once the header is parsed, but keeps the composition offsets, which make the PTS, to itself
/// until it hands out each packet. Handing out the 215,784 packets of a two-hour film costs
/// more than FFmpeg's whole seek; reading the `ctts` box costs a few hundred kilobytes.
///
/// Boxes are read in one pass forward through the file, each header as it comes, so that over
/// HTTP the walk is one stream of bytes rather than a request per box. Only what is needed is
/// read: box headers, `tkhd`, `elst`, the `stsz` header, `ctts` and the last entry of `stts`.
/// A second pass over the `moov` then looks for a `ctts` outside the sample tables
/// (`compositionBoxesLieInSampleTables`); it reads the small boxes' bodies and not the tables',
/// and its bytes are the ones FFmpeg just read. A box that does not parse leaves the whole
/// table nil. Containers are read as FFmpeg's mov demuxer reads them (`mov_read_default`): one
/// inside `moov` or deeper ends at a `trak` or `mdat` box inside it, and one nested deeper than
/// FFmpeg reads leaves the table nil.
struct MP4SampleTable {
    /// `stsz` (or `stz2`) sample count.
    let sampleCount: Int
    /// Each sample's composition offset (`ctts`), in decode order: 4 bytes a sample, since a
    /// B-frame stream's runs are mostly one sample long. Nil when the track has no `ctts`.
    private(set) var compositionOffsets: [Int32]?
    /// The duration of the last sample in the media time scale: the last `stts` delta.
    let lastSampleDelta: Int64?
    /// Edits of the edit list that map media (media time other than -1); 0 without `elst`.
    let mediaEditCount: Int
    /// Every edit's media rate is 1.
    let editsPlayAtNormalRate: Bool

    /// The composition offsets, no longer held here: the only reference, so the caller may
    /// write over them without a copy.
    mutating func takeCompositionOffsets() -> [Int32]? {
        defer { compositionOffsets = nil }
        return compositionOffsets
    }

    /// The table of the track whose `tkhd` track ID is `trackID` (what FFmpeg's mov demuxer
    /// sets as `AVStream.id`), read through `read(offset, count)`; nil when the file has no such
    /// track, its samples are not `expectedSamples`, a box does not parse, or a read fails.
    ///
    /// `fileSize` bounds every box: a box that claims to run past it is not parsed.
    static func read(
        trackID: Int, expectedSamples: Int, fileSize: Int64,
        using read: @escaping (Int64, Int) -> [UInt8]?
    ) -> MP4SampleTable? {
        let reader = BoxReader(read: read, fileSize: fileSize)
        var found: MP4SampleTable??
        var movie: Range<Int64>?
        reader.forEachChild(of: 0..<fileSize) { box in
            guard box.type == "moov" else { return true }
            movie = box.body
            reader.forEachChild(of: box.body) { trak in
                guard trak.type == "trak" else { return true }
                var track = TrackParse(expectedSamples: expectedSamples)
                reader.forEachChild(of: trak.body, endingAtTrackOrMediaData: true) {
                    track.visit($0, depth: TrackParse.trackChildDepth, trackID: trackID, reader)
                }
                if track.isTheTrack { found = .some(track.table) }
                return !track.isTheTrack
            }
            return false
        }
        guard let table = found ?? nil, let movie, reader.compositionBoxesLieInSampleTables(of: movie) else { return nil }
        return table
    }
}

extension BoxReader {
    /// Boxes FFmpeg reads as tables, never as containers: a box's type inside their bodies is
    /// a number, not a box FFmpeg reads.
    private static let tables: Set<String> = [
        "stsz", "stz2", "stco", "co64", "stts", "ctts", "stss", "stps", "stsc", "sdtp", "sbgp", "sgpd", "elst"
    ]

    /// Whether every `ctts` in the `moov` body `movie` lies in a track's `stbl`, where the walk
    /// reads it. FFmpeg's mov demuxer reads a `ctts` in any container it descends into (a
    /// `dinf`, a sample description's extensions) for the track it is reading, so one placed
    /// elsewhere would give FFmpeg's packets other composition times than the walk's table.
    /// The path to each `stbl` is walked box by box; any other box's body, where FFmpeg may
    /// find boxes at offsets of its own, is searched for the type's four bytes, whole (an `edts`
    /// with its `elst`, a `udta` with its cover art). A table that is a child of a box on the
    /// path is passed over: its body is numbers. Bytes that only look like a `ctts` (about once
    /// in 4,000 MiB of random bytes) make the table decline, which costs the index scan, never
    /// a wrong time.
    fileprivate func compositionBoxesLieInSampleTables(of movie: Range<Int64>) -> Bool {
        var elsewhere = false
        func search(_ container: Range<Int64>, path: ArraySlice<String>) {
            forEachChild(of: container, endingAtTrackOrMediaData: path.count < 4) { box in
                if box.type == path.first {
                    search(box.body, path: path.dropFirst())
                } else if box.type == "ctts" {
                    elsewhere = elsewhere || !path.isEmpty
                } else if !Self.tables.contains(box.type) {
                    elsewhere = elsewhere || mentionsComposition(box.body)
                }
                return !elsewhere
            }
        }
        search(movie, path: ["trak", "mdia", "minf", "stbl"])
        return !elsewhere
    }

    /// Whether `range` holds the four bytes `ctts` (or cannot be read).
    private func mentionsComposition(_ range: Range<Int64>) -> Bool {
        let pattern = Array("ctts".utf8)
        var offset = range.lowerBound
        while range.upperBound - offset >= Int64(pattern.count) {
            let count = Int(min(1 << 20, range.upperBound - offset))
            guard let chunk = read(offset, count), chunk.count == count else { return true }
            if chunk.firstRange(of: pattern) != nil { return true }
            // Chunks overlap by three bytes, so four bytes across two chunks are seen.
            guard offset + Int64(count) < range.upperBound else { break }
            offset += Int64(count - (pattern.count - 1))
        }
        return false
    }
}

extension MP4SampleTable {
    /// The bodies of a file's top-level `mdat` boxes, the samples of a fragmented MP4, found by
    /// walking its top-level box headers through `read(offset, count)`; nil unless the walk
    /// parses every box and ends exactly at `fileSize` (a truncated or damaged file is for a
    /// scan to report).
    /// `visiting` is told each box's type, start and body as its header is read, before the
    /// walk moves past it.
    static func mediaDataBodies(
        fileSize: Int64, using read: @escaping (Int64, Int) -> [UInt8]?,
        visiting: (_ box: (type: String, start: Int64, body: Range<Int64>)) -> Void = { _ in }
    ) -> [Range<Int64>]? {
        let reader = BoxReader(read: read, fileSize: fileSize)
        var bodies: [Range<Int64>] = []
        var end: Int64 = 0
        reader.forEachChild(of: 0..<fileSize) { box in
            visiting((box.type, box.start, box.body))
            if box.type == "mdat" { bodies.append(box.body) }
            end = box.body.upperBound
            return true
        }
        return end == fileSize ? bodies : nil
    }
}

/// The boxes of one `trak` as the walk meets them.
private struct TrackParse {
    /// FFmpeg's `atom_depth` inside a `trak`: the file, `moov` and `trak` are its containers.
    static let trackChildDepth = 3
    /// The deepest FFmpeg reads a container at (`mov_read_default`: "Atoms too deeply nested"
    /// past it, and the file does not open).
    static let deepestContainer = 10

    let expectedSamples: Int
    /// Whether its `tkhd` names the track looked for (false until the `tkhd` is read).
    var isTheTrack = false
    private var failed = false
    private var sampleCount: Int?
    private var offsets: [Int32]?
    private var lastDelta: Int64?
    private var mediaEdits = 0
    private var normalRate = true

    init(expectedSamples: Int) { self.expectedSamples = expectedSamples }

    var table: MP4SampleTable? {
        guard !failed, let sampleCount, sampleCount == expectedSamples, offsets == nil || offsets!.count == sampleCount else { return nil }
        return MP4SampleTable(
            sampleCount: sampleCount, compositionOffsets: offsets, lastSampleDelta: lastDelta,
            mediaEditCount: mediaEdits, editsPlayAtNormalRate: normalRate)
    }

    /// Takes in one box of the `trak` (or of the boxes inside it), which lies `depth`
    /// containers deep; false to stop the walk.
    mutating func visit(_ box: Box, depth: Int, trackID: Int, _ reader: BoxReader) -> Bool {
        switch box.type {
        case "tkhd":
            guard let header = reader.bytes(box.body, upTo: 24) else { failed = true; return false }
            let idOffset = header.first == 1 ? 20 : 12
            isTheTrack = header.count >= idOffset + 4 && Int(header.uint32(at: idOffset)) == trackID
            return isTheTrack
        case "edts", "mdia", "minf", "stbl":
            // FFmpeg would not have opened a file nested deeper; and a file of boxes nested a
            // million deep costs this recursion a few levels, not the stack.
            guard depth <= Self.deepestContainer else { failed = true; return false }
            var keepGoing = true
            reader.forEachChild(of: box.body, endingAtTrackOrMediaData: true) { child in
                keepGoing = visit(child, depth: depth + 1, trackID: trackID, reader)
                return keepGoing
            }
            return keepGoing
        case "elst":
            guard let edits = reader.editList(box) else { failed = true; return false }
            mediaEdits = edits.filter { $0.mediaTime != -1 }.count
            normalRate = edits.allSatisfy { $0.rate == 0x0001_0000 }
        case "stsz", "stz2":
            guard let header = reader.bytes(box.body, upTo: 12), header.count == 12 else { failed = true; return false }
            sampleCount = Int(header.uint32(at: 8))
        case "ctts":
            switch reader.compositionOffsets(box, atMost: expectedSamples) {
            case nil: failed = true; return false
            case .perSample(let perSample)?: offsets = perSample
            case .discarded?: offsets = nil
            case .empty?: break
            }
        case "stts":
            lastDelta = reader.lastTimeToSampleDelta(box)
        default:
            break
        }
        return true
    }
}

/// One box: its four-character type and the byte range of its body.
private struct Box {
    let type: String
    /// Where its header starts.
    let start: Int64
    let body: Range<Int64>
}

/// Walks boxes through a byte-range read, reading nothing but what it is asked for.
private struct BoxReader {
    let read: (Int64, Int) -> [UInt8]?
    let fileSize: Int64

    /// Calls `visit` with each box in `range` in order, as its header is read, until `visit`
    /// returns false or a header does not parse. `visit` may read the box's body before the
    /// walk moves past it, so every read goes forward.
    ///
    /// With `endingAtTrackOrMediaData` (a container other than the file and `moov`), a `trak`
    /// or `mdat` box ends the walk before it is visited: FFmpeg stops reading such a container
    /// there ("Broken file, trak/mdat not at top-level"), so the boxes after it are not its.
    func forEachChild(of range: Range<Int64>, endingAtTrackOrMediaData: Bool = false, _ visit: (Box) -> Bool) {
        var offset = range.lowerBound, visited = 0
        // Measured from the end: a size a server states may put `range` within 8 bytes of Int64.max.
        while range.upperBound - offset >= 8, visited < 100_000 {
            guard let header = read(offset, Int(min(16, range.upperBound - offset))), header.count >= 8 else { return }
            var size = Int64(header.uint32(at: 0)), headerSize: Int64 = 8
            if size == 1 {
                guard header.count == 16 else { return }
                size = Int64(bitPattern: header.uint64(at: 8)); headerSize = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= headerSize, size <= range.upperBound - offset, offset + size <= fileSize else { return }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if endingAtTrackOrMediaData && (type == "trak" || type == "mdat") { return }
            visited += 1
            guard visit(Box(type: type, start: offset, body: (offset + headerSize)..<(offset + size))) else { return }
            offset += size
        }
    }

    /// Up to `count` bytes from the start of `range`.
    func bytes(_ range: Range<Int64>, upTo count: Int) -> [UInt8]? {
        read(range.lowerBound, Int(min(Int64(count), range.upperBound - range.lowerBound)))
    }

    /// A full box's version and entry count, with the entries' size, checked against the
    /// entries' room in the box.
    private func entries(_ box: Box, entrySize: (UInt8) -> Int) -> (version: UInt8, count: Int, size: Int)? {
        guard let header = bytes(box.body, upTo: 8), header.count == 8 else { return nil }
        let version = header[0], count = Int(header.uint32(at: 4)), size = entrySize(version)
        guard Int64(count) * Int64(size) <= box.body.upperBound - box.body.lowerBound - 8 else { return nil }
        return (version, count, size)
    }

    func editList(_ box: Box) -> [(mediaTime: Int64, rate: UInt32)]? {
        guard let (version, count, size) = entries(box, entrySize: { $0 == 1 ? 20 : 12 }),
            let data = read(box.body.lowerBound + 8, count * size), data.count == count * size
        else { return nil }
        return (0..<count).map { i in
            let at = i * size
            let mediaTime = version == 1 ? Int64(bitPattern: data.uint64(at: at + 8)) : Int64(Int32(bitPattern: data.uint32(at: at + 4)))
            return (mediaTime, data.uint32(at: at + (version == 1 ? 16 : 8)))
        }
    }

    /// What a `ctts` box gives, read as FFmpeg 5.1 reads it (`mov_read_ctts`).
    enum CompositionOffsetsBox {
        /// One offset per sample.
        case perSample([Int32])
        /// FFmpeg drops the box, and any `ctts` before it: an offset beyond ±2^28 in an entry
        /// other than the last two ("CTTS invalid"). Packets then have PTS = DTS.
        case discarded
        /// No entries: FFmpeg returns before it reads, and a `ctts` before it stands.
        case empty
    }

    /// The `ctts` runs expanded to one offset per sample, read 64 KiB at a time; nil when they
    /// cover more than `atMost` samples. Offsets are signed in either version, and an entry of
    /// a count 0 or above 2^31 - 1 (negative as FFmpeg reads it) is skipped, as FFmpeg does.
    func compositionOffsets(_ box: Box, atMost limit: Int) -> CompositionOffsetsBox? {
        guard let (_, count, size) = entries(box, entrySize: { _ in 8 }) else { return nil }
        guard count > 0 else { return .empty }
        let perRead = 8192
        var fits = true, discarded = false
        // Written straight into one buffer of `limit` slots (what a well-formed box fills), not
        // appended: an append checks the array's uniqueness and capacity, 200,000 times over
        // for a two-hour film.
        let offsets = [Int32](unsafeUninitializedCapacity: max(0, limit)) { buffer, filled in
            var done = 0
            while done < count, fits, !discarded {
                let batch = min(perRead, count - done)
                guard let data = read(box.body.lowerBound + 8 + Int64(done * size), batch * size), data.count == batch * size else {
                    fits = false
                    break
                }
                data.withUnsafeBytes { bytes in
                    for i in 0..<batch {
                        let samples = Int32(bitPattern: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt32.self)))
                        let offset = Int32(bitPattern: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: i * 8 + 4, as: UInt32.self)))
                        guard samples > 0 else { continue }
                        if offset.magnitude > 1 << 28 && done + i + 2 < count {
                            discarded = true
                            return
                        }
                        guard Int(samples) <= limit - filled else { fits = false; return }
                        // B-frame streams have a run per sample, mostly.
                        if samples == 1 {
                            buffer.initializeElement(at: filled, to: offset)
                        } else {
                            buffer[filled..<filled + Int(samples)].initialize(repeating: offset)
                        }
                        filled += Int(samples)
                    }
                }
                done += batch
            }
        }
        if discarded { return .discarded }
        return fits ? .perSample(offsets) : nil
    }

    /// The delta of the last `stts` entry.
    func lastTimeToSampleDelta(_ box: Box) -> Int64? {
        guard let (_, count, size) = entries(box, entrySize: { _ in 8 }), count > 0,
            let last = read(box.body.lowerBound + 8 + Int64((count - 1) * size), 8), last.count == 8
        else { return nil }
        return Int64(last.uint32(at: 4))
    }
}

private extension [UInt8] {
    func uint32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }

    func uint64(at offset: Int) -> UInt64 {
        (offset..<offset + 8).reduce(0) { $0 << 8 | UInt64(self[$1]) }
    }
}
