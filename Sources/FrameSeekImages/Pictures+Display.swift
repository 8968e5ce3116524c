import FrameSeekCore
import FrameSeekFFmpeg

extension DecodedPicture {
    /// The picture as 8-bit RGB, turned upright as a viewer sees it (the container's display
    /// matrix applied) unless `autorotate` is false, converted by `engine`'s converter (HDR
    /// tone-mapped as the engine's `Options.toneMapping` says).
    ///
    /// - Throws: `MediaError` (`.conversionFailed`) when the picture cannot be converted.
    public func displayImage(autorotate: Bool = true, using engine: FFmpegEngine) throws(MediaError) -> RGBImage {
        let coded = try rgbImage(using: engine)
        return autorotate ? coded.oriented(orientation) : coded
    }

    /// The picture as 16-bit RGB, upright unless `autorotate` is false, as `displayImage`.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`) when the picture cannot be converted.
    public func displayImage16(autorotate: Bool = true, using engine: FFmpegEngine) throws(MediaError) -> RGB16Image {
        let coded = try rgb16Image(using: engine)
        return autorotate ? coded.oriented(orientation) : coded
    }

    /// Writes the picture to `path` as PNG of `bitDepth` 8 or 16, upright unless `autorotate`
    /// is false, converted by `engine`'s converter.
    ///
    /// - Throws: `MediaError` when the conversion to RGB fails, `PNGWriteError` when libpng
    ///   cannot write the file.
    public func writePNG(
        to path: String, autorotate: Bool = true, bitDepth: PNGBitDepth = .eight,
        using engine: FFmpegEngine
    ) throws {
        switch bitDepth {
        case .eight: try PNGFile.write(displayImage(autorotate: autorotate, using: engine), to: path)
        case .sixteen: try PNGFile.write(displayImage16(autorotate: autorotate, using: engine), to: path)
        }
    }
}

/// The bits per sample of a PNG FrameSeek writes (`--png-depth`).
public enum PNGBitDepth: Int, Sendable, Hashable, CaseIterable {
    /// 8 bits a sample: the default, and what every viewer shows.
    case eight = 8
    /// 16 bits a sample, big-endian: 10- and 12-bit sources keep their precision, for diffs.
    case sixteen = 16
}
