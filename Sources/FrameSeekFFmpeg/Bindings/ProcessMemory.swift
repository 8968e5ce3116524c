internal import CFFmpeg

/// How the process's allocator treats large blocks: a setting for a command-line process to
/// make once, before it opens anything.
public enum ProcessMemory {
    /// Maps every block of 128 KiB or more on its own, so that it leaves the process's RSS
    /// when freed (glibc's `mallopt(M_MMAP_THRESHOLD, 128 KiB)`, through `fs_map_blocks_from`).
    ///
    /// glibc otherwise raises that threshold each time a mapped block is freed, up to 32 MiB.
    /// Opening an edit-listed MP4 frees one (the mov demuxer's index before the edit list is
    /// applied, megabytes on a long film), so afterwards the frame buffers and the frame
    /// table come from the brk heap, where freed space stays resident: a two-hour film's seek
    /// peaked about 1 MiB higher, and by a different amount each run. Returns false where the
    /// allocator has no such setting.
    @discardableResult
    public static func mapLargeBlocksOnTheirOwn() -> Bool {
        fs_map_blocks_from(128 * 1024) == 1
    }

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

    /// Sets `ffmpegBlockLimit` once; later calls do nothing.
    static func limitFFmpegBlocks() { _ = blockLimitSet }

    private static let blockLimitSet: Void = av_max_alloc(ffmpegBlockLimit)
}
