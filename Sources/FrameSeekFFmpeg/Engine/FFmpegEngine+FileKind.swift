import FrameSeekCore

extension FFmpegEngine {
    /// Names what a local path is when it is not a regular file, before FFmpeg is given it:
    /// FFmpeg would block on a FIFO or read `/dev/zero` forever (`FileKind`).
    static func checkFileKind(_ path: String) throws(MediaError) {
        switch FileKind(at: path) {
        case .linkLoop: throw MediaError(path: path, reason: .readFailed, detail: "symbolic link loop")
        case .fifo: throw MediaError(path: path, reason: .notMedia, detail: "is a FIFO, not a media file")
        case .characterDevice, .blockDevice: throw MediaError(path: path, reason: .notMedia, detail: "is a device, not a media file")
        case .socket: throw MediaError(path: path, reason: .notMedia, detail: "is a socket, not a media file")
        // Missing and unreadable paths, and folders, are named by the checks that follow.
        case .regular, .folder, .missing, .unknown: return
        }
    }
}
