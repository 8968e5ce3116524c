internal import CFFmpeg

/// An owned swscale context (`SwsContext`), kept while consecutive pictures share their size,
/// formats and colour, and freed with `sws_freeContext`.
///
/// A context of more than one thread converts horizontal slices of each picture side by side
/// (swscale's slice threads). Every output row is computed as on one thread, from the same
/// input rows with the same filters, so the pixels are the same: `PictureConversionTests`
/// compares both, and ffmpeg's scale filter, byte for byte.
///
/// Not Sendable: one converter uses it, on one thread at a time.
final class ScaleContext {
    /// What a context is made for; a picture that differs in any of it needs a new one.
    private struct Setup: Equatable {
        var width: Int32, height: Int32, format: PixelFormat
        var outputWidth: Int32, outputHeight: Int32, output: PixelFormat
        var flags: Int32
        /// swscale's coefficient table for YUV in (`SWS_CS_*`), nil for RGB in.
        var matrix: Int32?
        /// The range of YUV in; nil for the one swscale takes for the format.
        var fullRange: Bool?
    }

    private let threads: Int
    private var context: OpaquePointer?
    private var setup: Setup?

    /// How samples are interpolated (`SWS_BILINEAR`, `SWS_AREA`), always with accurate rounding
    /// (`SWS_ACCURATE_RND`).
    enum Interpolation: Sendable {
        case bilinear, area
    }

    /// A context that converts each picture on `threads` threads (1: on the caller's alone).
    init(threads: Int = 1) { self.threads = max(1, threads) }

    deinit { sws_freeContext(context) }

    /// Converts a `width` x `height` picture in `format`, whose planes start at `planes` with
    /// `strides` bytes per row, to `output` packed in one plane of `outputWidth` x
    /// `outputHeight` with `bytesPerPixel`. `source` states the matrix and range of YUV in
    /// (nil for RGB in, which has neither); RGB out is full range. A range source does not
    /// state is the one swscale takes for the format when it makes a context: full for gray
    /// and yuvj, limited for other YUV, as ffmpeg's scale filter leaves it.
    ///
    /// - Throws: `FFmpegError` from `sws_init_context` (`AVERROR(EINVAL)`: a format swscale
    ///   cannot convert), `sws_setColorspaceDetails` (which refuses only YUV to YUV, never
    ///   asked for here), or `sws_scale_frame` (out of memory, or a picture it cannot convert);
    ///   `AVERROR(ENOMEM)` for an output larger than one allocation may take
    ///   (`ProcessMemory.checkPictureBlock`).
    func convert(
        planes: [UnsafePointer<UInt8>?], strides: [Int32], format: PixelFormat, width: Int, height: Int,
        to output: PixelFormat, width outputWidth: Int, height outputHeight: Int, bytesPerPixel: Int,
        interpolation: Interpolation, source: (matrix: ColorMatrix, fullRange: Bool?)?
    ) throws(FFmpegError) -> [UInt8] {
        let wanted = Setup(
            width: Int32(width), height: Int32(height), format: format,
            outputWidth: Int32(outputWidth), outputHeight: Int32(outputHeight), output: output,
            flags: (interpolation == .area ? SWS_AREA : SWS_BILINEAR) | SWS_ACCURATE_RND,
            matrix: source.map { Self.coefficients($0.matrix, width: width, height: height) }, fullRange: source?.fullRange)
        try ProcessMemory.checkPictureBlock(
            width: outputWidth, height: outputHeight, bytesPerPixel: bytesPerPixel,
            for: "a \(outputWidth)x\(outputHeight) \(output.name) picture")
        let context = try context(for: wanted)
        let rowBytes = outputWidth * bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: rowBytes * outputHeight)
        var sourcePlanes = (0..<4).map { i in i < planes.count ? UnsafeMutablePointer(mutating: planes[i]) : nil }
        var sourceStrides = (0..<4).map { i in i < strides.count ? strides[i] : 0 }
        let result = pixels.withUnsafeMutableBufferPointer { buffer in
            fs_sws_scale_frame(
                context, &sourcePlanes, &sourceStrides, format.rawValue, Int32(width), Int32(height),
                buffer.baseAddress, Int32(rowBytes), output.rawValue, Int32(outputWidth), Int32(outputHeight))
        }
        try check(result, "sws_scale_frame")
        return pixels
    }

    /// The context for `wanted`: the one kept, or a new one in its place.
    private func context(for wanted: Setup) throws(FFmpegError) -> OpaquePointer {
        if let context, setup == wanted { return context }
        sws_freeContext(context)
        context = nil
        setup = nil
        guard let made = sws_alloc_context() else { throw FFmpegError(function: "sws_alloc_context", code: fs_averror(ENOMEM)) }
        let options: [(String, Int64)] = [
            ("srcw", Int64(wanted.width)), ("srch", Int64(wanted.height)), ("src_format", Int64(wanted.format.rawValue)),
            ("dstw", Int64(wanted.outputWidth)), ("dsth", Int64(wanted.outputHeight)),
            ("dst_format", Int64(wanted.output.rawValue)), ("sws_flags", Int64(wanted.flags)), ("threads", Int64(threads))
        ]
        for (name, value) in options {
            let set = av_opt_set_int(UnsafeMutableRawPointer(made), name, value, 0)
            guard set >= 0 else {
                sws_freeContext(made)
                throw FFmpegError(function: "av_opt_set_int(\(name))", code: set)
            }
        }
        let initialized = sws_init_context(made, nil, nil)
        guard initialized >= 0 else {
            sws_freeContext(made)
            throw FFmpegError(function: "sws_init_context", code: initialized)
        }
        if let matrix = wanted.matrix {
            let fullRange = wanted.fullRange ?? Self.formatRangeIsFull(made)
            let applied = sws_setColorspaceDetails(
                made, sws_getCoefficients(matrix), fullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0,
                1 << 16, 1 << 16)
            guard applied >= 0 else {
                sws_freeContext(made)
                throw FFmpegError(function: "sws_setColorspaceDetails", code: applied)
            }
        }
        context = made
        setup = wanted
        return made
    }

    /// Whether `context`, as made, takes its YUV or gray input as full range
    /// (`sws_getColorspaceDetails`, which only fails for a NULL context).
    private static func formatRangeIsFull(_ context: OpaquePointer) -> Bool {
        var inverseTable: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var sourceRange: Int32 = 0, destinationRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        _ = sws_getColorspaceDetails(
            context, &inverseTable, &sourceRange, &table, &destinationRange, &brightness, &contrast, &saturation)
        return sourceRange != 0
    }

    /// swscale's coefficient table for `matrix`; for one it has none for, what players assume
    /// for a picture `width` by `height`: BT.709 for HD, by its width too, since a widescreen
    /// HD film cropped to 1280x544 or 1920x800 is HD with fewer than 720 rows (mpv's rule:
    /// 1280 columns or more, or more than 576 rows), else BT.601.
    private static func coefficients(_ matrix: ColorMatrix, width: Int, height: Int) -> Int32 {
        switch matrix.av {
        case AVCOL_SPC_BT709: SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
        case AVCOL_SPC_SMPTE170M, AVCOL_SPC_BT470BG: SWS_CS_ITU601
        case AVCOL_SPC_FCC: SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: SWS_CS_SMPTE240M
        default: width >= 1280 || height > 576 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }
}
