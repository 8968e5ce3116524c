import Foundation

/// What a path is, from `stat(2)` (symbolic links followed): told apart before anything opens
/// the path, because opening a FIFO blocks and reading a device may never end. `FileManager`
/// cannot tell them apart: it reports a FIFO or a device as a 0-byte file, and a symbolic link
/// loop as a missing file. The engine's open and the landing manifests' paths both ask here.
public enum FileKind: Sendable, Hashable {
    /// A regular file: bytes that end.
    case regular
    /// A folder.
    case folder
    /// Nothing there, or a path that cannot be looked at (a missing folder, no permission).
    case missing
    /// A symbolic link that leads back to itself.
    case linkLoop
    case fifo
    case characterDevice
    case blockDevice
    case socket
    /// Any other kind `stat` names.
    case unknown

    /// The size in bytes of the file at `path`, nil when it cannot be looked at.
    public static func byteCount(at path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }

    /// The kind of the file at `path`.
    public init(at path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = errno == ELOOP ? .linkLoop : .missing
            return
        }
        self.init(mode: info.st_mode)
    }

    /// The kind `st_mode` names (from `stat` or `fstat`).
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .unknown
        }
    }

    /// Why the path cannot be read as a file, nil for a regular file or a missing one (whose
    /// read then says it is missing).
    public var notRegularProblem: String? {
        switch self {
        case .regular, .missing: return nil
        case .folder: return "is a folder, not a regular file"
        case .linkLoop: return "is a symbolic link loop, not a regular file"
        case .fifo: return "is a FIFO, not a regular file"
        case .characterDevice: return "is a character device, not a regular file"
        case .blockDevice: return "is a block device, not a regular file"
        case .socket: return "is a socket, not a regular file"
        case .unknown: return "is not a regular file"
        }
    }
}
