import Foundation
import FrameSeekCore
import FrameSeekFFmpeg

/// Records landing manifests: seeks the media and writes down where each seek landed.
public enum ManifestRecorder {
    /// Opens the media once, seeks every target at every precision (targets outer, precisions
    /// inner, in the order given), returns the manifest; `manifestPath` decides the relative
    /// media path. Writes nothing: call `Manifest.write(to:)` with the same path.
    ///
    /// - Parameters:
    ///   - barcode: read each landed picture's frame-number band (`FrameBarcode`) into the
    ///     entries; only for media stamped with one.
    ///   - pictures: keep each landed video picture beside the manifest (`ManifestPictures`),
    ///     written as the seeks land.
    ///   - options: how to open the media; `streamIndex` picks the stream, as everywhere.
    /// - Throws: `MediaError` when the media is not a regular file (`.notMedia`, before it is
    ///   opened: a FIFO would block the hash, a device never end it), or cannot be hashed,
    ///   opened or seeked; `ManifestError` when a picture cannot be written.
    public static func record(
        mediaPath: String, manifestPath: String, targets: [MediaTime], precisions: [SeekPrecision],
        barcode: Bool, pictures: Bool = false, options: FFmpegEngine.Options = .init()
    ) throws -> Manifest {
        if let problem = FileKind(at: mediaPath).notRegularProblem {
            throw MediaError(path: mediaPath, reason: .notMedia, cause: problem)
        }
        let sha256 = try MediaDigest.sha256(ofFileAt: mediaPath)
        let engine = try FFmpegEngine(path: mediaPath, options: options)
        let requests = targets.flatMap { target in precisions.map { (target, $0) } }
        var entries = [ManifestEntry?](repeating: nil, count: requests.count)
        try measure(requests, on: engine, barcode: barcode) { position, entry, picture in
            var entry = entry
            if pictures, let picture {
                entry.picture = try ManifestPictures.write(
                    picture.displayImage(using: engine), forEntry: position, manifestPath: manifestPath)
            }
            entries[position] = entry
        }
        let media = ManifestMedia(
            path: relativePath(of: mediaPath, fromDirectoryOf: manifestPath), size: FileKind.byteCount(at: mediaPath) ?? 0,
            sha256: sha256, streamIndex: engine.media.selectedStreamIndex)
        return Manifest(
            media: media, environment: ManifestEnvironment(current: engine), barcode: barcode,
            entries: entries.map { $0! })
    }

    /// `path` as seen from the directory of `manifestPath` (`../media/clip.mp4`), so that the
    /// manifest and the media can move together.
    static func relativePath(of path: String, fromDirectoryOf manifestPath: String) -> String {
        RelativePath.of(path, fromDirectoryOf: manifestPath)
    }
}

extension ManifestEnvironment {
    /// The environment `engine` decodes in: the FFmpeg libraries loaded, its decoder, this
    /// FrameSeek.
    init(current engine: FFmpegEngine) {
        self.init(ffmpeg: FFmpegLibraries.versions, decoder: engine.decoderName, frameseek: FrameSeekVersion.current)
    }
}

extension ManifestRecorder {
    /// Lands `engine` on every (target, precision) in `requests` as one batch
    /// (`FFmpegEngine.land(_:each:)`: one forward pass, each frame decoded once) and describes
    /// each landing as a manifest entry: the one measurement recording and checking share, so
    /// both see the same thing.
    ///
    /// - Parameter each: called per request, in the order the frames are landed, with the
    ///   request's position, its entry, and the landed picture for video (nil for audio).
    /// - Throws: `MediaError` when planning, a landing, the copy of a picture, its RGB
    ///   conversion (for the barcode) or the audio reference decode fails; or what `each` throws.
    static func measure(
        _ requests: [(target: MediaTime, precision: SeekPrecision)], on engine: FFmpegEngine, barcode: Bool,
        each: (_ position: Int, _ entry: ManifestEntry, _ picture: DecodedPicture?) throws -> Void
    ) throws {
        let plans = try requests.map { request throws(MediaError) in
            try engine.plan(at: request.target, precision: request.precision)
        }
        _ = try engine.land(plans) { position, landing in
            let described = try entry(describing: landing, on: engine, barcode: barcode)
            try each(position, described.entry, described.picture)
        }
    }

    /// The manifest entry of `landing`, the engine's landed frame now.
    ///
    /// - Returns: the entry, and the landed picture for video (nil for audio).
    private static func entry(
        describing landing: SeekLanding, on engine: FFmpegEngine, barcode: Bool
    ) throws(MediaError) -> (entry: ManifestEntry, picture: DecodedPicture?) {
        let target = landing.plan.requested
        let picture = try engine.landedPicture()
        let md5: String
        var number: Int?
        if let picture {
            md5 = picture.md5
            // The band is stamped in the coded picture, so it is read before any rotation.
            if barcode { number = FrameBarcode.read(from: try picture.rgbImage(using: engine)) }
        } else if let audio = try engine.landedAudio() {
            md5 = audio.md5
        } else {
            throw MediaError(path: engine.media.path, reason: .decodeFailed, cause: "the seek to \(target) landed on no frame")
        }
        let entry = ManifestEntry(
            target: target, precision: landing.plan.precision, frameIndex: landing.frame.index,
            pts: landing.frame.pts, time: landing.frame.time, keyframeIndex: landing.keyframeIndex,
            damaged: landing.damaged, md5: md5, barcode: number)
        return (entry, picture)
    }
}
