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
}
