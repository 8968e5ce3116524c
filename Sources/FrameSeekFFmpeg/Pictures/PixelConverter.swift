import CFFmpeg
import FrameSeekCore

/// Converts decoded planes to 8-bit RGB with swscale, keeping its context between calls
/// (`sws_getCachedContext`), since consecutive frames share a size and format.
final class PixelConverter {
    private var context: OpaquePointer?

    deinit { sws_freeContext(context) }

    /// Converts a `width` x `height` picture in `format`, whose planes start at `planes` with
    /// `strides` bytes per row, to RGB at the same size.
    func rgb(planes: [UnsafePointer<UInt8>?], strides: [Int32], format: AVPixelFormat,
             width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let w = Int32(width), h = Int32(height)
        // Bilinear chroma upsampling at the same size: no scaling happens, only the 4:2:0 to
        // 4:4:4 step, where bilinear is what players show.
        context = sws_getCachedContext(context, w, h, format, w, h, AV_PIX_FMT_RGB24,
                                       SWS_BILINEAR | SWS_ACCURATE_RND, nil, nil, nil)
        guard let context else { return RGBImage(width: width, height: height, pixels: pixels) }
        pixels.withUnsafeMutableBufferPointer { buffer in
            var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var destinationStrides: [Int32] = [w * 3, 0, 0, 0]
            _ = sws_scale(context, planes, strides, 0, h, &destination, &destinationStrides)
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Converts a decoded `AVFrame` without copying its planes first.
    func rgb(_ frame: Frame) -> RGBImage {
        let f = frame.pointer.pointee
        let planes = withUnsafeBytes(of: f.data) { raw in
            (0..<4).map { UnsafePointer(raw.load(fromByteOffset: $0 * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                                                  as: UnsafeMutablePointer<UInt8>?.self)) }
        }
        let strides = withUnsafeBytes(of: f.linesize) { raw in
            (0..<4).map { raw.load(fromByteOffset: $0 * MemoryLayout<Int32>.stride, as: Int32.self) }
        }
        return rgb(planes: planes, strides: strides, format: AVPixelFormat(rawValue: f.format),
                   width: Int(f.width), height: Int(f.height))
    }
}

extension FFmpegEngine {
    /// The landed frame as 8-bit RGB in coded orientation, converted straight from the
    /// decoder's buffers. Nil for audio or before any landing.
    public func landedImage() -> RGBImage? {
        guard landedFrameIndex != nil, media.selectedStream.mediaType == .video else { return nil }
        return converter.rgb(landedFrame)
    }
}
