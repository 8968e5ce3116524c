import FrameSeekCore

/// How a check draws a mismatch: `compose(expected, landed)` returns the picture written as
/// the diff PNG, both inputs upright as a viewer sees them.
///
/// A seam rather than a direct call, so the renderer can be chosen (tests, the three-panel
/// `LandingDiffPicture` of FrameSeekImages) without the check knowing how pictures are drawn.
public struct LandingDiffRenderer: Sendable {
    /// Draws the expected picture beside the landed one.
    public var compose: @Sendable (RGBImage, RGBImage) -> RGBImage

    /// Wraps a drawing function.
    public init(compose: @escaping @Sendable (RGBImage, RGBImage) -> RGBImage) {
        self.compose = compose
    }

    /// Black between and around the pictures, in pixels: where one picture ends is visible.
    static let gap = 8

    /// The expected picture on the left, the landed one on the right, on black, top-aligned.
    public static let sideBySide = LandingDiffRenderer { expected, landed in
        let width = expected.width + gap + landed.width
        let height = max(expected.height, landed.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for (picture, left) in [(expected, 0), (landed, expected.width + gap)] {
            let row = picture.width * 3
            for y in 0..<picture.height {
                let from = y * row, to = (y * width + left) * 3
                pixels.replaceSubrange(to..<(to + row), with: picture.pixels[from..<(from + row)])
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// A black picture of `width` x `height`: the expected panel when the expected frame is
    /// not in the media any more (a changed file with fewer frames) or cannot be decoded.
    public static func blank(width: Int, height: Int) -> RGBImage {
        RGBImage(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 3))
    }
}
