import Foundation

/// The whole contents of a regular file of at most a stated size: how every file FrameSeek
/// reads whole (landing manifests, catalogs, results, target lists, index cache entries) is
/// read, since each may come from a pull request or a folder someone else can write.
///
/// The path is looked at before it is opened, so a FIFO or a device is not even opened. The
/// kind and the size are then taken again from the open descriptor (`fstat`), so a path
/// swapped for a FIFO, a device or a larger file after that look cannot block the read or
/// feed it without end. The read stops one byte past the limit: a file that grows while it
/// is read is refused too, never read on.
public enum FileContents {
    /// Why a file was not read.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Nothing at the path, or a folder on the way that is missing: "does not exist".
        case missing
        /// A folder, FIFO, device, socket or link loop.
        case notRegular(FileKind)
        /// More bytes than `limit`.
        case tooLarge(limit: Int)
        /// `open` or `read` failed with `errno`.
        case unreadable(call: String, errno: Int32)
        /// Text that is not UTF-8.
        case notUTF8

        /// Says what is wrong with the file, to follow its path: "is a FIFO, not a regular file".
        public var description: String {
            switch self {
            case .missing: return "does not exist"
            case .notRegular(let kind): return kind.notRegularProblem ?? "is not a regular file"
            case .tooLarge(let limit): return "is larger than \(Self.size(limit)), the limit for it"
            case .unreadable(let call, let code): return "cannot be read (\(call): \(String(cString: strerror(code))))"
            case .notUTF8: return "is not UTF-8 text"
            }
        }

        /// `limit` in the largest binary unit that divides it, as the limits are written.
        static func size(_ bytes: Int) -> String {
            for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
                return "\(bytes >> shift) \(unit)"
            }
            return "\(bytes) bytes"
        }
    }

    /// The bytes of the regular file at `path`, of at most `limit` bytes.
    ///
    /// - Throws: `Refusal`: `.missing`, `.notRegular` (told before the open, and again from the
    ///   open descriptor), `.tooLarge` (from `fstat`, or from reading past the limit), or
    ///   `.unreadable` naming the call that failed and its `errno`.
    public static func read(_ path: String, limit: Int) throws(Refusal) -> Data {
        precondition(limit >= 0, "a limit is a byte count")
        switch FileKind(at: path) {
        case .regular: break
        case .missing: throw .missing
        case let other: throw .notRegular(other)
        }
        // O_NONBLOCK: should the path now be a FIFO, the open returns at once and fstat says so.
        var descriptor: Int32
        repeat { descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw .missing
            case ELOOP: throw .notRegular(.linkLoop)
            default: throw .unreadable(call: "open", errno: code)
            }
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(call: "fstat", errno: errno) }
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regular else { throw .notRegular(kind) }
        guard info.st_size <= limit else { throw .tooLarge(limit: limit) }
        // One byte more than the limit allows, to see a file that has grown.
        let capacity = limit == Int.max ? limit : limit + 1
        let size = Int(info.st_size)
        var bytes = Data(count: size < capacity ? size + 1 : capacity)
        var count = 0
        while true {
            if count == bytes.count {
                guard count < capacity else { throw .tooLarge(limit: limit) }
                bytes.count = min(capacity, max(count * 2, count + 4096))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(call: "read", errno: errno)
            }
            if got == 0 { break }
            count += got
        }
        guard count <= limit else { throw .tooLarge(limit: limit) }
        bytes.count = count
        return bytes
    }

    /// The text of the regular file at `path`, of at most `limit` bytes: `read(_:limit:)`, then
    /// `.notUTF8` for bytes that are not UTF-8, rather than text with replacement characters
    /// that would then be taken for a path or a time.
    public static func readText(_ path: String, limit: Int) throws(Refusal) -> String {
        let bytes = try read(path, limit: limit)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return text
    }
}
