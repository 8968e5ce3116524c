internal import CFFmpeg
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
    let pixelFormatID: AVPixelFormat
    let color: PictureColor
}

extension DecodedPicture {
    /// Copies `frame`'s planes, packed, with `av_image_copy_to_buffer`; `stream` fills in
    /// the colour the frame does not state.
    ///
    /// - Throws: `FFmpegError` from `av_image_get_buffer_size` (a format with no planes in
    ///   memory, such as a hardware surface, or an invalid size) or `av_image_copy_to_buffer`.
    init(frame: Frame, orientation: DisplayOrientation, stream: ColorDescription?) throws(FFmpegError) {
        let f = frame.pointer.pointee
        let format = AVPixelFormat(rawValue: f.format)
        let size = try check(av_image_get_buffer_size(format, f.width, f.height, 1), "av_image_get_buffer_size")
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let copied = withUnsafePointer(to: frame.pointer.pointee.data) { data in
            withUnsafePointer(to: frame.pointer.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        av_image_copy_to_buffer(&bytes, size, planes, strides, format, f.width, f.height, 1)
                    }
                }
            }
        }
        try check(copied, "av_image_copy_to_buffer")
        let descriptor = av_pix_fmt_desc_get(format)
        self.init(
            width: Int(f.width), height: Int(f.height),
            pixelFormat: av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown",
            bitsPerComponent: Int(descriptor?.pointee.comp.0.depth ?? 8),
            pts: frame.pts ?? 0, bytes: bytes, orientation: orientation, pixelFormatID: format,
            color: PictureColor(frame, stream: stream))
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

extension FFmpegEngine {
    /// The frame the last seek landed on, copied out of the decoder (only when asked: seeks
    /// themselves convert and copy nothing). Nil for audio streams or before any landing.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`, naming the file) when FFmpeg cannot copy
    ///   the frame's planes out, as for a format with no planes in memory.
    public func landedPicture() throws(MediaError) -> DecodedPicture? {
        guard let index = landedFrameIndex, media.selectedStream.mediaType == .video else { return nil }
        do {
            return try DecodedPicture(
                frame: landedFrame, orientation: media.selectedStream.orientation,
                stream: media.selectedStream.color)
        } catch {
            throw MediaError(
                path: path, reason: .conversionFailed,
                detail: "cannot copy frame \(index) out of the decoder: \(error.description)")
        }
    }

    /// Converts `picture` with this engine's converter, to packed RGB of `depth`.
    func packedRGB(of picture: DecodedPicture, depth: RGBDepth) throws(MediaError) -> (width: Int, height: Int, pixels: [UInt8]) {
        var source = picture.bytes
        do {
            return try source.withUnsafeMutableBufferPointer { (buffer) throws(FFmpegError) in
                var planes: [UnsafeMutablePointer<UInt8>?] = Array(repeating: nil, count: 4)
                var strides: [Int32] = Array(repeating: 0, count: 4)
                try check(
                    av_image_fill_arrays(
                        &planes, &strides, buffer.baseAddress, picture.pixelFormatID,
                        Int32(clamping: picture.width), Int32(clamping: picture.height), 1),
                    "av_image_fill_arrays")
                return try FFmpegLog.attributing(to: log) { () throws(FFmpegError) in
                    try converter.packedRGB(
                        planes: planes.map { UnsafePointer($0) }, strides: strides,
                        format: picture.pixelFormatID, width: picture.width, height: picture.height,
                        color: picture.color, outputWidth: nil, outputHeight: nil, depth: depth)
                }
            }
        } catch {
            throw conversionError(error, of: "the picture at pts \(picture.pts)", width: nil, height: nil)
        }
    }
}
