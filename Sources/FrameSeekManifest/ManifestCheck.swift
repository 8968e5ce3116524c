import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekImages

/// Checks a landing manifest: replays every entry's seek on the media and compares where it
/// lands now with where it landed when recorded.
public struct ManifestCheck {
    /// How to check.
    public struct Options: Sendable {
        /// Check media whose SHA-256 differs from the manifest's (a re-encode, a remux) instead
        /// of refusing it: the report then says what moved.
        public var allowChangedMedia = false
        /// Where to write one diff PNG per mismatched video entry, named
        /// `<manifest name without extension>-<entry number from 1>.png`; created if needed.
        /// Nil writes none.
        public var diffDirectory: String? = nil
        /// How to open the media; the stream is always the manifest's `media.stream_index`.
        public var engineOptions = FFmpegEngine.Options()
        /// The folder the media must be inside, once `media.path` is resolved against the
        /// manifest's folder with its symbolic links: a manifest from a pull request must not
        /// make a check decode, and draw into diff pictures, a file it was not given.
        /// `.anywhere` lifts that rule; the media must be a regular file either way. Reference
        /// pictures are held to the same rule.
        public var root = ManifestRoot.currentDirectory
        /// Replay the seeks on this file instead of the manifest's (another encode of the same
        /// content): its identity is not checked, and the report says so. Given by the person
        /// running the check, so not held to the root.
        public var media: String? = nil
        /// Decode each entry's reference picture from this file, the recorded media, for a
        /// manifest recorded without pictures. Its SHA-256 must be the manifest's.
        public var referenceMedia: String? = nil
        /// Tolerances to hold landed pictures to, besides the manifest's own; with none (here or
        /// in the manifest) the check compares MD5s.
        public var tolerances: [PictureTolerance] = []
        /// Fail an entry judged by picture when its frame index or time changed.
        public var strictFrames = false
        /// Rewrite the manifest from what landed (`landing check --update`): nil leaves it.
        public var update: ManifestRebaseline? = nil

        /// The defaults: refuse changed media, write no diff pictures.
        public init() {}
    }

    /// Replays every entry. Throws ManifestCheckError when the media is outside the root or not
    /// a regular file, cannot be read, or when its SHA-256 differs from the manifest's and
    /// allowChangedMedia is false.
    ///
    /// The media's place and kind are checked before anything opens it.
    /// A mismatch is no error: it is in the report (`ManifestCheckReport.passed`).
    ///
    /// - Throws: `ManifestCheckError`: `.mediaRefused` (outside the root, not a regular file),
    ///   `.mediaUnreadable` (missing, or hashing, opening or a seek failed), `.mediaChanged`,
    ///   `.diffUnwritable`.
    public static func run(
        _ manifest: Manifest, manifestPath: String,
        options: Options
    ) throws(ManifestCheckError) -> ManifestCheckReport {
        let mediaPath = options.media ?? manifest.mediaPath(relativeTo: manifestPath)
        func unreadable(_ error: MediaError) -> ManifestCheckError {
            ManifestCheckError(path: mediaPath, reason: .mediaUnreadable, cause: error.cause)
        }
        let openedPath: String
        if let media = options.media {
            if let problem = FileKind(at: media).notRegularProblem {
                throw ManifestCheckError(path: media, reason: .mediaRefused, cause: problem)
            }
            openedPath = media
        } else {
            openedPath = try checkedMediaPath(manifest, manifestPath: manifestPath, shownAs: mediaPath, root: options.root)
        }
        let sha256: String
        do { sha256 = try MediaDigest.sha256(ofFileAt: openedPath) } catch { throw unreadable(error) }
        let changed = sha256 != manifest.media.sha256
        if changed && !options.allowChangedMedia && options.media == nil {
            throw ManifestCheckError(
                path: mediaPath, reason: .mediaChanged,
                cause:
                    "not the recorded media (SHA-256 \(sha256.prefix(12))… differs from the manifest's \(manifest.media.sha256.prefix(12))…); --allow-changed-media checks it anyway, --media NEW checks another encode"
            )
        }
        let tolerances = try judgingTolerances(manifest, manifestPath: manifestPath, options: options)
        var engineOptions = options.engineOptions
        engineOptions.streamIndex = manifest.media.streamIndex
        let engine: FFmpegEngine
        do { engine = try FFmpegEngine(path: openedPath, options: engineOptions) } catch { throw unreadable(error) }
        let references = try ReferencePictures(
            manifest: manifest, manifestPath: manifestPath, options: options, checkedMedia: (openedPath, changed))
        var rebaseline = options.update.map { Rebaseline(mode: $0, manifest: manifest, manifestPath: manifestPath) }

        // Every entry is replayed in one batch (one forward pass), and reported in the
        // manifest's order.
        var results = [ManifestEntryResult?](repeating: nil, count: manifest.entries.count)
        do {
            try ManifestRecorder.measure(
                manifest.entries.map { ($0.target, $0.precision) }, on: engine, barcode: manifest.barcode
            ) {
                offset, landed, picture in
                let expected = manifest.entries[offset]
                // Converted once, and only for what needs the picture upright in RGB: a score,
                // a diff picture, a rebaselined reference picture. A plain MD5 check converts
                // nothing.
                var converted: RGBImage?
                func landedImage() throws(MediaError) -> RGBImage? {
                    guard let picture else { return nil }
                    if let converted { return converted }
                    converted = try picture.displayImage(using: engine)
                    return converted
                }
                var reference: RGBImage?
                var score: PictureScore?
                if !tolerances.isEmpty, let image = try landedImage() {
                    let recorded = try references.picture(for: expected, offset: offset)
                    score = try PictureScore.measure(image, against: recorded, naming: manifestPath)
                    reference = recorded
                }
                var result = ManifestEntryResult(
                    expected: expected, landed: landed, comparingBarcodes: manifest.barcode, tolerances: tolerances,
                    score: score, strictFrames: options.strictFrames)
                if !result.matches, let directory = options.diffDirectory, let image = try landedImage() {
                    let name = URL(fileURLWithPath: manifestPath).deletingPathExtension().lastPathComponent
                    let path = URL(fileURLWithPath: directory).appendingPathComponent("\(name)-\(offset + 1).png").path
                    try writeDiff(
                        expectedFrame: expected.frameIndex, landedFrame: landed.frameIndex, reference: reference,
                        landed: image, engine: engine, to: path)
                    result.diffPicture = path
                }
                try rebaseline?.take(result, offset: offset, picture: landedImage)
                results[offset] = result
            }
        } catch {
            rebaseline?.discard()
            switch error {
            case let error as MediaError: throw unreadable(error)
            case let error as ManifestCheckError: throw error
            default: throw ManifestCheckError(path: mediaPath, reason: .mediaUnreadable, cause: "\(error)")
            }
        }
        let environment = ManifestEnvironment(current: engine)
        var report = ManifestCheckReport(
            manifestPath: manifestPath, mediaPath: mediaPath, mediaChanged: changed,
            environment: environment, results: results.map { $0! })
        report.mediaReplaced = options.media != nil
        if let rebaseline {
            let media = ManifestMedia(
                path: options.media.map { ManifestRecorder.relativePath(of: $0, fromDirectoryOf: manifestPath) } ?? manifest.media.path,
                size: FileKind.byteCount(at: openedPath) ?? manifest.media.size, sha256: sha256,
                streamIndex: engine.media.selectedStreamIndex)
            report.updatedEntries = try rebaseline.commit(media: media, environment: environment)
        }
        return report
    }

