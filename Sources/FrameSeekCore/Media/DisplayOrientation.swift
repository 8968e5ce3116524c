/// How a decoded picture must be turned to appear upright, from the container's display
/// matrix. The eight cases are the symmetries of a rectangle.
///
/// Named as FFmpeg's `transpose` filter names them, because FFmpeg's own autorotation is the
/// behaviour users compare against.
public enum DisplayOrientation: String, Sendable, Hashable {
    /// Show as coded.
    case identity
    /// Turn 90 degrees clockwise (a phone held upright, rotation tag -90 / 270).
    case rotate90Clockwise
    /// Turn 180 degrees.
    case rotate180
    /// Turn 90 degrees counterclockwise (rotation tag 90).
    case rotate90CounterClockwise
    /// Mirror left to right.
    case flipHorizontal
    /// Mirror top to bottom.
    case flipVertical
    /// Mirror along the main diagonal (`transpose=cclock_flip`).
    case transpose
    /// Mirror along the other diagonal (`transpose=clock_flip`).
    case transverse

    /// Whether the displayed picture's width is the coded height.
    public var swapsDimensions: Bool {
        switch self {
        case .rotate90Clockwise, .rotate90CounterClockwise, .transpose, .transverse: return true
        case .identity, .rotate180, .flipHorizontal, .flipVertical: return false
        }
    }

    /// The displayed size of a coded `width` x `height` picture.
    public func displaySize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (height, width) : (width, height)
    }

    /// Maps a displayed pixel (x, y) to the coded pixel that lands there, for a coded picture
    /// of `width` x `height`.
    public func sourcePixel(x: Int, y: Int, codedWidth width: Int, codedHeight height: Int) -> (x: Int, y: Int) {
        switch self {
        case .identity: return (x, y)
        case .rotate90Clockwise: return (y, height - 1 - x)
        case .rotate180: return (width - 1 - x, height - 1 - y)
        case .rotate90CounterClockwise: return (width - 1 - y, x)
        case .flipHorizontal: return (width - 1 - x, y)
        case .flipVertical: return (x, height - 1 - y)
        case .transpose: return (y, x)
        case .transverse: return (width - 1 - y, height - 1 - x)
        }
    }
}
