import FrameSeekCore

/// What a picture's samples mean: the YUV matrix and range swscale needs to make RGB, and for
/// HDR the transfer, primaries and peak luminance that tone mapping needs.
///
/// swscale assumes BT.601 limited range unless told, which turns BT.709 HD and BT.2020 phone
/// video green and dull; and an HDR transfer read as SDR gives a grey, flat picture.
struct PictureColor: Sendable, Hashable {
    var matrix = ColorMatrix.unspecified
    /// Whether the samples are full range; nil where the frame does not say, for swscale's own
    /// range for the format (full for gray and yuvj, limited for other YUV; `ScaleContext`).
    var fullRange: Bool?
    var transfer = ColorTransfer.unspecified
    var primaries = ColorPrimaries.unspecified
    /// The peak to tone-map from, in nits.
    var peakLuminance: Double = 1000

    init() {}

    /// `frame`'s colour; where the frame says nothing, the stream's as its container states it.
    /// The peak is the container's MaxCLL or mastering peak, else the frame's (HEVC SEI),
    /// else 1000 nits: the container's first, so that every frame of a stream maps alike.
    init(_ frame: Frame, stream: ColorDescription?) {
        matrix = frame.colorMatrix
        // The yuvj formats are full range by definition, whatever the frame says.
        fullRange = frame.pixelFormat.isFullRangeYUV ? true : frame.isFullRange
        transfer = frame.colorTransfer
        primaries = frame.colorPrimaries
        if transfer == .unspecified, let value = stream?.transfer.flatMap(ColorTransfer.init(named:)) { transfer = value }
        if primaries == .unspecified, let value = stream?.primaries.flatMap(ColorPrimaries.init(named:)) { primaries = value }
        // An SDR picture's matrix and range stay the frame's alone, as they always were; an
        // HDR one takes the stream's where the frame is silent, and BT.2020 where both are.
        guard isHDR else { return }
        if matrix == .unspecified { matrix = stream?.matrix.flatMap(ColorMatrix.init(named:)) ?? .bt2020NonConstant }
        if fullRange == nil, stream?.range == "pc" { fullRange = true }
        if primaries == .unspecified { primaries = .bt2020 }
        let streamPeak = stream.flatMap {
            ColorDescription.statedPeakLuminance(contentLightLevel: $0.contentLightLevel, masteringDisplay: $0.masteringDisplay)
        }
        let framePeak = ColorDescription.statedPeakLuminance(
            contentLightLevel: frame.contentLightLevel, masteringDisplay: frame.masteringDisplay)
        peakLuminance = streamPeak ?? framePeak ?? 1000
    }

    /// Whether the transfer is PQ (SMPTE ST 2084) or HLG (ARIB STD-B67).
    var isHDR: Bool { transfer == .perceptualQuantizer || transfer == .hybridLogGamma }

    /// Writes this colour into `frame`'s fields, which zscale reads as its input's.
    func tag(_ frame: Frame) {
        frame.colorMatrix = matrix
        frame.colorTransfer = transfer
        frame.colorPrimaries = primaries
        frame.isFullRange = fullRange
    }
}
