internal import CFFmpeg
import FrameSeekCore

/// The bit depth of the RGB a picture is made in.
enum RGBDepth: Sendable, Hashable {
    /// 8-bit RGB (`rgb24`): every picture by default.
    case eight
    /// 16-bit RGB, big-endian (`rgb48be`): what `--png-depth 16` writes.
    case sixteen

    var pixelFormat: AVPixelFormat { self == .eight ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_RGB48BE }
    var bytesPerPixel: Int { self == .eight ? 3 : 6 }
}

/// Converts decoded planes to RGB with swscale, keeping its context between calls
/// (`sws_getCachedContext`), since consecutive frames share a size and format. HDR pictures
/// (PQ, HLG) are tone-mapped first, at full size (`ToneMapper`), unless the mapping is `none`;
/// SDR pictures never are. Each `FFmpegEngine` has one, which converts its landed frames and
/// the pictures handed to it.
final class PixelConverter {
    private var context: OpaquePointer?
    private let toneMapper: ToneMapper

    /// A converter that tone-maps HDR pictures with `toneMapping`.
    init(toneMapping: ToneMapping = .default, filterExists: @escaping (String) -> Bool = FilterGraph.hasFilter) {
        toneMapper = ToneMapper(mapping: toneMapping, filterExists: filterExists)
    }

    deinit { sws_freeContext(context) }

    /// Converts a `width` x `height` picture in `format`, whose planes start at `planes` with
    /// `strides` bytes per row, to 8-bit RGB of `outputWidth` x `outputHeight` (the same size
    /// when nil).
    ///
    /// - Throws: `FFmpegError` as `packedRGB` does.
    func rgb(
        planes: [UnsafePointer<UInt8>?], strides: [Int32], format: AVPixelFormat,
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
        planes: [UnsafePointer<UInt8>?], strides: [Int32], format: AVPixelFormat,
        width: Int, height: Int, color: PictureColor, outputWidth: Int?, outputHeight: Int?,
        depth: RGBDepth
    ) throws(FFmpegError) -> (width: Int, height: Int, pixels: [UInt8]) {
        guard color.isHDR, toneMapper.mapping != .none else {
            return try scale(
                planes: planes, strides: strides, format: format, width: width, height: height, color: color,
                outputWidth: outputWidth, outputHeight: outputHeight, depth: depth)
        }
        try checkSize(width, height)
        guard let wrapper = av_frame_alloc() else { throw FFmpegError(function: "av_frame_alloc", code: fs_averror(ENOMEM)) }
        var frame: UnsafeMutablePointer<AVFrame>? = wrapper
        defer { av_frame_free(&frame) }
        var planeArray = planes + Array(repeating: nil, count: max(0, 4 - planes.count))
        var strideArray = strides + Array(repeating: 0, count: max(0, 4 - strides.count))
        fs_frame_wrap_planes(wrapper, &planeArray, &strideArray, format, Int32(width), Int32(height))
        return try toneMapped(wrapper, color: color, outputWidth: outputWidth, outputHeight: outputHeight, depth: depth)
    }

    /// Converts a decoded `AVFrame` without copying its planes first, scaled to
    /// `width` x `height` when given; `stream` fills in the colour the frame does not state.
    ///
    /// - Throws: `FFmpegError` as `packedRGB` does.
    func rgb(
        _ frame: Frame, stream: ColorDescription?, width outputWidth: Int? = nil, height outputHeight: Int? = nil,
        depth: RGBDepth = .eight
    ) throws(FFmpegError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let color = PictureColor(frame, stream: stream)
        guard color.isHDR, toneMapper.mapping != .none else {
            let (planes, strides) = Self.planes(of: frame.pointer)
            let f = frame.pointer.pointee
            return try scale(
                planes: planes, strides: strides, format: AVPixelFormat(rawValue: f.format),
                width: Int(f.width), height: Int(f.height), color: color,
                outputWidth: outputWidth, outputHeight: outputHeight, depth: depth)
        }
        // A reference of its own, since tagging writes the colour fields.
        guard let reference = av_frame_clone(frame.pointer) else {
            throw FFmpegError(function: "av_frame_clone", code: fs_averror(ENOMEM))
        }
        var owned: UnsafeMutablePointer<AVFrame>? = reference
        defer { av_frame_free(&owned) }
        return try toneMapped(reference, color: color, outputWidth: outputWidth, outputHeight: outputHeight, depth: depth)
    }

    /// Tone-maps `frame` at its own size, then scales the RGB that comes out when a size is given.
    private func toneMapped(
        _ frame: UnsafeMutablePointer<AVFrame>, color: PictureColor, outputWidth: Int?, outputHeight: Int?,
        depth: RGBDepth
    ) throws(FFmpegError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let mapped = try toneMapper.map(frame, color: color, depth: depth)
        let (planes, strides) = Self.planes(of: mapped.pointer)
        let f = mapped.pointer.pointee
        return try scale(
            planes: planes, strides: strides, format: AVPixelFormat(rawValue: f.format), width: Int(f.width),
            height: Int(f.height), color: PictureColor(), outputWidth: outputWidth, outputHeight: outputHeight,
            depth: depth)
    }