    /// The tolerances entries are judged by: the manifest's, then the options'.
    ///
    /// - Throws: `ManifestCheckError` (`.toleranceMalformed`) naming the manifest.
    private static func judgingTolerances(
        _ manifest: Manifest, manifestPath: String, options: Options
    ) throws(ManifestCheckError) -> [PictureTolerance] {
        var tolerances: [PictureTolerance] = []
        for text in manifest.tolerances {
            do { tolerances.append(try PictureTolerance(parsing: text)) } catch {
                throw ManifestCheckError(path: manifestPath, reason: .toleranceMalformed, cause: "tolerances: \(error)")
            }
        }
        for tolerance in options.tolerances where !tolerances.contains(tolerance) { tolerances.append(tolerance) }
        return tolerances
    }

    /// The media to open: `media.path` resolved with its symbolic links, inside the root and a
    /// regular file (`ManifestRoot.checkedPath`).
    ///
    /// - Throws: `ManifestCheckError`: `.mediaRefused` naming the manifest and `media.path`;
    ///   `.mediaUnreadable` naming the media when its folder does not exist, as a missing file
    ///   is named.
    private static func checkedMediaPath(
        _ manifest: Manifest, manifestPath: String, shownAs mediaPath: String, root: ManifestRoot
    ) throws(ManifestCheckError) -> String {
        do throws(ManifestPathError) {
            return try ManifestRoot.checkedPath(
                manifest.media.path, relativeTo: Manifest.folder(of: manifestPath),
                root: root.resolvedFolder(), source: manifestPath, field: "media.path")
        } catch {
            if error.reason == .missing { throw ManifestCheckError(path: mediaPath, reason: .mediaUnreadable, cause: "no such file") }
            throw ManifestCheckError(path: manifestPath, reason: .mediaRefused, cause: error.detail)
        }
    }

    /// Draws the expected frame (the reference picture, else decoded by its index), the landed
    /// picture and their amplified difference, both upright, each labelled
    /// (`LandingDiffPicture`), and writes the PNG atomically.
    ///
    /// The expected frame may be gone (changed media with fewer frames) or undecodable: its
    /// panel is then grey and labelled missing, so the landed picture is still shown.
    private static func writeDiff(
        expectedFrame index: Int, landedFrame: Int, reference: RGBImage?, landed: RGBImage,
        engine: FFmpegEngine, to path: String
    ) throws(ManifestCheckError) {
        let expected = reference ?? (try? expectedPicture(frame: index, engine: engine)) ?? nil
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ManifestCheckError(
                path: directory.path, reason: .diffUnwritable,
                cause: "cannot create the diff directory (\(error.localizedDescription))")
        }
        let diff = LandingDiffPicture.compose(
            expected: expected, landed: landed,
            expectedLabel: LandingDiffPicture.expectedLabel(frame: index),
            landedLabel: LandingDiffPicture.landedLabel(frame: landedFrame))
        do { try PNGFile.write(diff, to: path) } catch {
            throw ManifestCheckError(path: path, reason: .diffUnwritable, cause: error.cause)
        }
    }

    /// Frame `index` of the media, upright; nil when the media has no such frame.
    private static func expectedPicture(frame index: Int, engine: FFmpegEngine) throws -> RGBImage? {
        guard engine.frameTable.frames.indices.contains(index) else { return nil }
        _ = try engine.land(engine.frameTable.planLanding(onFrame: index))
        return try engine.landedPicture()?.displayImage(using: engine)
    }
}
