// Reading PNG files back with libpng's simplified read API: files FrameSeek wrote are checked
// by the reference implementation, not by FrameSeek.

internal import CPNG
import FrameSeekCore

/// Reads a PNG file back into 8-bit RGB pixels with libpng, whatever format it was stored in.
public func readPNG(_ path: String) throws -> RGBImage {
    var png = png_image()
    png.version = fs_png_image_version()
    guard png_image_begin_read_from_file(&png, path) != 0 else {
        let message = withUnsafeBytes(of: png.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        png_image_free(&png)
        throw OracleError("\(path): libpng cannot read it (\(message))")
    }
    png.format = fs_png_format_rgb()
    let (width, height) = (Int(png.width), Int(png.height))
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    let ok = pixels.withUnsafeMutableBytes { buffer in
        png_image_finish_read(&png, nil, buffer.baseAddress, Int32(width * 3), nil)
    }
    png_image_free(&png)
    guard ok != 0 else { throw OracleError("\(path): libpng failed to decode the pixels") }
    return RGBImage(width: width, height: height, pixels: pixels)
}

extension RGBImage {
    /// The `width` x `height` rectangle at (`x`, `y`).
    public func crop(x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 3)
        for row in y..<(y + height) {
            let start = (row * self.width + x) * 3
            out.append(contentsOf: pixels[start..<(start + width * 3)])
        }
        return RGBImage(width: width, height: height, pixels: out)
    }
}
