#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// A file that could not be written: the path and the system's reason, one line.
public struct OutputFileError: Error, Sendable, CustomStringConvertible {
    /// The path that was to be written.
    public let path: String
    /// Why not, in the system's words (`Permission denied`, `No such file or directory`).
    public let cause: String
    /// `PATH: cannot write (cause)`.
    public var description: String { "\(path): cannot write (\(cause))" }
}

/// Outputs written whole or not at all: each file is written under a temporary name in its
/// own directory and renamed into place when complete. `rename(2)` within one directory is
/// atomic, so a reader (or an interrupted run) sees the previous file or the new one, never
/// half of one.
public enum OutputFile {
    /// The prefix of every temporary name, so a later run can find what an interrupted one
    /// left behind.
    public static let temporaryPrefix = ".frameseek-tmp-"

    /// A hidden temporary path beside `path`, unique to this process and call.
    public static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = "\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(url.lastPathComponent)"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Writes `text` to `path` atomically.
    public static func write(_ text: String, to path: String) throws(OutputFileError) {
        try write(Array(text.utf8), to: path)
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws(OutputFileError) {
        let temporary = temporaryPath(for: path)
        try writeInPlace(bytes, to: temporary, naming: path)
        try commit(temporary, to: path)
    }

    /// Writes `text` to `path` as it goes; errors name `shownPath`, the file the caller
    /// will rename it to.
    static func writeInPlace(_ text: String, to path: String, naming shownPath: String) throws(OutputFileError) {
        try writeInPlace(Array(text.utf8), to: path, naming: shownPath)
    }

    /// Writes `bytes` to `path` as it goes; errors name `shownPath`, the file the caller
    /// will rename it to.
    public static func writeInPlace(_ bytes: [UInt8], to path: String, naming shownPath: String) throws(OutputFileError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            unlink(path)
            throw OutputFileError(path: shownPath, cause: directoryProblem(of: shownPath) ?? "cannot create a file there")
        }
    }

    /// Renames the complete file `temporary` to `path`, removing `temporary` on failure.
    public static func commit(_ temporary: String, to path: String) throws(OutputFileError) {
        if rename(temporary, path) != 0 {
            let cause = String(cString: strerror(errno))
            unlink(temporary)
            throw OutputFileError(path: path, cause: cause)
        }
    }

    /// Why a file cannot be created at `path`, or nil when it can: the directory is missing,
    /// not a directory, or not writable, or `path` itself is a directory. Checked before any
    /// work, so a run does not decode for minutes and then fail to save.
    public static func directoryProblem(of path: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "is a directory"
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            return "no such directory \(directory)"
        }
        guard isDirectory.boolValue else { return "\(directory) is not a directory" }
        guard access(directory, W_OK | X_OK) == 0 else { return "\(directory) is not writable" }
        return nil
    }

    /// Checks that a file can be created at `path`.
    public static func checkWritable(_ path: String) throws(OutputFileError) {
        if let problem = directoryProblem(of: path) { throw OutputFileError(path: path, cause: problem) }
    }
}
