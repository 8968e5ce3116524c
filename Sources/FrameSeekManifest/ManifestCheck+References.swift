import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekImages

extension ManifestCheck {
    /// Where a check with tolerances finds each entry's reference picture: the manifest's own
    /// pictures; else the recorded frame decoded from `--reference` media; else, when the
    /// media checked is the recorded file, that frame decoded from it by an engine of its own
    /// (the checked engine is in the middle of its forward pass). The engine is opened on the
    /// first entry that needs it, so a manifest with pictures opens nothing more.
    ///
    /// Not Sendable: it owns an engine. A check makes one and uses it on its own thread.
    final class ReferencePictures {
        let manifest: Manifest
        let manifestPath: String
        let root: String?
        let engineOptions: FFmpegEngine.Options
        /// The file to decode recorded frames from, and whether it was given as `--reference`
        /// (so its SHA-256 must be checked); nil when there is none.
        let sourcePath: (path: String, given: Bool)?
        private var source: FFmpegEngine?

        /// - Parameter checkedMedia: the media being checked, and whether it differs from the
        ///   recorded file.
        /// - Throws: `ManifestCheckError` (`.mediaRefused`) when the root cannot be resolved,
        ///   or `--reference` is not a regular file.
        init(
            manifest: Manifest, manifestPath: String, options: Options, checkedMedia: (path: String, changed: Bool)
        ) throws(ManifestCheckError) {
            self.manifest = manifest
            self.manifestPath = manifestPath
            do { root = try options.root.resolvedFolder() } catch {
                throw ManifestCheckError(path: manifestPath, reason: .mediaRefused, cause: error.description)
            }
            var engineOptions = options.engineOptions
            engineOptions.streamIndex = manifest.media.streamIndex
            self.engineOptions = engineOptions
            if let path = options.referenceMedia {
                if let problem = FileKind(at: path).notRegularProblem {
                    throw ManifestCheckError(path: path, reason: .mediaRefused, cause: problem)
                }
                sourcePath = (path, true)
            } else {
                sourcePath = checkedMedia.changed ? nil : (checkedMedia.path, false)
            }
        }

        /// Entry `offset`'s reference picture, upright at its display size.
        ///
        /// - Throws: `ManifestCheckError`: `.referenceMissing` when there is no reference, as
        ///   `ManifestPictures.read` throws, `.mediaChanged` when `--reference` is not the
        ///   recorded media, and `.mediaUnreadable` when the recorded frame cannot be decoded
        ///   or is not the recorded picture (another MD5).
        func picture(for entry: ManifestEntry, offset: Int) throws(ManifestCheckError) -> RGBImage {
            if let picture = entry.picture { return try ManifestPictures.read(picture, manifestPath: manifestPath, root: root) }
            let source = try openedSource(offset: offset)
            do {
                guard source.frameTable.frames.indices.contains(entry.frameIndex) else {
                    throw MediaError(path: source.media.path, reason: .decodeFailed, cause: "no frame \(entry.frameIndex)")
                }
                _ = try source.land(source.frameTable.planLanding(onFrame: entry.frameIndex))
                guard let picture = try source.landedPicture(), picture.md5 == entry.md5 else {
                    throw MediaError(
                        path: source.media.path, reason: .decodeFailed,
                        cause: "frame \(entry.frameIndex) is not entry \(offset)'s recorded picture (another MD5)")
                }
                return try picture.displayImage(using: source)
            } catch {
                throw ManifestCheckError(path: source.media.path, reason: .mediaUnreadable, cause: "\(error)")
            }
        }

        private func openedSource(offset: Int) throws(ManifestCheckError) -> FFmpegEngine {
            if let source { return source }
            guard let (path, given) = sourcePath else {
                throw ManifestCheckError(
                    path: manifestPath, reason: .referenceMissing,
                    cause:
                        "entry \(offset) has no reference picture: record with --pictures, or give the recorded media as --reference OLD_MEDIA"
                )
            }
            do {
                if given {
                    let sha256 = try MediaDigest.sha256(ofFileAt: path)
                    guard sha256 == manifest.media.sha256 else {
                        throw ManifestCheckError(
                            path: path, reason: .mediaChanged,
                            cause:
                                "--reference must be the recorded media (its SHA-256 \(sha256.prefix(12))… differs from the manifest's \(manifest.media.sha256.prefix(12))…)"
                        )
                    }
                }
                let engine = try FFmpegEngine(path: path, options: engineOptions)
                source = engine
                return engine
            } catch let error as ManifestCheckError {
                throw error
            } catch let error as MediaError {
                throw ManifestCheckError(path: path, reason: .mediaUnreadable, cause: error.cause)
            } catch {
                throw ManifestCheckError(path: path, reason: .mediaUnreadable, cause: "\(error)")
            }
        }
    }
}
