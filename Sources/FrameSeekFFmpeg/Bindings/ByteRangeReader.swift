internal import CFFmpeg

/// Reads byte ranges of an open demuxer's file or URL through the demuxer's own I/O context
/// (`AVFormatContext.pb`), counting what it reads: how the boxes of an MP4's sample table are
/// read after FFmpeg has parsed its header, on the same connection, without a second open.
///
/// Moving the demuxer's read position is safe for the demuxers this is used with: FFmpeg's mov
/// demuxer seeks to each sample's position before it reads it (`mov_read_packet`).
///
/// Not Sendable: it reads on the thread that drives the demuxer, between its reads.
final class ByteRangeReader {
    /// Kept alive for as long as its context is read.
    private let demuxer: Demuxer
    private let context: UnsafeMutablePointer<AVIOContext>
    /// Bytes read from the file or URL so far.
    private(set) var bytesRead: Int64 = 0

    /// Reads through `demuxer`'s I/O context; nil when it has none (`AVFMT_NOFILE` formats).
    init?(borrowing demuxer: Demuxer) {
        guard let context = demuxer.context.pointee.pb else { return nil }
        self.demuxer = demuxer
        self.context = context
    }

    /// The size of the file or resource, or nil when the protocol cannot tell (`avio_size`).
    var size: Int64? {
        let size = avio_size(context)
        return size >= 0 ? size : nil
    }

    /// The `count` bytes at `offset`; fewer only where the file ends.
    ///
    /// - Throws: `FFmpegError` from `avio_seek` or `avio_read`.
    func read(at offset: Int64, count: Int) throws(FFmpegError) -> [UInt8] {
        guard count > 0 else { return [] }
        // Through the context's buffer, where the small hops of a walk over box headers cost
        // no read (a context reading over HTTP otherwise passes every seek on: `direct`).
        let direct = context.pointee.direct
        context.pointee.direct = 0
        defer { context.pointee.direct = direct }
        try seek(context, to: offset)
        let bytes = try readBytes(from: context, upTo: count)
        bytesRead += Int64(bytes.count)
        return bytes
    }

    /// As `read(at:count:)`, then back to where the demuxer's I/O stood (`avio_tell`), so a
    /// demuxer that reads on from its position (Matroska's, mid-file) is not disturbed.
    ///
    /// - Throws: `FFmpegError` from `avio_seek` or `avio_read`.
    func readInPlace(at offset: Int64, count: Int) throws(FFmpegError) -> [UInt8] {
        let position = avio_tell(context)
        // Back also when the read fails: the demuxer reads on from there either way.
        defer {
            let direct = context.pointee.direct
            context.pointee.direct = 0
            _ = avio_seek(context, position, SEEK_SET)
            context.pointee.direct = direct
        }
        return try read(at: offset, count: count)
    }
}

/// Moves `io` to byte `offset` from the start (`avio_seek`).
///
/// - Throws: `FFmpegError` from `avio_seek`.
func seek(_ io: UnsafeMutablePointer<AVIOContext>, to offset: Int64) throws(FFmpegError) {
    let landed = avio_seek(io, offset, SEEK_SET)
    guard landed >= 0 else { throw FFmpegError(function: "avio_seek", code: Int32(truncatingIfNeeded: landed)) }
}

/// Up to `count` bytes from where `io` stands, fewer only where the resource ends: `avio_read`
/// in chunks of 64 KiB, so a large `count` that is never reached costs no more than what is read.
///
/// - Throws: `FFmpegError` from `avio_read`.
func readBytes(from io: UnsafeMutablePointer<AVIOContext>, upTo count: Int) throws(FFmpegError) -> [UInt8] {
    let chunk = 64 * 1024
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: min(chunk, max(0, count)))
    while bytes.count < count {
        let ask = Int32(min(chunk, count - bytes.count))
        let got = buffer.withUnsafeMutableBufferPointer { avio_read(io, $0.baseAddress, ask) }
        if got == fs_averror_eof() || got == 0 { break }
        guard got > 0 else { throw FFmpegError(function: "avio_read", code: got) }
        bytes.append(contentsOf: buffer.prefix(Int(got)))
    }
    return bytes
}
