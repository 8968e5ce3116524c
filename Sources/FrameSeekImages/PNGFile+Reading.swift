internal import CPNG
import FrameSeekCore

/// A PNG file could not be read: libpng refused it, or it is larger than the reader takes.
public struct PNGReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was read, for the message.
    public let path: String
    /// libpng's message, or the limit the file is over.
    public let cause: String
    /// `PATH: cannot read PNG (cause)`.
    public var description: String { "\(path): cannot read PNG (\(cause))" }
}

extension PNGFile {
    /// The most pixels a PNG read back may have: an 8K picture is 33 million. A manifest's
    /// reference picture comes from whoever sent the pull request, and its header alone could
    /// otherwise ask for gigabytes.
    public static let maximumReadPixels = 64 << 20

    /// The picture in `bytes`, a PNG file, as 8-bit RGB (libpng's simplified API converts any
    /// colour type and depth; alpha is composited onto black).
    ///
    /// - Throws: `PNGReadError` naming `path` (only for the message) when libpng cannot read
    ///   the header or the pixels, or the picture has more than `maximumReadPixels`.
    public static func read(_ bytes: [UInt8], naming path: String) throws(PNGReadError) -> RGBImage {
        // libpng keeps the pointer it is given until the read ends: both calls are made inside
        // the one closure that lends it.
        let result = bytes.withUnsafeBytes { raw -> Result<RGBImage, PNGReadError> in
            var png = png_image()
            png.version = fs_png_image_version()
            defer { png_image_free(&png) }
            func failure(_ fallback: String) -> Result<RGBImage, PNGReadError> {
                let message = withUnsafeBytes(of: png.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                return .failure(PNGReadError(path: path, cause: message.isEmpty ? fallback : message))
            }
            guard png_image_begin_read_from_memory(&png, raw.baseAddress, raw.count) != 0 else { return failure("not a PNG") }
            let (width, height) = (Int(png.width), Int(png.height))
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            guard !overflow, pixels > 0, pixels <= maximumReadPixels else {
                return .failure(PNGReadError(path: path, cause: "\(width)x\(height) is more than \(maximumReadPixels) pixels"))
            }
            png.format = fs_png_format_rgb()
            var rgb = [UInt8](repeating: 0, count: pixels * 3)
            let finished = rgb.withUnsafeMutableBytes { buffer in
                png_image_finish_read(&png, nil, buffer.baseAddress, Int32(width * 3), nil)
            }
            guard finished != 0 else { return failure("libpng failed to decode the pixels") }
            return .success(RGBImage(width: width, height: height, pixels: rgb))
        }
        return try result.get()
    }
}
