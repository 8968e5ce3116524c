/// The bytes of a fragmented MP4's boxes that the walk over its top-level boxes received over
/// HTTP (the `moof` boxes, and the headers between them), up to a budget, so that the scan
/// after the walk reads them again without a request.
///
/// Why: the table of a fragmented MP4 is built in two passes (`buildFromFragments`). The walk
/// finds where each `mdat` body lies, and a second demuxer then reads every `moof` while
/// skipping those bodies. Both passes read the same `moof` boxes, and over HTTP each is a
/// request, so a film with a fragment per GOP cost three requests a fragment.
///
/// Bytes are kept in ascending, disjoint ranges, as the walk goes forward; bytes at or before
/// the end of the last range are not kept again. The thread that builds the table owns it.
struct ReceivedBoxBytes {
    /// The most bytes kept: a two-hour film's `moof` boxes are a few megabytes.
    static let defaultBudget = 16 << 20
    /// The largest box body read to be kept: a `moof` is a few kilobytes; a larger box (a `free`
    /// of any size a file may claim) is left to the scan.
    static let largestBox: Int64 = 1 << 20

    let budget: Int
    private(set) var count = 0
    private var ranges: [Kept] = []

    private struct Kept {
        let start: Int64
        var bytes: [UInt8]
        var end: Int64 { start + Int64(bytes.count) }
    }

    init(budget: Int = Self.defaultBudget) { self.budget = budget }

    /// Whether the scan reads boxes of `type`: the header's, and each fragment's `moof`. It
    /// seeks over the rest (`free`, `skip`), which are not worth a read of their own.
    static func scanReads(_ type: String) -> Bool { ["ftyp", "styp", "moov", "sidx", "moof"].contains(type) }

    /// Whether a box body of `bytes` may be read to be kept.
    func hasRoom(for bytes: Int64) -> Bool { bytes <= Self.largestBox && Int64(count) + bytes <= Int64(budget) }

    /// Keeps `bytes`, received at `offset`: the part past the last range kept, joined to it when
    /// it follows on, and nothing once the budget is reached.
    mutating func keep(_ bytes: [UInt8], at offset: Int64) {
        guard !bytes.isEmpty, RangedHTTPReader.sum(offset, Int64(bytes.count)) > (ranges.last?.end ?? 0) else { return }
        if let last = ranges.last, offset <= last.end {
            guard offset >= last.start else { return }
            let new = bytes.dropFirst(Int(last.end - offset))
            guard count + new.count <= budget else { return }
            ranges[ranges.count - 1].bytes.append(contentsOf: new)
            count += new.count
        } else {
            guard count + bytes.count <= budget else { return }
            ranges.append(Kept(start: offset, bytes: bytes))
            count += bytes.count
        }
    }

    /// Copies what is kept from `offset` on, up to `wanted` bytes and the end of its range, into
    /// `buffer`: the count copied (0 when nothing kept holds `offset`), and where the next kept
    /// range starts after `offset` (nil when none does).
    func copy(at offset: Int64, into buffer: UnsafeMutablePointer<UInt8>, count wanted: Int) -> (copied: Int, nextStart: Int64?) {
        var low = 0, high = ranges.count  // ranges[..<low] end at or before offset
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].end <= offset { low = mid + 1 } else { high = mid }
        }
        guard low < ranges.count else { return (0, nil) }
        let range = ranges[low]
        guard range.start <= offset else { return (0, range.start) }
        let from = Int(offset - range.start)
        let copied = min(max(0, wanted), range.bytes.count - from)
        range.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + from, count: copied) }
        return (copied, low + 1 < ranges.count ? ranges[low + 1].start : nil)
    }
}

/// A `ByteSource` that answers reads from the bytes a walk received (`ReceivedBoxBytes`) and
/// reads everything else from `inner`, asking it for no more than the bytes up to the next kept
/// range (its own buffering may read further).
final class ReceivedBytesSource: ByteSource {
    private let received: ReceivedBoxBytes
    private let inner: any ByteSource
    /// Where the next read starts.
    private var offset: Int64 = 0
    /// Where `inner` stands; nil until it is first moved.
    private var innerOffset: Int64?

    init(_ received: ReceivedBoxBytes, reading inner: any ByteSource) {
        self.received = received
        self.inner = inner
    }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 {
        guard count > 0 else { return 0 }
        let kept = received.copy(at: offset, into: buffer, count: Int(count))
        if kept.copied > 0 {
            offset += Int64(kept.copied)
            return Int32(kept.copied)
        }
        if innerOffset != offset {
            do { try inner.seek(to: offset) } catch { return error.code }
            innerOffset = offset
        }
        let wanted = Int32(min(Int64(count), (kept.nextStart ?? .max) - offset))
        let read = inner.read(into: buffer, count: wanted)
        if read > 0 {
            offset += Int64(read)
            innerOffset = offset
        }
        return read
    }

    func seek(to offset: Int64) throws(FFmpegError) { self.offset = offset }

    var size: Int64 { inner.size }
}
