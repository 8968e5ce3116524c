import FrameSeekCore

/// A packed RGB24 picture being drawn into, with the few operations the landing-diff picture
/// needs. Every write is clipped to the canvas, so callers can place things without checking.
struct Canvas: Sendable {
    /// An RGB colour.
    typealias Color = (red: UInt8, green: UInt8, blue: UInt8)

    let width: Int
    let height: Int
    var pixels: [UInt8]

    /// A `width` x `height` canvas filled with `color`; the sides must already be bounded so
    /// that `width * height * 3` fits (the caller clamps them).
    init(width: Int, height: Int, color: Color) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        fill(x: 0, y: 0, width: width, height: height, color: color)
    }

    /// Paints the rectangle, cut to the canvas.
    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, color: Color) {
        let (left, right) = (max(0, x), min(width, x + w))
        let (top, bottom) = (max(0, y), min(height, y + h))
        guard left < right, top < bottom else { return }
        let canvasWidth = width
        pixels.withUnsafeMutableBufferPointer { out in
            for row in top..<bottom {
                var i = (row * canvasWidth + left) * 3
                for _ in left..<right {
                    out[i] = color.red
                    out[i + 1] = color.green
                    out[i + 2] = color.blue
                    i += 3
                }
            }
        }
    }

    /// The finished picture.
    var image: RGBImage { RGBImage(width: width, height: height, pixels: pixels) }
}

/// Which source row or column each destination row or column shows when a picture of
/// `source` pixels is drawn over `destination` pixels: nearest neighbour, the identity when
/// the two agree. The product is taken at double width because a source side is bounded
/// only by the memory its picture fits in.
func nearestIndices(destination: Int, source: Int) -> [Int] {
    guard destination != source else { return Array(0..<destination) }
    return (0..<max(0, destination)).map { i in
        destination.dividingFullWidth(i.multipliedFullWidth(by: source)).quotient
    }
}
