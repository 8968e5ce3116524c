import Foundation

/// A custom `AVIOContext` for a file over HTTP that asks for bounded byte ranges, counting the
/// bytes and requests it makes.
///
/// Why: FFmpeg's HTTP protocol asks for `Range: bytes=N-`, to the end of the file, at every
/// seek. The server sends until the connection closes, so each seek costs megabytes that are
/// never read: a seek into a two-hour film cost 20 MB, its 720 thumbnails 2.3 times the file.
/// Here each request is for `bytes=N-M`, through FFmpeg's own protocol (its `offset` and
/// `end_offset` options), so only what is asked for is sent:
/// - inside a range announced with `expect(_:)` (the samples a landing will read), to its end
///   exactly;
/// - elsewhere, 64 KiB at first, doubling while reads carry on where the last request ended
///   (up to 16 MiB), so a header costs a few small requests and reading on stays cheap; but
///   not past where reads will likely end, when an index tells it (`expectReadsToStay(in:)`);
/// - and not at all for bytes received lately (`FetchedBytes`), which are read from memory.
///
/// Not Sendable: FFmpeg calls back on the thread that drives the demuxer.
final class RangedHTTPReader {
    /// The size of a request that does not carry on from the last one, unless told otherwise.
    static let defaultFirstRequestBytes: Int64 = 64 * 1024
    private static let largestRequestBytes: Int64 = 16 * 1024 * 1024
    /// How much of what was received is kept to be read again (`FetchedBytes`): a window of a
    /// film's GOPs, which a seek reads twice.
    static let keptBytes = 16 * 1024 * 1024

    private final class Cursor: PositionedReadCursor {
        let url: String
        let knownSize: Int64
        /// The open request, the offset it has reached, and where it ends.
        var inner: IOContext?
        var innerOffset: Int64 = 0
        var innerEnd: Int64 = 0
        /// The size of a request that does not carry on from the last one.
        let firstRequestBytes: Int64
        var nextRequestBytes: Int64
        /// A range reads will come from next; requests inside it run to its end.
        var expected: Range<Int64>?
        /// A range reads will likely end inside: requests stop at its end (`expectReadsToStay(in:)`).
        var likely: Range<Int64>?
        var bytesRead: Int64 = 0
        var bytesRequested: Int64 = 0
        var requests = 0
        /// What was received most recently, read again from memory.
        var fetched: FetchedBytes
        /// Where a read failed for good (FFmpeg's reconnects spent), and with what code: reads
        /// from there on fail at once with it. A server whose body always breaks off at one
        /// byte would otherwise cost every later read there the whole reconnect schedule
        /// again (8 s each), and a landing at the readable end several of them.
        var failure: (offset: Int64, code: Int32)?

        let policy: NetworkPolicy
        /// Bounds each read in wall-clock time (`NetworkPolicy.timeout`), the requests it opens
        /// included: a server that trickles a byte at a time ends the read there.
        let deadline = NetworkDeadline()

        init(url: String, size: Int64, policy: NetworkPolicy, firstRequestBytes: Int64, keptBytes: Int) {
            self.url = url
            knownSize = size
            self.policy = policy
            self.firstRequestBytes = firstRequestBytes
            nextRequestBytes = firstRequestBytes
            fetched = FetchedBytes(capacity: keptBytes)
        }

        func closeInner() { inner = nil }

        /// Opens a request at `offset`, bounded as the type's documentation says.
        func open(at offset: Int64) -> Int32 {
            // A request that starts where reads were likely to end is for a few more bytes.
            let continuing = inner != nil && offset == innerEnd && offset != likely?.upperBound
            closeInner()
            nextRequestBytes =
                continuing
                ? min(nextRequestBytes * 2, RangedHTTPReader.largestRequestBytes)
                : firstRequestBytes
            // The size is the server's word: offsets near Int64.max must not overflow.
            var end = RangedHTTPReader.sum(offset, nextRequestBytes)
            if let expected, expected.contains(offset) {
                end = expected.upperBound
            } else if let likely, likely.contains(offset) {
                end = min(end, likely.upperBound)
            }
            end = min(end, knownSize)
            let options = policy.openOptions(whitelist: ResourceOrigin.remote.protocolWhitelist, reconnecting: true)
            options.set("offset", offset)
            options.set("end_offset", end)
            do { inner = try IOContext(reading: url, options: options, deadline: deadline) } catch { return error.code }
            requests += 1
            bytesRequested = RangedHTTPReader.sum(bytesRequested, end - offset)
            innerOffset = offset
            innerEnd = end
            return 0
        }

