internal import CFFmpeg

/// An owned swscale context (`SwsContext`), kept between conversions with
/// `sws_getCachedContext` and freed with `sws_freeContext`.
///
/// Not Sendable: one converter uses it, on one thread at a time.
final class ScaleContext {
    private var context: OpaquePointer?

    /// How samples are interpolated (`SWS_BILINEAR`, `SWS_AREA`), always with accurate rounding
    /// (`SWS_ACCURATE_RND`).
    enum Interpolation: Sendable {
        case bilinear, area
    }

    init() {}

    deinit { sws_freeContext(context) }

    /// Converts a `width` x `height` picture in `format`, whose planes start at `planes` with
    /// `strides` bytes per row, to `output` packed in one plane of `outputWidth` x
    /// `outputHeight` with `bytesPerPixel`. `source` states the matrix and range of YUV in
    /// (nil for RGB in, which has neither); RGB out is full range.
    ///
    /// - Throws: `FFmpegError` from `sws_getCachedContext` (`AVERROR(EINVAL)`: a format swscale
    ///   cannot convert), `sws_setColorspaceDetails` (which refuses only YUV to YUV, never
    ///   asked for here), or `sws_scale` (`AVERROR_EXTERNAL` when it converts no rows).
    func convert(
        planes: [UnsafePointer<UInt8>?], strides: [Int32], format: PixelFormat, width: Int, height: Int,
        to output: PixelFormat, width outputWidth: Int, height outputHeight: Int, bytesPerPixel: Int,
        interpolation: Interpolation, source: (matrix: ColorMatrix, fullRange: Bool)?
    ) throws(FFmpegError) -> [UInt8] {
        let flags = (interpolation == .area ? SWS_AREA : SWS_BILINEAR) | SWS_ACCURATE_RND
        // On failure the old context is freed too, so the NULL is kept.
        context = sws_getCachedContext(
            context, Int32(width), Int32(height), format.av, Int32(outputWidth), Int32(outputHeight),
            output.av, flags, nil, nil, nil)
        guard let context else { throw FFmpegError(function: "sws_getCachedContext", code: fs_averror(EINVAL)) }
        if let source {
            try check(
                sws_setColorspaceDetails(
                    context, sws_getCoefficients(Self.coefficients(source.matrix, height: height)), source.fullRange ? 1 : 0,
                    sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16),
                "sws_setColorspaceDetails")
        }
        let rowBytes = outputWidth * bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: rowBytes * outputHeight)
        let rows = pixels.withUnsafeMutableBufferPointer { buffer in
            var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var destinationStrides: [Int32] = [Int32(rowBytes), 0, 0, 0]
            return sws_scale(context, planes, strides, 0, Int32(height), &destination, &destinationStrides)
        }
        // sws_scale returns the rows it wrote: a negative AVERROR, or 0 when it failed without one.
        guard rows > 0 else { throw FFmpegError(function: "sws_scale", code: rows < 0 ? rows : fs_averror_external()) }
        return pixels
    }

    /// swscale's coefficient table for `matrix`; for one it has none for, what players assume
    /// for a picture `height` rows tall.
    private static func coefficients(_ matrix: ColorMatrix, height: Int) -> Int32 {
        switch matrix.av {
        case AVCOL_SPC_BT709: SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
        case AVCOL_SPC_SMPTE170M, AVCOL_SPC_BT470BG: SWS_CS_ITU601
        case AVCOL_SPC_FCC: SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: SWS_CS_SMPTE240M
        default: height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }
}
