import FrameSeekCore

extension MediaProbe {
    /// A video stream's colour as its parameters state it (`color_trc`, `color_primaries`,
    /// `color_space`, `color_range`, named as ffprobe names them), with the HDR metadata the
    /// container carries as stream side data: the mastering display (`mdcv`, Matroska's
    /// colour elements), the content light level (`clli`) and a Dolby Vision configuration
    /// (`dvcC`/`dvvC`).
    static func color(of stream: Demuxer.Stream) -> ColorDescription {
        ColorDescription(
            transfer: stream.colorTransferName, primaries: stream.colorPrimariesName, matrix: stream.colorMatrixName,
            range: stream.colorRangeName, masteringDisplay: stream.masteringDisplay,
            contentLightLevel: stream.contentLightLevel, dolbyVision: stream.dolbyVision)
    }
}
