import FrameSeekCore

/// A decoded video frame in the decoder's own pixel format, planes packed one after another
/// with no row padding: byte for byte what FFmpeg's rawvideo encoder (and so
/// `ffmpeg -f framemd5`) hashes for the frame.
public struct DecodedPicture: Sendable, Hashable {
    /// Coded width in pixels.
    public let width: Int
    /// Coded height in pixels.
    public let height: Int
    /// FFmpeg's name of the pixel format (`yuv420p`, `yuv420p10le`, ...).
    public let pixelFormat: String
    /// Bits per sample of the first component (8, 10, ...).
    public let bitsPerComponent: Int
    /// The frame's raw PTS.
    public let pts: Int64
    /// The planes, packed.
    public let bytes: [UInt8]
    /// The transform that shows the picture upright.
    public let orientation: DisplayOrientation
    let pixelFormatID: PixelFormat
    let color: PictureColor
}

extension DecodedPicture {
    /// Copies `frame`'s planes, packed (`Frame.packedPlanes`); `stream` fills in the colour
    /// the frame does not state.
    ///
    /// - Throws: `FFmpegError` from `av_image_get_buffer_size` (a format with no planes in
    ///   memory, such as a hardware surface, or an invalid size) or `av_image_copy_to_buffer`.
    init(frame: Frame, orientation: DisplayOrientation, stream: ColorDescription?) throws(FFmpegError) {
        let bytes = try frame.packedPlanes()
        let format = frame.pixelFormat
        self.init(
            width: frame.width, height: frame.height, pixelFormat: format.name,
            bitsPerComponent: format.bitsPerComponent, pts: frame.pts ?? 0, bytes: bytes,
            orientation: orientation, pixelFormatID: format, color: PictureColor(frame, stream: stream))
    }

    /// The MD5 of the packed planes in lowercase hex, computed with libavutil's `av_md5_sum`:
    /// the value `ffmpeg -f framemd5` prints for this frame.
    public var md5: String { MD5Digest.hex(of: bytes) }

    /// The picture as 8-bit RGB in coded orientation, converted by `engine`'s swscale context,
    /// which it keeps between calls. Call it where the engine lives.
    ///
    /// 10-bit and full-range sources are converted by swscale's own rules; HDR ones (PQ, HLG)
    /// are tone-mapped first as the engine's `Options.toneMapping` says.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`, naming the engine's file) when the picture
    ///   cannot be converted; never a black or grey picture instead.
    public func rgbImage(using engine: FFmpegEngine) throws(MediaError) -> RGBImage {
        let (width, height, pixels) = try engine.packedRGB(of: self, depth: .eight)
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The picture as 16-bit RGB in coded orientation, as `rgbImage(using:)` makes it 8-bit:
    /// 10- and 12-bit sources keep their precision.
    ///
    /// - Throws: `MediaError` as `rgbImage(using:)` does.
    public func rgb16Image(using engine: FFmpegEngine) throws(MediaError) -> RGB16Image {
        let (width, height, samples) = try engine.packedRGB(of: self, depth: .sixteen)
        return RGB16Image(width: width, height: height, bigEndianSamples: samples)
    }
}
