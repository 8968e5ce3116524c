#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import FrameSeekCore

/// Where the files a manifest or a catalog names may be.
///
/// Manifests and catalogs arrive in pull requests, so the paths in them are someone else's
/// words. A path that climbs out with `..`, an absolute path or a symbolic link could make CI
/// hash and decode any file the runner can read, and upload pictures of it as diff PNGs; a
/// device such as `/dev/zero` or a FIFO would make the check read forever or block. So every
/// path a manifest or catalog names is resolved with its symbolic links (`realpath(3)`), must
/// lie inside the root unless the root is `.anywhere`, and is read only when `stat(2)` says it
/// is a regular file.
public enum ManifestRoot: Sendable, Hashable {
    /// The current working directory when the check runs: what `frameseek landing` uses
    /// unless given `--root`.
    case currentDirectory
    /// The folder at this path (relative paths are relative to the current directory).
    case folder(String)
    /// Any folder: what `--allow-outside-root` asks for. Files must still be regular files.
    case anywhere

    /// The root with its symbolic links resolved, nil for `.anywhere`.
    ///
    /// - Throws: `ManifestPathError` (`.rootUnusable`) when the root is missing or not a folder.
    public func resolvedFolder() throws(ManifestPathError) -> String? {
        let given: String
        switch self {
        case .anywhere: return nil
        case .currentDirectory: given = FileManager.default.currentDirectoryPath
        case .folder(let path): given = path
        }
        let problem = { (cause: String) in
            ManifestPathError(source: given, field: "root", given: given, reason: .rootUnusable, cause: cause)
        }
        guard let resolved = Self.realPath(given) else { throw problem("cannot resolve the root (\(String(cString: strerror(errno))))") }
        guard case .folder = FileKind(at: resolved) else { throw problem("the root is not a folder") }
        return resolved
    }

    /// Resolves `given`, a path that `source` names in `field`, against `folder`, and checks
    /// it: inside the root once its symbolic links are resolved, and a regular file when it
    /// exists (never a folder, device or FIFO to read or to rename over).
    ///
    /// A missing file passes, resolved as far as its folder: a read that follows names it
    /// missing as it names any other unreadable file, and a write creates it there.
    ///
    /// - Parameters:
    ///   - folder: the folder of the manifest or catalog that names the path.
    ///   - root: `resolvedFolder()`, resolved once for many paths.
    /// - Returns: the path with its symbolic links resolved: the file to open or to write, so
    ///   that what is read or replaced is what was checked.
    /// - Throws: `ManifestPathError`: `.outsideRoot`, `.notRegularFile`, `.missing` (no such
    ///   folder).
    public static func checkedPath(
        _ given: String, relativeTo folder: String, root: String?, source: String, field: String
    ) throws(ManifestPathError) -> String {
        let resolved = try containedPath(given, relativeTo: folder, root: root, source: source, field: field)
        if let problem = FileKind(at: resolved).notRegularProblem {
            throw ManifestPathError(source: source, field: field, given: given, reason: .notRegularFile, cause: problem)
        }
        return resolved
    }

    /// `given` made absolute against `folder` and standardized (`..` removed), without
    /// resolving links: the path as people see it, for messages and reports.
    public static func lexicalPath(_ given: String, relativeTo folder: String) -> String {
        let url = given.hasPrefix("/") ? URL(fileURLWithPath: given) : URL(fileURLWithPath: folder).appendingPathComponent(given)
        return url.standardizedFileURL.path
    }

    /// `given` resolved (symbolic links, `..`) and checked to be inside `root`.
    private static func containedPath(
        _ given: String, relativeTo folder: String, root: String?, source: String, field: String
    ) throws(ManifestPathError) -> String {
        let lexical = lexicalPath(given, relativeTo: folder)
        // A missing file is resolved as far as its folder, so its folder is what is checked.
        let parent = URL(fileURLWithPath: lexical).deletingLastPathComponent().path
        let resolved =
            realPath(lexical)
            ?? realPath(parent).map { URL(fileURLWithPath: $0).appendingPathComponent((lexical as NSString).lastPathComponent).path }
        guard let resolved else {
            throw ManifestPathError(
                source: source, field: field, given: given, reason: .missing,
                cause: "no such folder \(parent)")
        }
        guard let root else { return resolved }
        guard resolved == root || resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw ManifestPathError(
                source: source, field: field, given: given, reason: .outsideRoot,
                cause:
                    "resolves to \(resolved), outside the root \(root); a manifest or catalog may name only files inside the root (--root, or --allow-outside-root)"
            )
        }
        return resolved
    }

    /// `realpath(3)` of `path`, nil when it fails (`errno` says why).
    private static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}

/// A path named by a manifest or catalog that may not be read or written. Its description is
/// one line naming the manifest or catalog line, the field, the path as given and the cause.
public struct ManifestPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of refusal.
    public enum Reason: Sendable, Hashable {
        /// The path resolves (symbolic links included) outside the root.
        case outsideRoot
        /// The path is a folder, device, FIFO, socket or link loop.
        case notRegularFile
        /// The path's folder does not exist.
        case missing
        /// The root itself is missing or not a folder.
        case rootUnusable
    }

    /// The manifest, or `CATALOG:LINE`, that names the path.
    public let source: String
    /// The field that names it: `media.path`, `media`, `manifest`.
    public let field: String
    /// The path as the file gives it.
    public let given: String
    /// The kind of refusal.
    public let reason: Reason
    /// The cause, in words.
    public let cause: String

    /// Creates an error.
    public init(source: String, field: String, given: String, reason: Reason, cause: String) {
        self.source = source
        self.field = field
        self.given = given
        self.reason = reason
        self.cause = cause
    }

    /// `FIELD "GIVEN" cause`: the line without the file that names the path.
    public var detail: String { "\(field) \"\(given)\" \(cause)" }

    /// `SOURCE: FIELD "GIVEN" cause`, or `--root ROOT: cause` for an unusable root.
    public var description: String { reason == .rootUnusable ? "--root \(given): \(cause)" : "\(source): \(detail)" }
}
