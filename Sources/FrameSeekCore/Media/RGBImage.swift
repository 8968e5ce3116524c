/// An 8-bit RGB picture, rows top to bottom, 3 bytes a pixel, no padding.
public struct RGBImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes.
    public let pixels: [UInt8]

    /// Wraps `pixels`, which must hold `width * height * 3` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGBImage: \(pixels.count) bytes for \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The same picture turned as `orientation` says, so it appears upright.
    public func oriented(_ orientation: DisplayOrientation) -> RGBImage {
        if orientation == .identity { return self }
        let (size, out) = orientation.reorient(pixels, width: width, height: height, bytesPerPixel: 3)
        return RGBImage(width: size.width, height: size.height, pixels: out)
    }
}

/// A picture as 16-bit RGB, for PNGs that keep the precision of 10- and 12-bit sources
/// (`--png-depth 16`).
public struct RGB16Image: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` samples of two bytes each, most significant byte first: PNG's
    /// byte order, so the rows go to libpng as they are.
    public let bigEndianSamples: [UInt8]

    /// Wraps `bigEndianSamples`, which must hold `width * height * 6` bytes.
    public init(width: Int, height: Int, bigEndianSamples: [UInt8]) {
        precondition(
            bigEndianSamples.count == width * height * 6,
            "RGB16Image: \(bigEndianSamples.count) bytes for \(width)x\(height)")
        self.width = width
        self.height = height
        self.bigEndianSamples = bigEndianSamples
    }

    /// Component `channel` (0 red, 1 green, 2 blue) of the pixel at (`x`, `y`).
    public func sample(x: Int, y: Int, channel: Int) -> UInt16 {
        let at = ((y * width + x) * 3 + channel) * 2
        return UInt16(bigEndianSamples[at]) << 8 | UInt16(bigEndianSamples[at + 1])
    }

    /// The same picture turned as `orientation` says, so it appears upright.
    public func oriented(_ orientation: DisplayOrientation) -> RGB16Image {
        if orientation == .identity { return self }
        let (size, out) = orientation.reorient(bigEndianSamples, width: width, height: height, bytesPerPixel: 6)
        return RGB16Image(width: size.width, height: size.height, bigEndianSamples: out)
    }
}

extension DisplayOrientation {
    /// Packed pixels of `bytesPerPixel` bytes each, `width` x `height`, moved so the picture
    /// appears upright, with the upright size.
    func reorient(
        _ pixels: [UInt8], width: Int, height: Int,
        bytesPerPixel: Int
    ) -> (size: (width: Int, height: Int), pixels: [UInt8]) {
        let size = displaySize(width: width, height: height)
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { destination in
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        let from = sourcePixel(x: x, y: y, codedWidth: width, codedHeight: height)
                        let s = (from.y * width + from.x) * bytesPerPixel
                        let d = (y * size.width + x) * bytesPerPixel
                        for byte in 0..<bytesPerPixel { destination[d + byte] = source[s + byte] }
                    }
                }
            }
        }
        return (size, out)
    }
}
