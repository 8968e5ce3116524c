import FrameSeekCore
import FrameSeekFFmpeg

extension DecodedPicture {
    /// The picture as 8-bit RGB, turned upright as a viewer sees it (the container's display
    /// matrix applied) unless `autorotate` is false, converted by `engine`'s swscale context.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`) when swscale cannot convert the picture.
    public func displayImage(autorotate: Bool = true, using engine: FFmpegEngine) throws(MediaError) -> RGBImage {
        let coded = try rgbImage(using: engine)
        return autorotate ? coded.oriented(orientation) : coded
    }

    /// Writes the picture to `path` as PNG, upright unless `autorotate` is false, converted by
    /// `engine`'s swscale context.
    ///
    /// - Throws: `MediaError` when the conversion to RGB fails, `PNGWriteError` when libpng
    ///   cannot write the file.
    public func writePNG(to path: String, autorotate: Bool = true, using engine: FFmpegEngine) throws {
        try PNGFile.write(displayImage(autorotate: autorotate, using: engine), to: path)
    }
}
