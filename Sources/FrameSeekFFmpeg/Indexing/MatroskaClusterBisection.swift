/// Finds the Matroska cluster that holds a time by bisecting the file's bytes, for a seek past
/// the last entry of the demuxer's index.
///
/// Why: FFmpeg's Matroska demuxer seeks by its index, the Cues. A file without them (a
/// recording cut short, a browser's MediaRecorder WebM, anything muxed to a pipe) has in its
/// index only the keyframes read so far, and a seek past the last one parses every cluster
/// from there on: a seek near the end of a two-hour recording reads all of it. A cluster
/// starts with its ID and its timestamp, so a few reads find one near any byte, and halving
/// the bytes between the last entry and the end of the file finds the cluster before a time
/// in a few dozen reads. Each cluster found becomes an index entry, where FFmpeg's own seek
/// then goes, as it goes to a cue.
///
/// Only the cluster's ID, size and timestamp are read here; FFmpeg demuxes the blocks. A
/// cluster need not start with a keyframe (one muxed to a pipe is at most a second or 32 KB),
/// so FFmpeg's seek to it may start at a keyframe after the target: the seek window then steps
/// back, as it does after any seek, and the clusters found on the way, each an index entry
/// too, make the next bisection short or unneeded. A cluster that is not where its bytes
/// claim costs only a worse guess: the window still reads real packets.
///
/// Not Sendable: it reads through the demuxer, on the thread that drives it, between its reads.
final class MatroskaClusterBisection {
    /// The EBML ID of a Cluster.
    static let clusterID: [UInt8] = [0x1F, 0x43, 0xB6, 0x75]
    /// Bisection stops when the bytes left are fewer: the demuxer parses the rest.
    static let granularity: Int64 = 1 << 20
    /// How far past a probe a cluster is looked for; a cluster is at most a few seconds.
    static let scanLimit = 1 << 20

    let demuxer: Demuxer
    let streamIndex: Int
    /// Whether the file's SeekHead lists Cues, once read.
    private var listsCues: Bool?

    init(demuxer: Demuxer, streamIndex: Int) {
        self.demuxer = demuxer
        self.streamIndex = streamIndex
    }

    /// A cluster found: where its ID starts, and its timestamp in the segment's timestamp
    /// scale, the stream's time base unless a track sets a scale of its own.
    struct Cluster: Equatable {
        let position: Int64
        let timestamp: Int64
    }

    /// Adds an index entry for each cluster it finds while it halves the bytes between the
    /// index's entries on either side of `target` (or the end of the file) down to
    /// `granularity`; nothing when they are that close already, or when the file's SeekHead
    /// lists Cues, which FFmpeg reads at its first seek. Returns the clusters found.
    ///
    /// - Throws: `FFmpegError` from the reads.
    @discardableResult
    func addEntries(around target: Int64) throws(FFmpegError) -> [Cluster] {
        guard demuxer.formatName == "matroska,webm", let (below, above) = entries(around: target), below.position >= 0,
            let reader = ByteRangeReader(borrowing: demuxer), let size = reader.size
        else { return [] }
        var low = below.position, high = min(size, above.map { max($0.position, below.position) } ?? size)
        guard high - low > Self.granularity else { return [] }
        if listsCues == nil { listsCues = try Self.seekHeadListsCues(in: reader) }
        guard listsCues == false else { return [] }
        var found: [Cluster] = []
        while high - low > Self.granularity {
            let middle = low + (high - low) / 2
            // The first cluster at or after `middle`: none lies between the two, so a later
            // one than the target puts every earlier one before `middle`.
            guard let cluster = try firstCluster(reader, from: middle, before: high) else {
                high = middle
                continue
            }
            found.append(cluster)
            demuxer.addKeyframeEntry(streamIndex: streamIndex, position: cluster.position, timestamp: cluster.timestamp)
            if cluster.timestamp <= target { low = cluster.position } else { high = middle }
        }
        return found
    }

    /// The bytes a window from `start` through `end` most likely lies in: from the cluster of
    /// the index's last entry at or before `start` to that of its first entry after `end`.
    /// With Cues, that is from the keyframe a seek to `start` goes to up to the next keyframe
    /// after `end`. Nil when the index has no entry on either side, or outside Matroska.
    func likelyWindowBytes(from start: Int64, through end: Int64) -> Range<Int64>? {
        guard demuxer.formatName == "matroska,webm", let first = entries(around: start)?.below,
            let last = entries(around: max(start, end))?.above, first.position >= 0, last.position > first.position
        else { return nil }
        return first.position..<last.position
    }

    /// The last index entry at or before `target` and the first after it (nil past the last);
    /// nil when none is at or before it. The entries are in timestamp order.
    private func entries(around target: Int64) -> (below: ContainerIndexEntry, above: ContainerIndexEntry?)? {
        let count = demuxer.indexEntryCount(of: streamIndex)
        var low = 0, high = count  // the first entry after `target` lies in low...high
        while low < high {
            let middle = low + (high - low) / 2
            guard let entry = demuxer.indexEntry(of: streamIndex, at: middle) else { return nil }
            if entry.timestamp <= target { low = middle + 1 } else { high = middle }
        }
        guard low > 0, let below = demuxer.indexEntry(of: streamIndex, at: low - 1) else { return nil }
        return (below, low < count ? demuxer.indexEntry(of: streamIndex, at: low) : nil)
    }

