import Foundation
import FrameSeekCore
import FrameSeekImages

/// Which entries `landing check --update` rewrites from what landed.
public enum ManifestRebaseline: Sendable, Hashable {
    /// Only those that landed as recorded or within tolerance (`--update`): a landing that
    /// moved stays recorded as it was, and keeps failing.
    case matching
    /// Every entry (`--update-all`): what landed becomes the record.
    case all
}

extension ManifestCheck {
    /// A rebaseline under way: the entries taken so far and their pictures, staged under
    /// temporary names; committed over the manifest at the end, or discarded.
    struct Rebaseline {
        let mode: ManifestRebaseline
        let manifest: Manifest
        let manifestPath: String
        private var entries: [ManifestEntry]
        private var updated: [Int] = []
        private var staged: [ManifestPictures.Staged] = []

        init(mode: ManifestRebaseline, manifest: Manifest, manifestPath: String) {
            self.mode = mode
            self.manifest = manifest
            self.manifestPath = manifestPath
            entries = manifest.entries
        }

        /// Takes entry `offset`'s replay when the mode says so: its landing replaces the
        /// recorded one, and its picture (converted only now) the reference picture when the
        /// entry has one and the pixels changed. An entry taken though it moved
        /// (`--update-all`) loses its expected outcome: what landed is now the record.
        ///
        /// - Throws: `ManifestCheckError` (`.manifestUnwritable`) when the picture cannot be
        ///   staged; `MediaError` when it cannot be converted.
        mutating func take(
            _ result: ManifestEntryResult, offset: Int, picture: () throws(MediaError) -> RGBImage?
        ) throws {
            guard mode == .all || result.matches else { return }
            var entry = result.expected.relanded(as: result.landed)
            if !result.matches {
                entry.expectedOutcome = nil
                entry.reason = nil
            }
            if result.expected.picture != nil, result.landed.md5 != result.expected.md5, let image = try picture() {
                do {
                    let picture = try ManifestPictures.stage(image, forEntry: offset, manifestPath: manifestPath)
                    staged.append(picture)
                    entry.picture = picture.picture
                } catch {
                    throw ManifestCheckError(path: error.path, reason: .manifestUnwritable, cause: error.cause)
                }
            }
            if entry != result.expected { updated.append(offset) }
            entries[offset] = entry
        }

        /// Removes the staged pictures: the check did not finish, and the manifest stays.
        func discard() {
            for picture in staged { try? FileManager.default.removeItem(atPath: picture.temporary) }
        }

        /// Renames the staged pictures into place and writes the rebaselined manifest over the
        /// old one, now describing `media` and `environment` and saying what it was updated
        /// from. Writes nothing when no entry changed and the media is the same.
        ///
        /// - Returns: the offsets of the entries rewritten, in the manifest's order.
        /// - Throws: `ManifestCheckError` (`.manifestUnwritable`).
        func commit(media: ManifestMedia, environment: ManifestEnvironment) throws(ManifestCheckError) -> [Int] {
            guard !updated.isEmpty || media != manifest.media else {
                discard()
                return []
            }
            for (done, picture) in staged.enumerated() {
                do { try OutputFile.commit(picture.temporary, to: picture.path) } catch {
                    for rest in staged[(done + 1)...] { try? FileManager.default.removeItem(atPath: rest.temporary) }
                    throw ManifestCheckError(path: picture.path, reason: .manifestUnwritable, cause: error.cause)
                }
            }
            var rewritten = manifest
            rewritten.entries = entries
            rewritten.media = media
            rewritten.environment = environment
            rewritten.updatedFrom = ManifestUpdate(
                mediaSHA256: manifest.media.sha256, environment: manifest.environment, entries: updated.count)
            do { try rewritten.write(to: manifestPath) } catch {
                throw ManifestCheckError(path: manifestPath, reason: .manifestUnwritable, cause: error.cause)
            }
            return updated.sorted()
        }
    }
}
