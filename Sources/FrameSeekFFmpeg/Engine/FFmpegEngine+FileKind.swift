#if canImport(Glibc)
    import Glibc
#endif
import FrameSeekCore

extension FFmpegEngine {
    /// Names what a local path is when it is not a regular file, before FFmpeg is given it.
    ///
    /// `FileManager` reports a symlink loop as a missing file and a FIFO or a device as a
    /// 0-byte file, and FFmpeg would block on a FIFO or read `/dev/zero` forever; `stat(2)`
    /// tells them apart.
    static func checkFileKind(_ path: String) throws(MediaError) {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ELOOP { throw MediaError(path: path, reason: .readFailed, detail: "symbolic link loop") }
            return  // missing and unreadable paths are named by the checks that follow
        }
        switch info.st_mode & S_IFMT {
        case S_IFIFO: throw MediaError(path: path, reason: .notMedia, detail: "is a FIFO, not a media file")
        case S_IFCHR, S_IFBLK: throw MediaError(path: path, reason: .notMedia, detail: "is a device, not a media file")
        case S_IFSOCK: throw MediaError(path: path, reason: .notMedia, detail: "is a socket, not a media file")
        default: return
        }
    }
}
