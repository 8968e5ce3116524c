import CFFmpeg
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
    let color: ColorDescription
}

extension DecodedPicture {
    /// Copies `frame`'s planes, packed, with `av_image_copy_to_buffer`.
    init(frame: Frame, orientation: DisplayOrientation) {
        let f = frame.pointer.pointee
        let format = AVPixelFormat(rawValue: f.format)
        let size = av_image_get_buffer_size(format, f.width, f.height, 1)
        var bytes = [UInt8](repeating: 0, count: Int(max(size, 0)))
        withUnsafePointer(to: frame.pointer.pointee.data) { data in
            withUnsafePointer(to: frame.pointer.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        _ = av_image_copy_to_buffer(&bytes, size, planes, strides, format, f.width, f.height, 1)
                    }
                }
            }
        }
        let descriptor = av_pix_fmt_desc_get(format)
        self.init(width: Int(f.width), height: Int(f.height),
                  pixelFormat: av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown",
                  bitsPerComponent: Int(descriptor?.pointee.comp.0.depth ?? 8),
                  pts: frame.pts ?? 0, bytes: bytes, orientation: orientation, pixelFormatID: format,
                  color: ColorDescription(frame))
    }

    /// The MD5 of the packed planes in lowercase hex, computed with libavutil's `av_md5_sum`:
    /// the value `ffmpeg -f framemd5` prints for this frame.
    public var md5: String {
        var digest = [UInt8](repeating: 0, count: 16)
        bytes.withUnsafeBufferPointer { buffer in
            av_md5_sum(&digest, buffer.baseAddress, Int(buffer.count))
        }
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The picture as 8-bit RGB in coded orientation, converted by swscale.
    ///
    /// 10-bit and full-range sources are converted by swscale's own rules.
    public func rgbImage() -> RGBImage {
        var source = bytes
        return source.withUnsafeMutableBufferPointer { buffer in
            var planes: [UnsafeMutablePointer<UInt8>?] = Array(repeating: nil, count: 4)
            var strides: [Int32] = Array(repeating: 0, count: 4)
            _ = av_image_fill_arrays(&planes, &strides, buffer.baseAddress, pixelFormatID, Int32(width), Int32(height), 1)
            return PixelConverter().rgb(planes: planes.map { UnsafePointer($0) }, strides: strides,
                                        format: pixelFormatID, width: width, height: height, color: color)
        }
    }
}

extension FFmpegEngine {
    /// The frame the last seek landed on, copied out of the decoder (only when asked: seeks
    /// themselves convert and copy nothing). Nil for audio streams or before any landing.
    public func landedPicture() -> DecodedPicture? {
        guard landedFrameIndex != nil, media.selectedStream.mediaType == .video else { return nil }
        return DecodedPicture(frame: landedFrame, orientation: media.selectedStream.orientation)
    }
}
