internal import CPNG
#if canImport(Glibc)
    import Glibc
#endif
import FrameSeekCore

/// A PNG file could not be written: libpng refused the picture, or the file could not be
/// created or written.
public struct PNGWriteError: Error, Sendable, CustomStringConvertible {
    /// Where the file was to be written.
    public let path: String
    /// libpng's message, or the system's reason.
    public let cause: String
    /// `PATH: cannot write PNG (cause)`.
    public var description: String { "\(path): cannot write PNG (\(cause))" }
}

/// Writes RGB PNG files through libpng, 8 bits a sample or 16, with the zlib level and row
/// filters of a `PNGCompression`. Every setting gives the same pixels; they trade time for size.
public enum PNGFile {
    /// Writes `image` to `path` as an 8-bit RGB PNG, atomically: under a temporary name in
    /// the same directory, renamed into place when complete (see `OutputFile`).
    public static func write(_ image: RGBImage, to path: String, compression: PNGCompression = .default) throws(PNGWriteError) {
        try write(encode(image, compression: compression, naming: path), to: path)
    }

    /// Writes `image` to `path` as a 16-bit RGB PNG, atomically, as `write(_:to:compression:)`.
    public static func write(_ image: RGB16Image, to path: String, compression: PNGCompression = .default) throws(PNGWriteError) {
        try write(encode(image, compression: compression, naming: path), to: path)
    }

    /// The PNG file's bytes for `image`, encoded in memory.
    ///
    /// - Throws: `PNGWriteError` naming `path` (only for the message) when libpng fails.
    public static func encode(
        _ image: RGBImage, compression: PNGCompression = .default,
        naming path: String = "PNG"
    ) throws(PNGWriteError) -> [UInt8] {
        try encode(rows: image.pixels, width: image.width, height: image.height, bitDepth: 8, compression: compression, naming: path)
    }

    /// The 16-bit PNG file's bytes for `image`, encoded in memory.
    ///
    /// - Throws: `PNGWriteError` naming `path` (only for the message) when libpng fails.
    public static func encode(
        _ image: RGB16Image, compression: PNGCompression = .default,
        naming path: String = "PNG"
    ) throws(PNGWriteError) -> [UInt8] {
        try encode(
            rows: image.bigEndianSamples, width: image.width, height: image.height, bitDepth: 16,
            compression: compression, naming: path)
    }

    /// Encodes packed RGB rows of `bitDepth` 8 or 16 (big-endian) with `fs_png_encode_rgb`.
    private static func encode(
        rows pixels: [UInt8], width: Int, height: Int, bitDepth: Int, compression: PNGCompression,
        naming path: String
    ) throws(PNGWriteError) -> [UInt8] {
        var buffer = fs_png_buffer()
        defer { free(buffer.data) }
        let bytesPerPixel = 3 * bitDepth / 8
        // libpng takes 32-bit sides; RGBImage's sides are bounded far below that by every
        // caller (thumbnail and sheet limits), but a picture that is not is refused, not cut.
        guard width > 0, height > 0, width <= Int(UInt32.max) / bytesPerPixel, height <= Int(UInt32.max) else {
            throw PNGWriteError(path: path, cause: "a \(width)x\(height) picture cannot be a PNG")
        }
        let ok = pixels.withUnsafeBufferPointer { rows in
            fs_png_encode_rgb(
                rows.baseAddress, UInt32(width), UInt32(height), Int32(bitDepth), width * bytesPerPixel,
                Int32(compression.level), compression.filter.mask, &buffer)
        }
        guard ok != 0 else {
            let message = withUnsafeBytes(of: buffer.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            throw PNGWriteError(path: path, cause: message.isEmpty ? "libpng failed" : message)
        }
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }

    /// Writes encoded bytes to `path` atomically.
    private static func write(_ bytes: [UInt8], to path: String) throws(PNGWriteError) {
        do { try OutputFile.write(bytes, to: path) } catch { throw PNGWriteError(path: path, cause: error.cause) }
    }

    /// Writes `image` to `path` as it goes; errors name `shownPath`.
    static func writeInPlace(
        _ image: RGBImage, to path: String, naming shownPath: String,
        compression: PNGCompression = .default
    ) throws(PNGWriteError) {
        let bytes = try encode(image, compression: compression, naming: shownPath)
        do { try OutputFile.writeInPlace(bytes, to: path, naming: shownPath) } catch {
            throw PNGWriteError(path: shownPath, cause: error.cause)
        }
    }
}

/// How a PNG is compressed: the zlib level and the row filters libpng tries. Lossless at
/// every setting: the pixels decode the same, only the time and the size differ.
public struct PNGCompression: Sendable, Hashable, CustomStringConvertible {
    /// The zlib level, 0 (stored, no compression) to 9 (smallest, slowest).
    public let level: Int
    /// The row filter.
    public let filter: PNGFilter

    /// The default: zlib level 1 with the Up filter. On a 1080x1920 frame it encodes faster
    /// than FFmpeg's PNG encoder (level 6, no filter) and its file is about the same size;
    /// see the Performance article's "PNG output" measurements.
    public static let `default` = PNGCompression(level: 1, filter: .up)

    /// `level` 0-9 with `filter`; levels outside 0-9 are clamped into it.
    public init(level: Int, filter: PNGFilter = .up) {
        self.level = min(9, max(0, level))
        self.filter = filter
    }

    /// `level 1, filter up`.
    public var description: String { "level \(level), filter \(filter.rawValue)" }
}

/// PNG row filters (PNG specification section 9): each row is stored as its difference from
/// a prediction, which zlib then compresses better. `all` lets libpng pick per row (its
/// default, and the slowest).
public enum PNGFilter: String, Sendable, Hashable, CaseIterable {
    /// No prediction.
    case none
    /// The pixel to the left.
    case sub
    /// The pixel above.
    case up
    /// The mean of left and above.
    case average
    /// Paeth's predictor of left, above and upper left.
    case paeth
    /// Every filter, chosen per row by libpng's heuristic.
    case all

    /// libpng's mask for `png_set_filter`.
    var mask: Int32 {
        switch self {
        case .none: fs_png_filter_none()
        case .sub: fs_png_filter_sub()
        case .up: fs_png_filter_up()
        case .average: fs_png_filter_avg()
        case .paeth: fs_png_filter_paeth()
        case .all: fs_png_filter_all()
        }
    }
}
