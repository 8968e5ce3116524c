import CFFmpeg
import FrameSeekCore

/// Converts decoded planes to 8-bit RGB with swscale, keeping its context between calls
/// (`sws_getCachedContext`), since consecutive frames share a size and format.
final class PixelConverter {
    private var context: OpaquePointer?

    deinit { sws_freeContext(context) }

    /// Converts a `width` x `height` picture in `format`, whose planes start at `planes` with
    /// `strides` bytes per row, to RGB of `outputWidth` x `outputHeight` (the same size when nil).
    func rgb(planes: [UnsafePointer<UInt8>?], strides: [Int32], format: AVPixelFormat,
             width: Int, height: Int, color: ColorDescription = ColorDescription(),
             outputWidth: Int? = nil, outputHeight: Int? = nil) -> RGBImage {
        let outW = outputWidth ?? width, outH = outputHeight ?? height
        var pixels = [UInt8](repeating: 0, count: outW * outH * 3)
        let scaling = outW != width || outH != height
        // Same size: bilinear chroma upsampling, what players show. Smaller: area averaging,
        // which keeps thumbnails free of aliasing at the cost of nothing measurable.
        let flags = (scaling ? SWS_AREA : SWS_BILINEAR) | SWS_ACCURATE_RND
        context = sws_getCachedContext(context, Int32(width), Int32(height), format, Int32(outW), Int32(outH),
                                       AV_PIX_FMT_RGB24, flags, nil, nil, nil)
        guard let context else { return RGBImage(width: outW, height: outH, pixels: pixels) }
        color.apply(to: context, height: height)
        pixels.withUnsafeMutableBufferPointer { buffer in
            var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var destinationStrides: [Int32] = [Int32(outW * 3), 0, 0, 0]
            _ = sws_scale(context, planes, strides, 0, Int32(height), &destination, &destinationStrides)
        }
        return RGBImage(width: outW, height: outH, pixels: pixels)
    }

    /// Converts a decoded `AVFrame` without copying its planes first, scaled to
    /// `width` x `height` when given.
    func rgb(_ frame: Frame, width outputWidth: Int? = nil, height outputHeight: Int? = nil) -> RGBImage {
        let f = frame.pointer.pointee
        let planes = withUnsafeBytes(of: f.data) { raw in
            (0..<4).map { UnsafePointer(raw.load(fromByteOffset: $0 * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                                                  as: UnsafeMutablePointer<UInt8>?.self)) }
        }
        let strides = withUnsafeBytes(of: f.linesize) { raw in
            (0..<4).map { raw.load(fromByteOffset: $0 * MemoryLayout<Int32>.stride, as: Int32.self) }
        }
        return rgb(planes: planes, strides: strides, format: AVPixelFormat(rawValue: f.format),
                   width: Int(f.width), height: Int(f.height), color: ColorDescription(frame),
                   outputWidth: outputWidth, outputHeight: outputHeight)
    }
}

/// The YUV matrix and range a frame was encoded with, so RGB comes out with the colours the
/// encoder meant: swscale assumes BT.601 limited range unless told, which turns BT.709 HD and
/// BT.2020 phone video green and dull. (HDR transfer functions are not tone-mapped.)
struct ColorDescription: Sendable, Hashable {
    var space: AVColorSpace = AVCOL_SPC_UNSPECIFIED
    var fullRange = false

    init() {}

    init(_ frame: Frame) {
        space = frame.pointer.pointee.colorspace
        let format = AVPixelFormat(rawValue: frame.pointer.pointee.format)
        // The yuvj formats are full range by definition, whatever the frame says.
        fullRange = frame.pointer.pointee.color_range == AVCOL_RANGE_JPEG
            || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P].contains(format)
    }

    /// Tells swscale the source matrix and range; RGB out is full range.
    func apply(to context: OpaquePointer, height: Int) {
        let matrix: Int32
        switch space {
        case AVCOL_SPC_BT709: matrix = SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = SWS_CS_BT2020
        case AVCOL_SPC_SMPTE170M, AVCOL_SPC_BT470BG: matrix = SWS_CS_ITU601
        case AVCOL_SPC_FCC: matrix = SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: matrix = SWS_CS_SMPTE240M
        default: matrix = height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601  // what players assume
        }
        _ = sws_setColorspaceDetails(context, sws_getCoefficients(matrix), fullRange ? 1 : 0,
                                     sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
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
