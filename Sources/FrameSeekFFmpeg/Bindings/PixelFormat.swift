internal import CFFmpeg

/// A pixel format, FFmpeg's `AVPixelFormat` as a Swift value that code outside the bindings
/// can hold, compare and hand back.
struct PixelFormat: Hashable, Sendable {
    /// The `AVPixelFormat` value.
    let rawValue: Int32

    init(_ format: AVPixelFormat) { rawValue = format.rawValue }
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// The value as FFmpeg's functions take it.
    var av: AVPixelFormat { AVPixelFormat(rawValue: rawValue) }

    /// 8-bit packed RGB (`rgb24`).
    static let rgb24 = PixelFormat(AV_PIX_FMT_RGB24)
    /// 16-bit packed RGB, big-endian (`rgb48be`).
    static let rgb48BigEndian = PixelFormat(AV_PIX_FMT_RGB48BE)

    /// FFmpeg's name (`yuv420p`, `yuv420p10le`, ...; `av_get_pix_fmt_name`), nil for a format
    /// it does not know.
    var knownName: String? { av_get_pix_fmt_name(av).map { String(cString: $0) } }
    /// `knownName`, or "unknown".
    var name: String { knownName ?? "unknown" }

    /// Bits per sample of the first component; 8 when FFmpeg does not describe the format.
    var bitsPerComponent: Int { Int(av_pix_fmt_desc_get(av)?.pointee.comp.0.depth ?? 8) }

    /// Whether the format is packed or planar RGB (`AV_PIX_FMT_FLAG_RGB`).
    var isRGB: Bool { (av_pix_fmt_desc_get(av)?.pointee.flags ?? 0) & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 }

    /// Whether the format is one of the yuvj formats, full range by definition.
    var isFullRangeYUV: Bool {
        [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ411P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P].contains(av)
    }

    /// The plane pointers and strides of a `width` x `height` picture in this format whose
    /// planes lie packed from `bytes` on, with no row padding (`av_image_fill_arrays`).
    ///
    /// - Throws: `FFmpegError` from `av_image_fill_arrays` (a format with no planes in memory,
    ///   or an invalid size).
    func planes(packedAt bytes: UnsafePointer<UInt8>?, width: Int, height: Int) throws(FFmpegError) -> PicturePlanes {
        var planes: [UnsafeMutablePointer<UInt8>?] = Array(repeating: nil, count: 4)
        var strides: [Int32] = Array(repeating: 0, count: 4)
        try check(
            av_image_fill_arrays(&planes, &strides, bytes, av, Int32(clamping: width), Int32(clamping: height), 1),
            "av_image_fill_arrays")
        return (planes.map { UnsafePointer($0) }, strides)
    }

    /// Checks a picture size as FFmpeg checks its own images: swscale itself accepts any
    /// positive size, 100000x100000 included, whose RGB would take tens of gigabytes.
    ///
    /// - Throws: `FFmpegError` from `av_image_check_size`.
    static func checkSize(width: Int, height: Int) throws(FFmpegError) {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw FFmpegError(function: "av_image_check_size", code: fs_averror(EINVAL))
        }
        try check(av_image_check_size(UInt32(width), UInt32(height), 0, nil), "av_image_check_size")
    }
}
