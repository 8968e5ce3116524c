import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekImages

/// The reference pictures of a manifest (`landing record --pictures`): one lossless PNG per
/// video entry, upright at the display size, in a folder beside the manifest named
/// `<manifest name without extension>.pictures`, each `<entry number from 1>.png`.
public enum ManifestPictures {
    /// The most bytes a reference PNG may have: a lossless 8K picture is about 100 MB.
    public static let maximumFileBytes = 256 << 20

    /// Where entry `offset`'s picture goes, relative to the manifest's folder.
    public static func relativePath(forEntry offset: Int, manifestPath: String) -> String {
        let stem = URL(fileURLWithPath: manifestPath).deletingPathExtension().lastPathComponent
        return "\(stem).pictures/\(offset + 1).png"
    }

    /// Writes `image` as entry `offset`'s picture, atomically, creating the folder.
    ///
    /// - Returns: the entry's picture reference: its path relative to the manifest, and the
    ///   SHA-256 of the PNG written.
    /// - Throws: `ManifestError` (`.unwritable`) naming the picture.
    public static func write(_ image: RGBImage, forEntry offset: Int, manifestPath: String) throws(ManifestError) -> ManifestPicture {
        let staged = try stage(image, forEntry: offset, manifestPath: manifestPath)
        do { try OutputFile.commit(staged.temporary, to: staged.path) } catch {
            throw ManifestError(path: staged.path, reason: .unwritable, cause: "cannot write (\(error.cause))")
        }
        return staged.picture
    }

    /// A picture written under a temporary name beside its place, not yet renamed into it: a
    /// rebaseline stages every picture during its pass and commits them with the manifest, so
    /// a pass that fails half-way leaves the recorded pictures as they were.
    struct Staged {
        let picture: ManifestPicture
        let temporary: String
        let path: String
    }

    /// Encodes `image` as entry `offset`'s picture and writes it under a temporary name,
    /// creating the folder. The folder must not be a symbolic link: a manifest's folder can
    /// come from a pull request, and a link planted as `<name>.pictures` would send the
    /// pictures anywhere.
    ///
    /// - Throws: `ManifestError` (`.unwritable`) naming the picture or its folder.
    static func stage(_ image: RGBImage, forEntry offset: Int, manifestPath: String) throws(ManifestError) -> Staged {
        let relative = relativePath(forEntry: offset, manifestPath: manifestPath)
        let path = ManifestRoot.lexicalPath(relative, relativeTo: Manifest.folder(of: manifestPath))
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: folder)) != nil {
            throw ManifestError(path: folder, reason: .unwritable, cause: "the pictures folder is a symbolic link; refused")
        }
        let bytes: [UInt8]
        do { bytes = try PNGFile.encode(image, naming: path) } catch {
            throw ManifestError(path: path, reason: .unwritable, cause: error.cause)
        }
        guard let sha256 = MediaDigest.sha256(of: bytes) else {
            throw ManifestError(path: path, reason: .unwritable, cause: "av_sha_alloc: out of memory")
        }
        let temporary = OutputFile.temporaryPath(for: path)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try OutputFile.writeInPlace(bytes, to: temporary, naming: path)
        } catch {
            throw ManifestError(path: path, reason: .unwritable, cause: "cannot write (\(error))")
        }
        return Staged(picture: ManifestPicture(path: relative, sha256: sha256), temporary: temporary, path: path)
    }

    /// Reads an entry's reference picture, which the manifest at `manifestPath` names: the
    /// path resolved inside `root` and a regular file, at most `maximumFileBytes`, its SHA-256
    /// the one recorded, and a PNG libpng reads (`PNGFile.read`).
    ///
    /// - Throws: `ManifestCheckError`: `.mediaRefused` (outside the root, not a regular
    ///   file, too large, or not the recorded bytes), `.mediaUnreadable` (missing, unreadable,
    ///   not a PNG).
    static func read(_ picture: ManifestPicture, manifestPath: String, root: String?) throws(ManifestCheckError) -> RGBImage {
        let shown = ManifestRoot.lexicalPath(picture.path, relativeTo: Manifest.folder(of: manifestPath))
        let path: String
        do {
            path = try ManifestRoot.checkedPath(
                picture.path, relativeTo: Manifest.folder(of: manifestPath), root: root, source: manifestPath,
                field: "picture.path")
        } catch {
            if error.reason == .missing { throw ManifestCheckError(path: shown, reason: .mediaUnreadable, cause: "no such file") }
            throw ManifestCheckError(path: manifestPath, reason: .mediaRefused, cause: error.detail)
        }
        let bytes: [UInt8]
        do { bytes = Array(try FileContents.read(path, limit: maximumFileBytes)) } catch {
            switch error {
            case .tooLarge:
                throw ManifestCheckError(
                    path: shown, reason: .mediaRefused, cause: "a reference picture of more than \(maximumFileBytes) bytes")
            case .notRegular: throw ManifestCheckError(path: shown, reason: .mediaRefused, cause: error.description)
            case .missing, .unreadable, .notUTF8: throw ManifestCheckError(path: shown, reason: .mediaUnreadable, cause: error.description)
            }
        }
        guard MediaDigest.sha256(of: bytes) == picture.sha256 else {
            throw ManifestCheckError(
                path: shown, reason: .mediaRefused,
                cause: "not the recorded reference picture (its SHA-256 differs from the manifest's)")
        }
        do { return try PNGFile.read(bytes, naming: shown) } catch {
            throw ManifestCheckError(path: shown, reason: .mediaUnreadable, cause: error.cause)
        }
    }
}
