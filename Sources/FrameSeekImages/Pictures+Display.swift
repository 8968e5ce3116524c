import FrameSeekCore
import FrameSeekFFmpeg

extension DecodedPicture {
    /// The picture as 8-bit RGB, turned upright as a viewer sees it (the container's display
    /// matrix applied) unless `autorotate` is false.
    public func displayImage(autorotate: Bool = true) -> RGBImage {
        let coded = rgbImage()
        return autorotate ? coded.oriented(orientation) : coded
    }

    /// Writes the picture to `path` as PNG, upright unless `autorotate` is false.
    public func writePNG(to path: String, autorotate: Bool = true) throws(PNGWriteError) {
        try PNGFile.write(displayImage(autorotate: autorotate), to: path)
    }
}