    /// How much of the file's start is searched for a SeekHead entry naming the Cues.
    static let headBytes = 64 * 1024

    /// Whether the SeekHead of the file `reader` reads lists Cues, from its first `headBytes`;
    /// the demuxer's I/O is left where it stood.
    ///
    /// - Throws: `FFmpegError` from the read.
    static func seekHeadListsCues(in reader: ByteRangeReader) throws(FFmpegError) -> Bool {
        seekHeadListsCues(try reader.readInPlace(at: 0, count: headBytes))
    }

    /// Whether `head`, the file's first bytes, holds a SeekHead entry for the Cues: a SeekID
    /// element (0x53AB, 4 bytes) whose value is the Cues' ID (0x1C53BB6B).
    static func seekHeadListsCues(_ head: [UInt8]) -> Bool {
        let entry: [UInt8] = [0x53, 0xAB, 0x84, 0x1C, 0x53, 0xBB, 0x6B]
        guard head.count >= entry.count else { return false }
        return (0...(head.count - entry.count)).contains { start in entry.indices.allSatisfy { head[start + $0] == entry[$0] } }
    }

    /// The first cluster whose ID starts in `offset..<min(end, offset + scanLimit)`, read
    /// through `reader` in chunks that carry on from one another (so that requests over HTTP
    /// grow as they do for any read that carries on) until one is found; nil when there is
    /// none, or none whose header reads as a cluster's.
    private func firstCluster(_ reader: ByteRangeReader, from offset: Int64, before end: Int64) throws(FFmpegError) -> Cluster? {
        let span = min(Int64(Self.scanLimit), end - offset)
        // A cluster header is at most 4 + 8 + (CRC-32) 6 + 1 + 8 + 8 bytes past its ID's start.
        let headerBytes = 40
        var window: [UInt8] = []  // the bytes from `windowStart` on
        var windowStart = offset, readTo = offset
        // The size is the server's word: near Int64.max the sums saturate rather than trap.
        let stop = RangedHTTPReader.sum(offset, span + Int64(headerBytes))
        while true {
            let chunk = try reader.read(at: readTo, count: 64 * 1024)
            readTo = RangedHTTPReader.sum(readTo, Int64(chunk.count))
            window += chunk
            let finished = chunk.isEmpty || readTo >= stop
            // An ID starting at an index is judged once its header's bytes are all in.
            let ready = finished ? window.count : window.count - headerBytes
            let limit = max(0, min(ready, Int(offset + span - windowStart)))
            if let (index, timestamp) = Self.firstClusterHeader(in: window, before: limit) {
                return Cluster(position: windowStart + Int64(index), timestamp: timestamp)
            }
            if finished { return nil }
            window.removeFirst(limit)
            windowStart += Int64(limit)
        }
    }

    /// The first index below `limit` where a cluster's ID and a header that reads as a
    /// cluster's start in `bytes`, and that cluster's timestamp.
    static func firstClusterHeader(in bytes: [UInt8], before limit: Int) -> (index: Int, timestamp: Int64)? {
        var index = 0
        while index < limit, index + 4 <= bytes.count {
            if bytes[index] == clusterID[0], bytes[index + 1] == clusterID[1], bytes[index + 2] == clusterID[2],
                bytes[index + 3] == clusterID[3], let timestamp = clusterTimestamp(bytes, after: index + 4)
            {
                return (index, timestamp)
            }
            index += 1
        }
        return nil
    }

    /// The timestamp of a cluster whose size starts at `start` in `bytes`: the size (known or
    /// not), an optional CRC-32 element, then the Timestamp element (ID 0xE7) and its value.
    static func clusterTimestamp(_ bytes: [UInt8], after start: Int) -> Int64? {
        guard let size = variableInteger(bytes, at: start) else { return nil }
        var index = start + size.length
        // A CRC-32 element (ID 0xBF, 4 bytes) may come first in a cluster.
        if index + 6 <= bytes.count, bytes[index] == 0xBF, bytes[index + 1] == 0x84 { index += 6 }
        guard index < bytes.count, bytes[index] == 0xE7, let length = variableInteger(bytes, at: index + 1),
            (1...8).contains(length.value)
        else { return nil }
        let valueStart = index + 1 + length.length
        guard valueStart + Int(length.value) <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[valueStart..<valueStart + Int(length.value)] { value = value << 8 | UInt64(byte) }
        return Int64(exactly: value)
    }

    /// An EBML variable-size integer at `index`: its value (all ones, "unknown", as it is) and
    /// its length in bytes; nil when the first byte is 0 or the bytes run out.
    static func variableInteger(_ bytes: [UInt8], at index: Int) -> (value: UInt64, length: Int)? {
        guard index < bytes.count, bytes[index] != 0 else { return nil }
        let length = bytes[index].leadingZeroBitCount + 1
        guard index + length <= bytes.count else { return nil }
        var value = UInt64(bytes[index] & (0xFF >> length))
        for byte in bytes[index + 1..<index + length] { value = value << 8 | UInt64(byte) }
        return (value, length)
    }
}
