import FrameSeekCore

/// The bit depth of the RGB a picture is made in.
enum RGBDepth: Sendable, Hashable {
    /// 8-bit RGB (`rgb24`): every picture by default.
    case eight
    /// 16-bit RGB, big-endian (`rgb48be`): what `--png-depth 16` writes.
    case sixteen

    var pixelFormat: PixelFormat { self == .eight ? .rgb24 : .rgb48BigEndian }
    var bytesPerPixel: Int { self == .eight ? 3 : 6 }
}

/// Converts decoded planes to RGB with swscale, keeping its context between calls
/// (`ScaleContext`), since consecutive frames share a size and format. HDR pictures
/// (PQ, HLG) are tone-mapped first, at full size (`ToneMapper`), unless the mapping is `none`;
/// SDR pictures never are. Each `FFmpegEngine` has one, which converts its landed frames and
/// the pictures handed to it.
final class PixelConverter {
    private let scaler: ScaleContext
    private let toneMapper: ToneMapper

    /// A converter that tone-maps HDR pictures with `toneMapping` and converts each picture on
    /// `threads` threads (`ScaleContext`).
    init(
        toneMapping: ToneMapping = .default, threads: Int = 1,
        filterExists: @escaping (String) -> Bool = FilterLibrary.hasFilter
    ) {
        scaler = ScaleContext(threads: threads)
        toneMapper = ToneMapper(mapping: toneMapping, filterExists: filterExists)
    }

    /// Converts a `width` x `height` picture in `format`, whose planes start at `planes` with
    /// `strides` bytes per row, to 8-bit RGB of `outputWidth` x `outputHeight` (the same size
    /// when nil).
    ///
    /// - Throws: `FFmpegError` as `packedRGB` does.
    func rgb(
        planes: [UnsafePointer<UInt8>?], strides: [Int32], format: PixelFormat,
        width: Int, height: Int, color: PictureColor = PictureColor(),
        outputWidth: Int? = nil, outputHeight: Int? = nil
    ) throws(FFmpegError) -> RGBImage {
        let (w, h, pixels) = try packedRGB(
            planes: planes, strides: strides, format: format, width: width, height: height,
            color: color, outputWidth: outputWidth, outputHeight: outputHeight, depth: .eight)
        return RGBImage(width: w, height: h, pixels: pixels)
    }

    /// The same picture as packed RGB of `depth`: width, height and bytes.
    ///
    /// - Throws: `FFmpegError` from the tone mapping for HDR (`ToneMapper.map`), or from the
    ///   swscale conversion (`scale`).
    func packedRGB(
        planes: [UnsafePointer<UInt8>?], strides: [Int32], format: PixelFormat,
        width: Int, height: Int, color: PictureColor, outputWidth: Int?, outputHeight: Int?,
        depth: RGBDepth
    ) throws(FFmpegError) -> (width: Int, height: Int, pixels: [UInt8]) {
        guard color.isHDR, toneMapper.mapping != .none else {
            return try scale(
                planes: planes, strides: strides, format: format, width: width, height: height, color: color,
                outputWidth: outputWidth, outputHeight: outputHeight, depth: depth)
        }
        try PixelFormat.checkSize(width: width, height: height)
        let frame = Frame(wrapping: planes, strides: strides, format: format, width: width, height: height)
        return try toneMapped(frame, color: color, outputWidth: outputWidth, outputHeight: outputHeight, depth: depth)
    }

    /// Converts a decoded frame without copying its planes first, scaled to
    /// `width` x `height` when given; `stream` fills in the colour the frame does not state.
    ///
    /// - Throws: `FFmpegError` as `packedRGB` does.
    func rgb(
        _ frame: Frame, stream: ColorDescription?, width outputWidth: Int? = nil, height outputHeight: Int? = nil,
        depth: RGBDepth = .eight
    ) throws(FFmpegError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let color = PictureColor(frame, stream: stream)
        guard color.isHDR, toneMapper.mapping != .none else {
            let (planes, strides) = frame.planes
            return try scale(
                planes: planes, strides: strides, format: frame.pixelFormat, width: frame.width, height: frame.height,
                color: color, outputWidth: outputWidth, outputHeight: outputHeight, depth: depth)
        }
        // A reference of its own, since tagging writes the colour fields.
        let reference = Frame()
        try reference.reference(frame)
        return try toneMapped(reference, color: color, outputWidth: outputWidth, outputHeight: outputHeight, depth: depth)
    }

    /// Tone-maps `frame` at its own size, then scales the RGB that comes out when a size is given.
    private func toneMapped(
        _ frame: Frame, color: PictureColor, outputWidth: Int?, outputHeight: Int?, depth: RGBDepth
    ) throws(FFmpegError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let mapped = try toneMapper.map(frame, color: color, depth: depth)
        let (planes, strides) = mapped.planes
        return try scale(
            planes: planes, strides: strides, format: mapped.pixelFormat, width: mapped.width, height: mapped.height,
            color: PictureColor(), outputWidth: outputWidth, outputHeight: outputHeight, depth: depth)
    }

    /// The swscale conversion to packed RGB of `depth`.
    ///
    /// - Throws: `FFmpegError` from `av_image_check_size` (a size FFmpeg refuses for any
    ///   image) or from the conversion (`ScaleContext.convert`).
    private func scale(
        planes: [UnsafePointer<UInt8>?], strides: [Int32], format: PixelFormat, width: Int, height: Int,
        color: PictureColor, outputWidth: Int?, outputHeight: Int?,
        depth: RGBDepth
    ) throws(FFmpegError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let outW = outputWidth ?? width, outH = outputHeight ?? height
        try PixelFormat.checkSize(width: width, height: height)
        try PixelFormat.checkSize(width: outW, height: outH)
        let scaling = outW != width || outH != height
        // Same size: bilinear chroma upsampling, what players show. Smaller: area averaging,
        // which keeps thumbnails free of aliasing at the cost of nothing measurable.
        let pixels = try scaler.convert(
            planes: planes, strides: strides, format: format, width: width, height: height,
            to: depth.pixelFormat, width: outW, height: outH, bytesPerPixel: depth.bytesPerPixel,
            interpolation: scaling ? .area : .bilinear,
            // RGB in (a tone-mapped picture) has no matrix or range to state.
            source: format.isRGB ? nil : (color.matrix, color.fullRange))
        return (outW, outH, pixels)
    }
}
