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
        let size = orientation.displaySize(width: width, height: height)
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { destination in
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        let from = orientation.sourcePixel(x: x, y: y, codedWidth: width, codedHeight: height)
                        let s = (from.y * width + from.x) * 3
                        let d = (y * size.width + x) * 3
                        destination[d] = source[s]
                        destination[d + 1] = source[s + 1]
                        destination[d + 2] = source[s + 2]
                    }
                }
            }
        }
        return RGBImage(width: size.width, height: size.height, pixels: out)
    }
}
