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
/// write; each demuxer reads through one of its own, with its own position.
///
/// Not Sendable: FFmpeg calls back on the thread that drives the demuxer, and the position is
/// that demuxer's alone.
final class MemoryReader {
    /// The read position over the bytes.
    private final class Cursor: ReadCursor {
        let bytes: [UInt8]
        var offset = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        override func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 {
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

        /// Offsets come from the file's own fields (box sizes, cluster positions), so they are
        /// checked for overflow and for the buffer's bounds rather than trusted.
        override func seek(offset requested: Int64, whence: Int32) -> Int64 {
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

    private let reading: CustomReadContext
    var context: UnsafeMutablePointer<AVIOContext> { reading.context }

    /// - Throws: `FFmpegError` with `AVERROR(ENOMEM)` when the context cannot be allocated.
    init(_ input: MemoryInput) throws(FFmpegError) {
        reading = try CustomReadContext(Cursor(bytes: input.bytes))
    }
}
