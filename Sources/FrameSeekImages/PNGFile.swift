internal import CPNG
#if canImport(Glibc)
import Glibc
#endif
import FrameSeekCore

/// A PNG file could not be written. Comes from libpng's simplified API
/// (`png_image_write_to_file`), whose message it carries.
public struct PNGWriteError: Error, Sendable, CustomStringConvertible {
    /// Where the file was to be written.
    public let path: String
    /// libpng's message.
    public let message: String
    /// `PATH: cannot write PNG (message)`.
    public var description: String { "\(path): cannot write PNG (\(message))" }
}

/// Writes 8-bit RGB PNG files through libpng.
public enum PNGFile {
    /// Writes `image` to `path` as an 8-bit RGB PNG, atomically: under a temporary name in
    /// the same directory, renamed into place when complete (see `OutputFile`).
    public static func write(_ image: RGBImage, to path: String) throws(PNGWriteError) {
        let temporary = OutputFile.temporaryPath(for: path)
        try writeInPlace(image, to: temporary, naming: path)
        do { try OutputFile.commit(temporary, to: path) } catch {
            throw PNGWriteError(path: path, message: error.cause)
        }
    }

    /// Writes `image` to `path` as it goes; errors name `shownPath`.
    static func writeInPlace(_ image: RGBImage, to path: String, naming shownPath: String) throws(PNGWriteError) {
        var png = png_image()
        png.version = fs_png_image_version()
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = fs_png_format_rgb()
        let ok = image.pixels.withUnsafeBufferPointer { pixels in
            png_image_write_to_file(&png, path, 0, pixels.baseAddress, Int32(image.width * 3), nil)
        }
        let message = withUnsafeBytes(of: png.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        png_image_free(&png)
        if ok == 0 {
            unlink(path)
            throw PNGWriteError(path: shownPath, message: message.isEmpty ? "libpng failed" : message)
        }
    }
}
