internal import CFFmpeg
import FrameSeekCore

/// What a picture's samples mean: the YUV matrix and range swscale needs to make RGB, and for
/// HDR the transfer, primaries and peak luminance that tone mapping needs.
///
/// swscale assumes BT.601 limited range unless told, which turns BT.709 HD and BT.2020 phone
/// video green and dull; and an HDR transfer read as SDR gives a grey, flat picture.
struct PictureColor: Sendable, Hashable {
    var matrix: AVColorSpace = AVCOL_SPC_UNSPECIFIED
    var fullRange = false
    var transfer: AVColorTransferCharacteristic = AVCOL_TRC_UNSPECIFIED
    var primaries: AVColorPrimaries = AVCOL_PRI_UNSPECIFIED
    /// The peak to tone-map from, in nits.
    var peakLuminance: Double = 1000

    init() {}

    /// `frame`'s colour; where the frame says nothing, the stream's as its container states it.
    /// The peak is the container's MaxCLL or mastering peak, else the frame's (HEVC SEI),
    /// else 1000 nits: the container's first, so that every frame of a stream maps alike.
    init(_ frame: Frame, stream: ColorDescription?) {
        let f = frame.pointer.pointee
        matrix = f.colorspace
        let format = AVPixelFormat(rawValue: f.format)
        // The yuvj formats are full range by definition, whatever the frame says.
        fullRange = f.color_range == AVCOL_RANGE_JPEG || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P].contains(format)
        transfer = f.color_trc
        primaries = f.color_primaries
        if transfer == AVCOL_TRC_UNSPECIFIED, let name = stream?.transfer, case let value = av_color_transfer_from_name(name), value >= 0 {
            transfer = AVColorTransferCharacteristic(rawValue: UInt32(value))
        }
        if primaries == AVCOL_PRI_UNSPECIFIED, let name = stream?.primaries, case let value = av_color_primaries_from_name(name), value >= 0
        {
            primaries = AVColorPrimaries(rawValue: UInt32(value))
        }
        // An SDR picture's matrix and range stay the frame's alone, as they always were; an
        // HDR one takes the stream's where the frame is silent, and BT.2020 where both are.
        guard isHDR else { return }
        if matrix == AVCOL_SPC_UNSPECIFIED {
            let value = stream?.matrix.map { av_color_space_from_name($0) } ?? -1
            matrix = value >= 0 ? AVColorSpace(rawValue: UInt32(value)) : AVCOL_SPC_BT2020_NCL
        }
        if f.color_range == AVCOL_RANGE_UNSPECIFIED, stream?.range == "pc" { fullRange = true }
        if primaries == AVCOL_PRI_UNSPECIFIED { primaries = AVCOL_PRI_BT2020 }
        let streamPeak =
            stream?.contentLightLevel.map { Double($0.maxContentLightLevel) }.flatMap { $0 > 0 ? $0 : nil }
            ?? stream?.masteringDisplay?.maximumLuminance.flatMap { $0 > 0 ? $0 : nil }
        let frameCLL = Double(fs_frame_max_cll(frame.pointer)), frameMastering = fs_frame_mastering_peak(frame.pointer)
        let framePeak = frameCLL > 0 ? frameCLL : (frameMastering > 0 ? frameMastering : nil)
        peakLuminance = streamPeak ?? framePeak ?? 1000
    }

    /// Whether the transfer is PQ (SMPTE ST 2084) or HLG (ARIB STD-B67).
    var isHDR: Bool { transfer == AVCOL_TRC_SMPTE2084 || transfer == AVCOL_TRC_ARIB_STD_B67 }

    /// Tells swscale the source matrix and range; RGB out is full range.
    ///
    /// - Throws: `FFmpegError` from `sws_setColorspaceDetails`, which refuses only what the
    ///   context cannot do (it returns -1 for YUV to YUV, never asked for here).
    func apply(to context: OpaquePointer, height: Int) throws(FFmpegError) {
        let coefficients: Int32
        switch matrix {
        case AVCOL_SPC_BT709: coefficients = SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: coefficients = SWS_CS_BT2020
        case AVCOL_SPC_SMPTE170M, AVCOL_SPC_BT470BG: coefficients = SWS_CS_ITU601
        case AVCOL_SPC_FCC: coefficients = SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: coefficients = SWS_CS_SMPTE240M
        default: coefficients = height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601  // what players assume
        }
        try check(
            sws_setColorspaceDetails(
                context, sws_getCoefficients(coefficients), fullRange ? 1 : 0,
                sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16),
            "sws_setColorspaceDetails")
    }

    /// Writes this colour into `frame`'s fields, which zscale reads as its input's.
    func tag(_ frame: UnsafeMutablePointer<AVFrame>) {
        frame.pointee.colorspace = matrix
        frame.pointee.color_trc = transfer
        frame.pointee.color_primaries = primaries
        frame.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
    }
}
