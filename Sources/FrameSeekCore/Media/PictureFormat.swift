/// The file format of a picture FrameSeek writes: thumbnails, sheets.
public enum PictureFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG through libpng: lossless.
    case png
    /// JPEG through libavcodec's mjpeg encoder: what every streaming player's thumbnail track
    /// expects.
    case jpeg
    /// Lossy WebP through libwebp (via libavcodec).
    case webp

    /// The file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }

    /// The media type, as HLS and DASH name it (`image/jpeg`).
    public var mimeType: String { "image/\(rawValue)" }
}

/// The quality of a lossy picture, 1 (smallest) to 100 (finest), one scale for JPEG and WebP.
public enum PictureQuality {
    /// The default: 85.
    public static let `default` = 85

    /// `quality` held to 1-100.
    public static func clamped(_ quality: Int) -> Int { min(100, max(1, quality)) }

    /// The JPEG quantizer scale for `quality`, as ffmpeg's `-q:v` takes it: 100 is 2 (the
    /// finest mjpeg allows), 1 is 31, linearly between; the default 85 is 6.
    public static func jpegScale(_ quality: Int) -> Int { 2 + (100 - clamped(quality)) * 29 / 99 }
}
