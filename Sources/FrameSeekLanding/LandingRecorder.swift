import Foundation
import FrameSeekCore
import FrameSeekFFmpeg

/// Records landing manifests: seeks the media and writes down where each seek landed.
public enum LandingRecorder {
    /// Opens the media once, seeks every target at every precision (targets outer, precisions
    /// inner, in the order given), returns the manifest; `manifestPath` decides the relative
    /// media path. Writes nothing: call `LandingManifest.write(to:)` with the same path.
    ///
    /// - Parameters:
    ///   - barcode: read each landed picture's frame-number band (`FrameBarcode`) into the
    ///     entries; only for media stamped with one.
    ///   - options: how to open the media; `streamIndex` picks the stream, as everywhere.
    /// - Throws: `MediaError` when the media cannot be hashed, opened or seeked.
    public static func record(mediaPath: String, manifestPath: String, targets: [MediaTime], precisions: [SeekPrecision],
                              barcode: Bool, options: FFmpegEngine.Options = .init()) throws -> LandingManifest {
        let sha256 = try MediaDigest.sha256(ofFileAt: mediaPath)
        let engine = try FFmpegEngine(path: mediaPath, options: options)
        var entries: [LandingEntry] = []
        entries.reserveCapacity(targets.count * precisions.count)
        for target in targets {
            for precision in precisions {
                entries.append(try engine.landingEntry(at: target, precision: precision, barcode: barcode).entry)
            }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: mediaPath)[.size] as? NSNumber)?.int64Value ?? 0
        let media = LandingMedia(path: relativePath(of: mediaPath, fromDirectoryOf: manifestPath), size: size,
                                 sha256: sha256, streamIndex: engine.media.selectedStreamIndex)
        return LandingManifest(media: media, environment: LandingEnvironment(current: engine), barcode: barcode,
                               entries: entries)
    }

    /// `path` as seen from the directory of `manifestPath` (`../media/clip.mp4`), so that the
    /// manifest and the media can move together.
    static func relativePath(of path: String, fromDirectoryOf manifestPath: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: manifestPath).standardizedFileURL.deletingLastPathComponent().pathComponents
        var shared = 0
        while shared < min(target.count - 1, base.count), target[shared] == base[shared] { shared += 1 }
        let ups = Array(repeating: "..", count: base.count - shared)
        return (ups + target[shared...]).joined(separator: "/")
    }
}

extension LandingEnvironment {
    /// The environment `engine` decodes in: the FFmpeg libraries loaded, its decoder, this
    /// FrameSeek.
    init(current engine: FFmpegEngine) {
        self.init(ffmpeg: FFmpegLibraries.versions, decoder: engine.decoderName, frameseek: FrameSeekVersion.current)
    }
}

extension FFmpegEngine {
    /// Seeks to `target` at `precision` and describes the landing as a manifest entry: the
    /// one measurement recording and checking share, so both see the same thing.
    ///
    /// - Returns: the entry, and the landed picture for video (nil for audio).
    /// - Throws: `MediaError` when the seek, the copy of the picture, its RGB conversion (for
    ///   the barcode) or the audio reference decode fails.
    func landingEntry(at target: MediaTime, precision: SeekPrecision,
                      barcode: Bool) throws(MediaError) -> (entry: LandingEntry, picture: DecodedPicture?) {
        let landing = try seek(to: target, precision: precision, interruption: nil)
        let picture = try landedPicture()
        let md5: String
        var number: Int?
        if let picture {
            md5 = picture.md5
            // The band is stamped in the coded picture, so it is read before any rotation.
            if barcode { number = FrameBarcode.read(from: try picture.rgbImage(using: self)) }
        } else if let audio = try landedAudio() {
            md5 = audio.md5
        } else {
            throw MediaError(path: media.path, reason: .decodeFailed, detail: "the seek to \(target) landed on no frame")
        }
        let entry = LandingEntry(target: target, precision: precision, frameIndex: landing.frame.index,
                                 pts: landing.frame.pts, time: landing.frame.time, keyframeIndex: landing.keyframeIndex,
                                 damaged: landing.damaged, md5: md5, barcode: number)
        return (entry, picture)
    }
}
