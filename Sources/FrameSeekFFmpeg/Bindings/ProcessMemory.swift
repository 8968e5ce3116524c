internal import CFFmpeg

/// How large FFmpeg's blocks may be: a setting made once, when the first demuxer opens.
///
/// glibc's own policy for large blocks is left as it is: a block of 128 KiB or more is mapped
/// on its own until one such is freed, and from then on blocks up to that size come from the
/// heap, where freed pictures are reused without faulting their pages in again. Fixing the
/// threshold at 128 KiB instead held a two-hour film's seek about 1 MiB lower, and made every
/// picture-sized buffer a fresh mapping: each scrub sample (a 720p frame converted to RGB,
/// 2.7 MB) paid 1.7 ms of page faults.
public enum ProcessMemory {
    /// The largest block FFmpeg may allocate at once (`av_max_alloc`), set when the first
    /// demuxer opens: 256 MiB, above an 8K 16-bit 4:4:4 picture (199 MB) and a day of 60 fps
    /// index entries (about 130 MB).
    ///
    /// FFmpeg's own limit is 2 GiB, and its demuxers size some tables by the count a header
    /// claims before reading the entries: a 3.7 KB fragmented MP4 whose `trun` claims 40
    /// million samples made the mov demuxer allocate 1.3 GB and peak at 370 MB resident. Under
    /// this limit that allocation fails, and the open is one error line. The setting is
    /// process-wide; an application that wants another calls `av_max_alloc` after its first
    /// engine opens.
    public static let ffmpegBlockLimit = 256 << 20

    /// Checks that a picture of `width` x `height` with `bytesPerPixel`, made outside FFmpeg
    /// (RGB and packed planes are Swift arrays, which `av_max_alloc` does not bound), fits in
    /// one block of `ffmpegBlockLimit`, as FFmpeg's own pictures must: a few hundred kilobytes
    /// of PNG can hold a 16000x16000 picture, whose 16-bit RGB would take 1.5 GB.
    ///
    /// - Throws: `FFmpegError` with `AVERROR(ENOMEM)`, naming `what` and the sizes, before
    ///   anything is allocated.
    static func checkPictureBlock(width: Int, height: Int, bytesPerPixel: Int, for what: String) throws(FFmpegError) {
        let (pixels, pixelsOverflow) = width.multipliedReportingOverflow(by: height)
        let (total, overflow) = pixels.multipliedReportingOverflow(by: bytesPerPixel)
        guard pixelsOverflow || overflow || total > ffmpegBlockLimit else { return }
        let size = pixelsOverflow || overflow ? "more than \(Int.max)" : "\(total)"
        throw FFmpegError(
            function: "\(what) (\(size) bytes, above the \(ffmpegBlockLimit) one allocation may take)", code: fs_averror(ENOMEM))
    }

    /// Sets `ffmpegBlockLimit` once; later calls do nothing.
    static func limitFFmpegBlocks() { _ = blockLimitSet }

    private static let blockLimitSet: Void = av_max_alloc(ffmpegBlockLimit)
}
