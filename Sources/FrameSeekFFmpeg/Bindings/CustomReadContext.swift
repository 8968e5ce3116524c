internal import CFFmpeg

/// Where a custom `AVIOContext` reads from: the read and seek callbacks FFmpeg calls, as
/// methods a subclass overrides (a class, so the callbacks reach it without a dynamic cast).
///
/// Not Sendable: FFmpeg calls back on the thread that drives the demuxer.
class ReadCursor {
    /// Fills up to `size` bytes at `buffer`; returns the count, or an `AVERROR`.
    func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 { fs_averror(ENOSYS) }

    /// Moves as `whence` says (SEEK_SET, SEEK_CUR, SEEK_END or AVSEEK_SIZE, possibly with
    /// AVSEEK_FORCE); returns the new offset, the size for AVSEEK_SIZE, or an `AVERROR`.
    func seek(offset: Int64, whence: Int32) -> Int64 { Int64(fs_averror(ENOSYS)) }
}

/// A cursor whose seeks only move its position, which its reads start from: a seek costs
/// nothing until a read needs bytes there.
class PositionedReadCursor: ReadCursor {
    /// Where the next read starts.
    var offset: Int64 = 0

    /// The size of what is read, or an `AVERROR` when it is not known.
    var size: Int64 { Int64(fs_averror(ENOSYS)) }

    override func seek(offset requested: Int64, whence: Int32) -> Int64 {
        let mode = whence & ~Int32(AVSEEK_FORCE)
        if mode == Int32(AVSEEK_SIZE) { return size }
        let base: Int64
        switch mode {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = offset
        case SEEK_END:
            guard size >= 0 else { return size }
            base = size
        default: return Int64(fs_averror(EINVAL))
        }
        let (target, overflow) = base.addingReportingOverflow(requested)
        guard !overflow, target >= 0 else { return Int64(fs_averror(EINVAL)) }
        offset = target
        return target
    }
}

/// A custom `AVIOContext` reading through a `ReadCursor`, with no write: what a demuxer sets as
/// its `AVFormatContext.pb`. `avformat_close_input` leaves a custom context alone
/// (`AVFMT_FLAG_CUSTOM_IO`), so its owner frees it here, after the demuxer has closed its
/// format context.
final class CustomReadContext {
    /// The bytes FFmpeg asks for at a time; FFmpeg's own default buffer size.
    private static let bufferSize: Int32 = 32 * 1024

    let context: UnsafeMutablePointer<AVIOContext>
    /// Kept alive for as long as the context, whose `opaque` points at it.
    let cursor: ReadCursor

    /// - Throws: `FFmpegError` with `AVERROR(ENOMEM)` when `av_malloc` or
    ///   `avio_alloc_context` fails.
    init(_ cursor: ReadCursor) throws(FFmpegError) {
        guard let buffer = av_malloc(Int(Self.bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw FFmpegError(function: "av_malloc", code: fs_averror(ENOMEM))
        }
        // The callbacks cannot capture: they find the cursor through `opaque`, which stays valid
        // because `self` keeps the cursor for as long as the context exists.
        let opaque = Unmanaged.passUnretained(cursor).toOpaque()
        guard
            let context = avio_alloc_context(
                buffer, Self.bufferSize, 0, opaque,
                { opaque, buffer, size in
                    guard let opaque, let buffer else { return fs_averror(EINVAL) }
                    return Unmanaged<ReadCursor>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, size: size)
                },
                nil,
                { opaque, offset, whence in
                    guard let opaque else { return Int64(fs_averror(EINVAL)) }
                    return Unmanaged<ReadCursor>.fromOpaque(opaque).takeUnretainedValue().seek(offset: offset, whence: whence)
                })
        else {
            av_free(buffer)
            throw FFmpegError(function: "avio_alloc_context", code: fs_averror(ENOMEM))
        }
        self.context = context
        self.cursor = cursor
    }

    /// From now on every seek reaches the cursor (`AVIOContext.direct`), however short: none is
    /// read through the buffer instead.
    func sendEverySeekToCursor() { context.pointee.direct = 1 }

    /// Reads up to `count` bytes into `buffer` through the context (`avio_read`): the count
    /// read, or a negative `AVERROR`.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 { avio_read(context, buffer, count) }

    /// Moves the context to byte `offset` from the start.
    ///
    /// - Throws: `FFmpegError` from `avio_seek`.
    func seek(to offset: Int64) throws(FFmpegError) { try FrameSeekFFmpeg.seek(context, to: offset) }

    deinit {
        // FFmpeg may have replaced the buffer with one of another size; free the one it holds.
        av_freep(&context.pointee.buffer)
        var toFree: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&toFree)
    }
}