        override func read(into buffer: UnsafeMutablePointer<UInt8>, size wanted: Int32) -> Int32 {
            guard wanted > 0 else { return 0 }
            if offset >= knownSize { return FFmpegError.Code.endOfFile }
            let kept = fetched.copy(at: offset, into: buffer, count: Int(wanted))
            if kept > 0 {
                offset += Int64(kept)
                return Int32(kept)
            }
            deadline.arm(policy.timeout)
            if let failure, offset >= failure.offset { return failure.code }
            // A short hop forward inside the open request is read through rather than asked
            // for again.
            if let inner, offset > innerOffset, offset < innerEnd, offset - innerOffset <= 64 * 1024 {
                var skip = [UInt8](repeating: 0, count: Int(offset - innerOffset))
                let got = inner.read(into: &skip, count: Int32(skip.count))
                if got == Int32(skip.count) {
                    skip.withUnsafeBufferPointer { fetched.keep($0, at: innerOffset) }
                    innerOffset = offset
                    bytesRead += Int64(got)
                } else {
                    bytesRead += Int64(max(0, got))
                    closeInner()
                }
            }
            if inner == nil || innerOffset != offset || innerOffset >= innerEnd {
                let code = open(at: offset)
                guard code >= 0 else { return failed(code) }
            }
            guard let inner else { preconditionFailure("a request was just opened") }
            let count = inner.read(into: buffer, count: Int32(min(Int64(wanted), innerEnd - innerOffset)))
            guard count > 0 else { return count == 0 ? FFmpegError.Code.endOfFile : failed(count) }
            fetched.keep(UnsafeBufferPointer(start: buffer, count: Int(count)), at: offset)
            offset += Int64(count)
            innerOffset = offset
            bytesRead += Int64(count)
            return count
        }

        override var size: Int64 { knownSize }

        /// Remembers that reading at `offset` failed with `code` (see `failure`); EOF is no failure.
        private func failed(_ code: Int32) -> Int32 {
            if code != FFmpegError.Code.endOfFile, failure.map({ offset < $0.offset }) ?? true { failure = (offset, code) }
            return code
        }
    }

    /// `a + b`, or Int64.max where that overflows: the sizes and offsets here come from a server.
    static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }

    /// The context a demuxer reads through.
    let reading: CustomReadContext
    private let cursor: Cursor

    /// Opens `url`, learning its size from a first request (`avio_size`); nil when the server
    /// does not tell the size or cannot serve ranges, where FFmpeg's own reading is used.
    /// `firstRequestBytes` is the size of a request that does not carry on from the last one:
    /// smaller for a reader that hops from box to box. `keptBytes` bounds what is kept to be
    /// read again: nothing for a reader that never reads a byte twice.
    init?(
        url: String, policy: NetworkPolicy, firstRequestBytes: Int64 = RangedHTTPReader.defaultFirstRequestBytes,
        keptBytes: Int = RangedHTTPReader.keptBytes
    ) {
        let options = policy.openOptions(whitelist: ResourceOrigin.remote.protocolWhitelist, reconnecting: true)
        options.set("end_offset", 1)
        let deadline = NetworkDeadline()
        deadline.arm(policy.timeout)
        let size: Int64
        do {
            // Closed by the end of this block, before reading starts.
            guard let probe = try? IOContext(reading: url, options: options, deadline: deadline), probe.isSeekable else {
                return nil
            }
            size = probe.size
        }
        guard size > 0 else { return nil }
        let cursor = Cursor(url: url, size: size, policy: policy, firstRequestBytes: max(1, firstRequestBytes), keptBytes: keptBytes)
        cursor.requests = 1
        cursor.bytesRequested = 1
        guard let reading = try? CustomReadContext(cursor) else { return nil }
        self.cursor = cursor
        self.reading = reading
    }

    /// Reads will come from `range` next (the samples of a landing): requests inside it run to
    /// its end. Nil forgets it.
    func expect(_ range: Range<Int64>?) { cursor.expected = range }

    /// Reads will likely end inside `range` (a seek window up to the next keyframe, as an index
    /// tells): a request that starts inside it ends at its end at the latest, and one that
    /// starts at its end starts small again. Nil forgets it.
    func expectReadsToStay(in range: Range<Int64>?) { cursor.likely = range }

    /// Frees what was kept to be read again (`FetchedBytes`): a decoder parked in the pool
    /// does not hold 16 MiB while another lands.
    func forgetFetchedBytes() { cursor.fetched.forgetAll() }

    /// From now on every seek comes to this reader (`direct`). libavformat reads on through
    /// the bytes up to a seek's target when the gap is under its short-seek threshold, which
    /// for a network protocol it raises from the index (`ff_configure_buffers_for_index`): over
    /// HTTP that read megabytes between two thumbnails' keyframes instead of asking for the
    /// second. The header was parsed through the buffer, where its small hops back cost
    /// nothing.
    func headerWasRead() { reading.sendEverySeekToCursor() }

    /// Whether a demuxer reads `path` through this reader: a plain file over HTTP. A playlist
    /// is left to FFmpeg, whose HLS demuxer fetches its segments itself.
    static func reads(_ path: String) -> Bool {
        (path.hasPrefix("http://") || path.hasPrefix("https://")) && !(URL(string: path).map(PlaylistName.matches) ?? false)
    }

    /// What this reader has asked for and received so far, the request that learnt the size
    /// included.
    var traffic: HTTPTraffic {
        HTTPTraffic(bytesReceived: cursor.bytesRead, bytesRequested: cursor.bytesRequested, requests: cursor.requests)
    }
}

extension RangedHTTPReader: ByteSource {
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 { reading.read(into: buffer, count: count) }
    func seek(to offset: Int64) throws(FFmpegError) { try reading.seek(to: offset) }
    var size: Int64 { cursor.size }
}
