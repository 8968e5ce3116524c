internal import CFFmpeg
import FrameSeekCore

/// A custom `AVIOContext` that reads a file or URL through FFmpeg's own I/O layer but never
/// reads the byte ranges it is told hold sample payloads: it answers reads inside them without
/// I/O, leaving the buffer as it is.
///
/// Why: an MP4's sample table sits in its `moov` box, but the demuxer only gives each sample's
/// PTS (its composition offset applied) as it returns the packet, which it reads from the
/// `mdat` at the sample's position. With no parser (`AVFMT_FLAG_NOPARSE`) nothing looks at the
/// payload, so a demuxer reading through this context returns every packet's timestamps, flags
/// and position while only the boxes are read: the index of a two-hour film costs its `moov`,
/// not its gigabytes. Until `skip(_:)` is called every byte is read, so the header is parsed
/// from the real file.
///
/// Not Sendable: FFmpeg calls back on the thread that drives the demuxer, and the positions are
/// that demuxer's alone.
final class PayloadSkippingReader {
    /// The read position and the inner context, which the callbacks reach through the `opaque`
    /// pointer. A class of its own so that the pointer exists before `avio_alloc_context`.
    private final class Cursor: PositionedReadCursor {
        let inner: any ByteSource
        /// Sorted, disjoint `[start, end)` byte ranges that are never read.
        var skipped: [Range<Int64>] = []
        /// Where the inner context stands; a read elsewhere seeks it first.
        var innerOffset: Int64 = 0
        /// Bytes really read from the source: the file or URL, or the bytes an earlier walk
        /// over the file kept (`ReceivedBytesSource`).
        var bytesRead: Int64 = 0
        /// Bytes answered without reading.
        var bytesSkipped: Int64 = 0
        /// Bounds each read of a URL in wall-clock time; nil for a local file.
        let deadline: NetworkDeadline?
        let timeout: Duration

        init(inner: any ByteSource, deadline: NetworkDeadline?, timeout: Duration) {
            self.inner = inner
            self.deadline = deadline
            self.timeout = timeout
        }

        /// The skipped range holding `offset`, or else the start of the next one.
        private func place(_ offset: Int64) -> (inside: Range<Int64>?, nextStart: Int64?) {
            var low = 0, high = skipped.count  // skipped[..<low] end <= offset
            while low < high {
                let mid = (low + high) / 2
                if skipped[mid].upperBound <= offset { low = mid + 1 } else { high = mid }
            }
            guard low < skipped.count else { return (nil, nil) }
            return skipped[low].contains(offset) ? (skipped[low], nil) : (nil, skipped[low].lowerBound)
        }

        override func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 {
            guard size > 0 else { return 0 }
            let place = place(offset)
            if let range = place.inside {
                let count = Int32(min(Int64(size), range.upperBound - offset))
                offset += Int64(count)
                bytesSkipped += Int64(count)
                return count
            }
            deadline?.arm(timeout)
            // Never read into a payload: a read stops where the next skipped range starts.
            let wanted = Int32(min(Int64(size), (place.nextStart ?? .max) - offset))
            if innerOffset != offset {
                do { try inner.seek(to: offset) } catch { return error.code }
                innerOffset = offset
            }
            let count = inner.read(into: buffer, count: wanted)
            guard count > 0 else { return count == 0 ? fs_averror_eof() : count }
            offset += Int64(count)
            innerOffset = offset
            bytesRead += Int64(count)
            return count
        }

        /// Only the position moves on a seek; the inner context seeks when a read needs bytes
        /// there, so a seek over a payload costs nothing.
        override var size: Int64 { inner.size }
    }

    private let reading: CustomReadContext
    private let cursor: Cursor
    var context: UnsafeMutablePointer<AVIOContext> { reading.context }

    /// Opens `path` (a file or any URL FFmpeg's I/O layer reads, which the user gave) for
    /// reading, with `network`'s options and bounds.
    ///
    /// - Throws: `FFmpegError` from `avio_open2` (`IOContext`), or from allocating the custom
    ///   context.
    convenience init(path: String, network: NetworkPolicy) throws(FFmpegError) {
        let options = network.openOptions(whitelist: ResourceOrigin.whitelist(forGiven: path))
        let deadline = ResourceOrigin.of(path) == .remote ? NetworkDeadline() : nil
        deadline?.arm(network.timeout)
        let inner = try IOContext(reading: path, options: options, deadline: deadline)
        try self.init(source: inner, deadline: deadline, timeout: network.timeout)
    }

    /// Reads through `source`, each read bounded by `deadline` (nil: the source bounds its own).
    ///
    /// - Throws: `FFmpegError` from allocating the custom context.
    init(source: any ByteSource, deadline: NetworkDeadline?, timeout: Duration) throws(FFmpegError) {
        let cursor = Cursor(inner: source, deadline: deadline, timeout: timeout)
        self.cursor = cursor
        reading = try CustomReadContext(cursor)
    }

    /// From now on, reads inside `ranges` (byte ranges of sample payloads, in any order,
    /// possibly overlapping) are answered without I/O.
    func skip(_ ranges: [Range<Int64>]) {
        var merged: [Range<Int64>] = []
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        cursor.skipped = merged
        // Payload reads then come to the read callback straight into the packet's buffer
        // (`avio_read` bypasses the context's buffer when `direct` is set), so a skipped sample
        // costs no copy either.
        reading.sendEverySeekToCursor()
    }

    /// The size of the file or resource, or nil when the protocol cannot tell.
    var size: Int64? {
        let size = cursor.inner.size
        return size >= 0 ? size : nil
    }

    /// Bytes really read so far, and bytes answered without reading.
    var bytesRead: Int64 { cursor.bytesRead }
    /// Bytes answered without reading.
    var bytesSkipped: Int64 { cursor.bytesSkipped }
}

/// Bytes read from a position: what `PayloadSkippingReader` reads the parts it does not skip
/// through. An `IOContext` (FFmpeg's protocols) or a `RangedHTTPReader` (bounded HTTP ranges,
/// counted).
protocol ByteSource: AnyObject {
    /// Reads up to `count` bytes into `buffer` from where the source stands: the count read, or
    /// a negative `AVERROR`.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32
    /// Moves to byte `offset` from the start.
    func seek(to offset: Int64) throws(FFmpegError)
    /// The size of the resource, or a negative `AVERROR` when it is not known.
    var size: Int64 { get }
}

extension IOContext: ByteSource {}
