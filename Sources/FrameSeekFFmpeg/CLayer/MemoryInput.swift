internal import CFFmpeg
import FrameSeekCore

/// Media bytes held in memory, which FFmpeg reads as if they were a file.
///
/// The bytes never change, so one `MemoryInput` serves every `Demuxer` an engine opens on it
/// (the first, and any reopened to decode from the start); each demuxer reads it through a
/// `MemoryReader` of its own, with its own position. This is how the fuzzer feeds arbitrary
/// bytes to the same engine code that opens files.
final class MemoryInput: Sendable {
    let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }
}

/// A custom `AVIOContext` over a `MemoryInput`: read and seek callbacks over the buffer, no
/// write. The demuxer sets it as its `AVFormatContext.pb`; `avformat_close_input` leaves a
/// custom context alone (`AVFMT_FLAG_CUSTOM_IO`), so it is freed here, after the demuxer has
/// closed its format context.
///
/// Not Sendable: FFmpeg calls back on the thread that drives the demuxer, and the position is
/// that demuxer's alone.
final class MemoryReader {
    /// The read position, which the callbacks reach through the `opaque` pointer. A class of
    /// its own so that the pointer exists before `avio_alloc_context` is called.
    private final class Cursor {
        let bytes: [UInt8]
        var offset = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 {
            let remaining = bytes.count - offset
            guard remaining > 0 else { return fs_averror_eof() }
            guard size > 0 else { return 0 }
            let count = min(Int(size), remaining)
            bytes.withUnsafeBufferPointer { source in
                buffer.update(from: source.baseAddress! + offset, count: count)
            }
            offset += count
            return Int32(count)
        }

        /// `whence` as FFmpeg passes it: SEEK_SET, SEEK_CUR, SEEK_END or AVSEEK_SIZE, possibly
        /// with AVSEEK_FORCE. Offsets come from the file's own fields (box sizes, cluster
        /// positions), so they are checked for overflow and for the buffer's bounds rather than
        /// trusted.
        func seek(offset requested: Int64, whence: Int32) -> Int64 {
            let mode = whence & ~Int32(AVSEEK_FORCE)
            let size = Int64(bytes.count)
            if mode == Int32(AVSEEK_SIZE) { return size }
            let base: Int64
            switch mode {
            case SEEK_SET: base = 0
            case SEEK_CUR: base = Int64(offset)
            case SEEK_END: base = size
            default: return Int64(fs_averror(EINVAL))
            }
            let (target, overflow) = base.addingReportingOverflow(requested)
            guard !overflow, target >= 0, target <= size else { return Int64(fs_averror(EINVAL)) }
            offset = Int(target)
            return target
        }
    }

    /// The bytes FFmpeg asks for at a time; FFmpeg's own default buffer size.
    private static let bufferSize: Int32 = 32 * 1024

    let context: UnsafeMutablePointer<AVIOContext>
    private let cursor: Cursor

    /// - Throws: `FFmpegError` with `AVERROR(ENOMEM)` when `av_malloc` or
    ///   `avio_alloc_context` fails.
    init(_ input: MemoryInput) throws(FFmpegError) {
        let cursor = Cursor(bytes: input.bytes)
        guard let buffer = av_malloc(Int(Self.bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw FFmpegError(function: "av_malloc", code: fs_averror(ENOMEM))
        }
        // The callbacks cannot capture: they find the cursor through `opaque`, which stays valid
        // because `self` keeps the cursor for as long as the context exists.
        let opaque = Unmanaged.passUnretained(cursor).toOpaque()
        guard let context = avio_alloc_context(
            buffer, Self.bufferSize, 0, opaque,
            { opaque, buffer, size in
                guard let opaque, let buffer else { return fs_averror(EINVAL) }
                return Unmanaged<Cursor>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, size: size)
            },
            nil,
            { opaque, offset, whence in
                guard let opaque else { return Int64(fs_averror(EINVAL)) }
                return Unmanaged<Cursor>.fromOpaque(opaque).takeUnretainedValue().seek(offset: offset, whence: whence)
            })
        else {
            av_free(buffer)
            throw FFmpegError(function: "avio_alloc_context", code: fs_averror(ENOMEM))
        }
        self.context = context
        self.cursor = cursor
    }

    deinit {
        // FFmpeg may have replaced the buffer with one of another size; free the one it holds.
        av_freep(&context.pointee.buffer)
        var toFree: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&toFree)
    }
}
