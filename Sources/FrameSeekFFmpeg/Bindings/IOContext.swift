internal import CFFmpeg

/// An owned `AVIOContext` that FFmpeg's own protocols (file, http, https, ...) read, opened with
/// `avio_open2` and closed with `avio_closep`.
///
/// Not Sendable: it is read on one thread at a time, the thread that drives the I/O.
final class IOContext {
    private let context: UnsafeMutablePointer<AVIOContext>

    /// Opens `url` for reading with `options`, bounded by `deadline` when one is given (which
    /// the caller keeps alive as long as this context).
    ///
    /// - Throws: `FFmpegError` from `avio_open2`, with `AVERROR(EIO)` when it succeeded
    ///   without a context.
    init(reading url: String, options: OptionsDictionary, deadline: NetworkDeadline?) throws(FFmpegError) {
        var context: UnsafeMutablePointer<AVIOContext>?
        var callback = deadline?.callback ?? AVIOInterruptCB()
        let opened = withUnsafePointer(to: &callback) { pointer in
            avio_open2(&context, url, AVIO_FLAG_READ, deadline == nil ? nil : pointer, &options.pointer)
        }
        try check(opened, "avio_open2")
        guard let context else { throw FFmpegError(function: "avio_open2", code: fs_averror(EIO)) }
        self.context = context
    }

    deinit {
        var toClose: UnsafeMutablePointer<AVIOContext>? = context
        avio_closep(&toClose)
    }

    /// The size of the resource (`avio_size`), or a negative `AVERROR` when the protocol cannot
    /// tell.
    var size: Int64 { avio_size(context) }

    /// Whether the resource can be read from any offset (`AVIO_SEEKABLE_NORMAL`).
    var isSeekable: Bool { context.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0 }

    /// Reads up to `count` bytes into `buffer` (`avio_read`): the count read, or a negative
    /// `AVERROR`, as a read callback answers.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 { avio_read(context, buffer, count) }

    /// Up to `count` bytes from where the context stands, fewer only where the resource ends.
    ///
    /// - Throws: `FFmpegError` from `avio_read`.
    func bytes(upTo count: Int) throws(FFmpegError) -> [UInt8] { try readBytes(from: context, upTo: count) }

    /// Moves to byte `offset` from the start.
    ///
    /// - Throws: `FFmpegError` from `avio_seek`.
    func seek(to offset: Int64) throws(FFmpegError) { try FrameSeekFFmpeg.seek(context, to: offset) }
}
