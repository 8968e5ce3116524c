internal import CFFmpeg

/// One of FFmpeg's colour enums as a Swift value, so code outside the bindings can decide what
/// a picture's colour is. The raw values are FFmpeg's, which are ITU-T H.273's code points.
protocol ColorCode: RawRepresentable<UInt32>, Hashable, Sendable {
    /// FFmpeg's value for `name`, negative for a name it does not know (`av_color_*_from_name`).
    static func ffmpegValue(named name: String) -> Int32
}

extension ColorCode {
    /// The value FFmpeg names `name` (`bt709`, `smpte2084`, ...), as containers state it; nil
    /// for a name it does not know.
    init?(named name: String) {
        let value = Self.ffmpegValue(named: name)
        guard value >= 0 else { return nil }
        self.init(rawValue: UInt32(value))
    }
}

/// The YUV matrix (`AVColorSpace`).
struct ColorMatrix: ColorCode {
    let rawValue: UInt32
    /// The value as FFmpeg's functions and `AVFrame` take it.
    var av: AVColorSpace { AVColorSpace(rawValue: rawValue) }
    static func ffmpegValue(named name: String) -> Int32 { av_color_space_from_name(name) }

    static let unspecified = ColorMatrix(rawValue: AVCOL_SPC_UNSPECIFIED.rawValue)
    static let bt2020NonConstant = ColorMatrix(rawValue: AVCOL_SPC_BT2020_NCL.rawValue)
}

/// The transfer characteristic (`AVColorTransferCharacteristic`).
struct ColorTransfer: ColorCode {
    let rawValue: UInt32
    /// The value as FFmpeg's functions and `AVFrame` take it.
    var av: AVColorTransferCharacteristic { AVColorTransferCharacteristic(rawValue: rawValue) }
    static func ffmpegValue(named name: String) -> Int32 { av_color_transfer_from_name(name) }

    static let unspecified = ColorTransfer(rawValue: AVCOL_TRC_UNSPECIFIED.rawValue)
    /// PQ, SMPTE ST 2084.
    static let perceptualQuantizer = ColorTransfer(rawValue: AVCOL_TRC_SMPTE2084.rawValue)
    /// HLG, ARIB STD-B67.
    static let hybridLogGamma = ColorTransfer(rawValue: AVCOL_TRC_ARIB_STD_B67.rawValue)
}

/// The colour primaries (`AVColorPrimaries`).
struct ColorPrimaries: ColorCode {
    let rawValue: UInt32
    /// The value as FFmpeg's functions and `AVFrame` take it.
    var av: AVColorPrimaries { AVColorPrimaries(rawValue: rawValue) }
    static func ffmpegValue(named name: String) -> Int32 { av_color_primaries_from_name(name) }

    static let unspecified = ColorPrimaries(rawValue: AVCOL_PRI_UNSPECIFIED.rawValue)
    static let bt2020 = ColorPrimaries(rawValue: AVCOL_PRI_BT2020.rawValue)
}