    /// The swscale conversion to packed RGB of `depth`.
    ///
    /// - Throws: `FFmpegError` from `av_image_check_size` (a size FFmpeg refuses for any
    ///   image), `sws_getCachedContext` (`AVERROR(EINVAL)`: a format swscale cannot convert),
    ///   `sws_setColorspaceDetails`, or `sws_scale` (`AVERROR_EXTERNAL` when it converts no rows).
    private func scale(
        planes: [UnsafePointer<UInt8>?], strides: [Int32], format: AVPixelFormat, width: Int, height: Int,
        color: PictureColor, outputWidth: Int?, outputHeight: Int?,
        depth: RGBDepth
    ) throws(FFmpegError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let outW = outputWidth ?? width, outH = outputHeight ?? height
        try checkSize(width, height)
        try checkSize(outW, outH)
        let scaling = outW != width || outH != height
        // Same size: bilinear chroma upsampling, what players show. Smaller: area averaging,
        // which keeps thumbnails free of aliasing at the cost of nothing measurable.
        let flags = (scaling ? SWS_AREA : SWS_BILINEAR) | SWS_ACCURATE_RND
        // On failure the old context is freed too, so the NULL is kept.
        context = sws_getCachedContext(
            context, Int32(width), Int32(height), format, Int32(outW), Int32(outH),
            depth.pixelFormat, flags, nil, nil, nil)
        guard let context else { throw FFmpegError(function: "sws_getCachedContext", code: fs_averror(EINVAL)) }
        // RGB in (a tone-mapped picture) has no matrix or range to state.
        if fs_pixel_format_is_rgb(format) == 0 { try color.apply(to: context, height: height) }
        let rowBytes = outW * depth.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: rowBytes * outH)
        let rows = pixels.withUnsafeMutableBufferPointer { buffer in
            var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var destinationStrides: [Int32] = [Int32(rowBytes), 0, 0, 0]
            return sws_scale(context, planes, strides, 0, Int32(height), &destination, &destinationStrides)
        }
        // sws_scale returns the rows it wrote: a negative AVERROR, or 0 when it failed without one.
        guard rows > 0 else { throw FFmpegError(function: "sws_scale", code: rows < 0 ? rows : fs_averror_external()) }
        return (outW, outH, pixels)
    }

    /// swscale itself accepts any positive size, 100000x100000 included, and the RGB buffer
    /// would then be tens of gigabytes: sizes are checked as FFmpeg checks its own images.
    private func checkSize(_ w: Int, _ h: Int) throws(FFmpegError) {
        guard w > 0, h > 0, w <= Int(Int32.max), h <= Int(Int32.max) else {
            throw FFmpegError(function: "av_image_check_size", code: fs_averror(EINVAL))
        }
        try check(av_image_check_size(UInt32(w), UInt32(h), 0, nil), "av_image_check_size")
    }

    /// A frame's four plane pointers and strides.
    private static func planes(of frame: UnsafeMutablePointer<AVFrame>) -> (planes: [UnsafePointer<UInt8>?], strides: [Int32]) {
        let f = frame.pointee
        let planes = withUnsafeBytes(of: f.data) { raw in
            (0..<4).map {
                UnsafePointer(
                    raw.load(
                        fromByteOffset: $0 * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                        as: UnsafeMutablePointer<UInt8>?.self))
            }
        }
        let strides = withUnsafeBytes(of: f.linesize) { raw in
            (0..<4).map { raw.load(fromByteOffset: $0 * MemoryLayout<Int32>.stride, as: Int32.self) }
        }
        return (planes, strides)
    }
}

extension FFmpegEngine {
    /// The landed frame as 8-bit RGB in coded orientation, converted straight from the
    /// decoder's buffers by the engine's converter (HDR tone-mapped as `Options.toneMapping`
    /// says). Nil for audio or before any landing.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`, naming the file) when the frame cannot be
    ///   converted; never a black or grey picture instead.
    public func landedImage() throws(MediaError) -> RGBImage? {
        try landedRGB(width: nil, height: nil)
    }

    /// The landed frame converted by the engine's converter, scaled when a size is given.
    func landedRGB(width: Int?, height: Int?) throws(MediaError) -> RGBImage? {
        guard let index = landedFrameIndex, media.selectedStream.mediaType == .video else { return nil }
        do {
            let (w, h, pixels) = try FFmpegLog.attributing(to: log) { () throws(FFmpegError) in
                try converter.rgb(landedFrame, stream: media.selectedStream.color, width: width, height: height)
            }
            return RGBImage(width: w, height: h, pixels: pixels)
        } catch {
            throw conversionError(error, of: "frame \(index)", width: width, height: height)
        }
    }

    /// A `MediaError` naming the file, for a failed conversion of `what`.
    func conversionError(_ error: FFmpegError, of what: String, width: Int?, height: Int?) -> MediaError {
        let size = width.flatMap { w in height.map { h in " to \(w)x\(h)" } } ?? ""
        if error.code == fs_averror_filter_not_found() {
            return MediaError(
                path: path, reason: .conversionFailed,
                detail: "cannot tone-map \(what), an HDR picture, to SDR: \(error.function) found no filter "
                    + "(\(FilterLibrary.soname) missing, or FFmpeg built without libzimg); "
                    + "--tonemap none converts it without tone mapping")
        }
        return MediaError(
            path: path, reason: .conversionFailed,
            detail: "cannot convert \(what) to RGB\(size): \(error.function): \(log.message(for: error))")
    }
}
