internal import CFFmpeg
import FrameSeekCore

/// Converts decoded planes to 8-bit RGB with swscale, keeping its context between calls
/// (`sws_getCachedContext`), since consecutive frames share a size and format. Each
/// `FFmpegEngine` has one, which converts its landed frames and the pictures handed to it.
final class PixelConverter {
    private var context: OpaquePointer?

    deinit { sws_freeContext(context) }

    /// Converts a `width` x `height` picture in `format`, whose planes start at `planes` with
    /// `strides` bytes per row, to RGB of `outputWidth` x `outputHeight` (the same size when nil).
    ///
    /// - Throws: `FFmpegError` from `av_image_check_size` (a size FFmpeg refuses for any
    ///   image), `sws_getCachedContext` (`AVERROR(EINVAL)`: a format swscale cannot convert),
    ///   `sws_setColorspaceDetails`, or `sws_scale` (`AVERROR_EXTERNAL` when it converts no rows).
    func rgb(planes: [UnsafePointer<UInt8>?], strides: [Int32], format: AVPixelFormat,
             width: Int, height: Int, color: YUVMatrixAndRange = YUVMatrixAndRange(),
             outputWidth: Int? = nil, outputHeight: Int? = nil) throws(FFmpegError) -> RGBImage {
        let outW = outputWidth ?? width, outH = outputHeight ?? height
        // swscale itself accepts any positive size, 100000x100000 included, and the RGB buffer
        // would then be tens of gigabytes: sizes are checked as FFmpeg checks its own images.
        for (w, h) in [(width, height), (outW, outH)] {
            guard w > 0, h > 0, w <= Int(Int32.max), h <= Int(Int32.max) else {
                throw FFmpegError(function: "av_image_check_size", code: fs_averror(EINVAL))
            }
            try check(av_image_check_size(UInt32(w), UInt32(h), 0, nil), "av_image_check_size")
        }
        let scaling = outW != width || outH != height
        // Same size: bilinear chroma upsampling, what players show. Smaller: area averaging,
        // which keeps thumbnails free of aliasing at the cost of nothing measurable.
        let flags = (scaling ? SWS_AREA : SWS_BILINEAR) | SWS_ACCURATE_RND
        // On failure the old context is freed too, so the NULL is kept.
        context = sws_getCachedContext(context, Int32(width), Int32(height), format, Int32(outW), Int32(outH),
                                       AV_PIX_FMT_RGB24, flags, nil, nil, nil)
        guard let context else { throw FFmpegError(function: "sws_getCachedContext", code: fs_averror(EINVAL)) }
        try color.apply(to: context, height: height)
        var pixels = [UInt8](repeating: 0, count: outW * outH * 3)
        let rows = pixels.withUnsafeMutableBufferPointer { buffer in
            var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var destinationStrides: [Int32] = [Int32(outW * 3), 0, 0, 0]
            return sws_scale(context, planes, strides, 0, Int32(height), &destination, &destinationStrides)
        }
        // sws_scale returns the rows it wrote: a negative AVERROR, or 0 when it failed without one.
        guard rows > 0 else { throw FFmpegError(function: "sws_scale", code: rows < 0 ? rows : fs_averror_external()) }
        return RGBImage(width: outW, height: outH, pixels: pixels)
    }

    /// Converts a decoded `AVFrame` without copying its planes first, scaled to
    /// `width` x `height` when given.
    ///
    /// - Throws: `FFmpegError` as `rgb(planes:...)` does.
    func rgb(_ frame: Frame, width outputWidth: Int? = nil, height outputHeight: Int? = nil) throws(FFmpegError) -> RGBImage {
        let f = frame.pointer.pointee
        let planes = withUnsafeBytes(of: f.data) { raw in
            (0..<4).map { UnsafePointer(raw.load(fromByteOffset: $0 * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                                                  as: UnsafeMutablePointer<UInt8>?.self)) }
        }
        let strides = withUnsafeBytes(of: f.linesize) { raw in
            (0..<4).map { raw.load(fromByteOffset: $0 * MemoryLayout<Int32>.stride, as: Int32.self) }
        }
        return try rgb(planes: planes, strides: strides, format: AVPixelFormat(rawValue: f.format),
                       width: Int(f.width), height: Int(f.height), color: YUVMatrixAndRange(frame),
                       outputWidth: outputWidth, outputHeight: outputHeight)
    }
}

/// The YUV matrix and range a frame was encoded with, so RGB comes out with the colours the
/// encoder meant: swscale assumes BT.601 limited range unless told, which turns BT.709 HD and
/// BT.2020 phone video green and dull. (HDR transfer functions are not tone-mapped.)
struct YUVMatrixAndRange: Sendable, Hashable {
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
    ///
    /// - Throws: `FFmpegError` from `sws_setColorspaceDetails`, which refuses only what the
    ///   context cannot do (it returns -1 for YUV to YUV, never asked for here).
    func apply(to context: OpaquePointer, height: Int) throws(FFmpegError) {
        let matrix: Int32
        switch space {
        case AVCOL_SPC_BT709: matrix = SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = SWS_CS_BT2020
        case AVCOL_SPC_SMPTE170M, AVCOL_SPC_BT470BG: matrix = SWS_CS_ITU601
        case AVCOL_SPC_FCC: matrix = SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: matrix = SWS_CS_SMPTE240M
        default: matrix = height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601  // what players assume
        }
        try check(sws_setColorspaceDetails(context, sws_getCoefficients(matrix), fullRange ? 1 : 0,
                                           sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16),
                  "sws_setColorspaceDetails")
    }
}

extension FFmpegEngine {
    /// The landed frame as 8-bit RGB in coded orientation, converted straight from the
    /// decoder's buffers by the engine's swscale context. Nil for audio or before any landing.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`, naming the file) when swscale cannot
    ///   convert the frame; never a black picture instead.
    public func landedImage() throws(MediaError) -> RGBImage? {
        try landedRGB(width: nil, height: nil)
    }

    /// The landed frame converted by the engine's converter, scaled when a size is given.
    func landedRGB(width: Int?, height: Int?) throws(MediaError) -> RGBImage? {
        guard let index = landedFrameIndex, media.selectedStream.mediaType == .video else { return nil }
        do {
            return try FFmpegLog.attributing(to: log) { () throws(FFmpegError) -> RGBImage in
                try converter.rgb(landedFrame, width: width, height: height)
            }
        } catch {
            throw conversionError(error, of: "frame \(index)", width: width, height: height)
        }
    }

    /// A `MediaError` naming the file, for a failed conversion of `what`.
    func conversionError(_ error: FFmpegError, of what: String, width: Int?, height: Int?) -> MediaError {
        let size = width.flatMap { w in height.map { h in " to \(w)x\(h)" } } ?? ""
        return MediaError(path: path, reason: .conversionFailed,
                          detail: "cannot convert \(what) to RGB\(size): \(error.function): \(log.message(for: error))")
    }
}
