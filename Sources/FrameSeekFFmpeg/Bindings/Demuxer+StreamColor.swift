internal import CFFmpeg
import FrameSeekCore

extension Demuxer.Stream {
    /// The transfer characteristic as ffprobe names it (`color_trc`); nil when unspecified.
    var colorTransferName: String? {
        Self.name(of: parameters.color_trc, unless: AVCOL_TRC_UNSPECIFIED, av_color_transfer_name)
    }

    /// The colour primaries as ffprobe names them (`color_primaries`); nil when unspecified.
    var colorPrimariesName: String? {
        Self.name(of: parameters.color_primaries, unless: AVCOL_PRI_UNSPECIFIED, av_color_primaries_name)
    }

    /// The YUV matrix as ffprobe names it (`color_space`); nil when unspecified.
    var colorMatrixName: String? { Self.name(of: parameters.color_space, unless: AVCOL_SPC_UNSPECIFIED, av_color_space_name) }

    /// The sample range as ffprobe names it (`color_range`: `tv`, `pc`); nil when unspecified.
    var colorRangeName: String? { Self.name(of: parameters.color_range, unless: AVCOL_RANGE_UNSPECIFIED, av_color_range_name) }

    /// FFmpeg's name for a colour value, nil for `unspecified` (or a value it has no name for).
    private static func name<Value: Equatable>(
        of value: Value, unless unspecified: Value, _ name: (Value) -> UnsafePointer<CChar>?
    ) -> String? {
        value == unspecified ? nil : name(value).map { String(cString: $0) }
    }

    /// The mastering display the container states as stream side data (`mdcv`, Matroska's
    /// colour elements); nil when none is stated.
    var masteringDisplay: MasteringDisplay? { fs_stream_mastering_display(pointer).map { MasteringDisplay($0.pointee) } }

    /// The content light level the container states as stream side data (`clli`); nil when none.
    var contentLightLevel: ContentLightLevel? { fs_stream_content_light(pointer).map { ContentLightLevel($0.pointee) } }

    /// The Dolby Vision configuration the container states (`dvcC`/`dvvC`); nil when none.
    var dolbyVision: DolbyVisionConfiguration? {
        fs_stream_dovi_configuration(pointer).map { record in
            let r = record.pointee
            return DolbyVisionConfiguration(
                profile: Int(r.dv_profile), level: Int(r.dv_level),
                baseLayerCompatibility: Int(r.dv_bl_signal_compatibility_id),
                hasRPU: r.rpu_present_flag != 0, hasEnhancementLayer: r.el_present_flag != 0,
                hasBaseLayer: r.bl_present_flag != 0)
        }
    }
}

extension MasteringDisplay {
    /// FFmpeg's record as numbers: chromaticities and nits, nil where it has none.
    init(_ m: AVMasteringDisplayMetadata) {
        func value(_ r: AVRational) -> Double { r.den == 0 ? 0 : Double(r.num) / Double(r.den) }
        func point(_ xy: (AVRational, AVRational)) -> Chromaticity { Chromaticity(x: value(xy.0), y: value(xy.1)) }
        let primaries =
            m.has_primaries != 0
            ? [point(m.display_primaries.0), point(m.display_primaries.1), point(m.display_primaries.2)] : nil
        self.init(
            primaries: primaries, whitePoint: m.has_primaries != 0 ? point(m.white_point) : nil,
            minimumLuminance: m.has_luminance != 0 ? value(m.min_luminance) : nil,
            maximumLuminance: m.has_luminance != 0 ? value(m.max_luminance) : nil)
    }
}

extension ContentLightLevel {
    /// FFmpeg's record as whole nits.
    init(_ metadata: AVContentLightMetadata) {
        self.init(maxContentLightLevel: Int(metadata.MaxCLL), maxFrameAverageLightLevel: Int(metadata.MaxFALL))
    }
}
