internal import CFFmpeg
import FrameSeekCore

extension MediaProbe {
    /// A video stream's colour as its parameters state it (`color_trc`, `color_primaries`,
    /// `color_space`, `color_range`, named as ffprobe names them), with the HDR metadata the
    /// container carries as stream side data: the mastering display (`mdcv`, Matroska's
    /// colour elements), the content light level (`clli`) and a Dolby Vision configuration
    /// (`dvcC`/`dvvC`).
    static func color(of stream: UnsafeMutablePointer<AVStream>) -> ColorDescription {
        let parameters = stream.pointee.codecpar.pointee
        func named(_ name: UnsafePointer<CChar>?, unspecified: Bool) -> String? {
            unspecified ? nil : name.map { String(cString: $0) }
        }
        return ColorDescription(
            transfer: named(av_color_transfer_name(parameters.color_trc), unspecified: parameters.color_trc == AVCOL_TRC_UNSPECIFIED),
            primaries: named(
                av_color_primaries_name(parameters.color_primaries),
                unspecified: parameters.color_primaries == AVCOL_PRI_UNSPECIFIED),
            matrix: named(av_color_space_name(parameters.color_space), unspecified: parameters.color_space == AVCOL_SPC_UNSPECIFIED),
            range: named(av_color_range_name(parameters.color_range), unspecified: parameters.color_range == AVCOL_RANGE_UNSPECIFIED),
            masteringDisplay: fs_stream_mastering_display(stream).map { masteringDisplay($0.pointee) },
            contentLightLevel: fs_stream_content_light(stream).map {
                ContentLightLevel(maxContentLightLevel: Int($0.pointee.MaxCLL), maxFrameAverageLightLevel: Int($0.pointee.MaxFALL))
            },
            dolbyVision: fs_stream_dovi_configuration(stream).map { record in
                let r = record.pointee
                return DolbyVisionConfiguration(
                    profile: Int(r.dv_profile), level: Int(r.dv_level),
                    baseLayerCompatibility: Int(r.dv_bl_signal_compatibility_id),
                    hasRPU: r.rpu_present_flag != 0, hasEnhancementLayer: r.el_present_flag != 0,
                    hasBaseLayer: r.bl_present_flag != 0)
            })
    }

    /// `AVMasteringDisplayMetadata` in FrameSeek's terms: chromaticities and nits as numbers.
    static func masteringDisplay(_ m: AVMasteringDisplayMetadata) -> MasteringDisplay {
        func value(_ r: AVRational) -> Double { r.den == 0 ? 0 : Double(r.num) / Double(r.den) }
        func point(_ xy: (AVRational, AVRational)) -> Chromaticity { Chromaticity(x: value(xy.0), y: value(xy.1)) }
        let primaries =
            m.has_primaries != 0
            ? [point(m.display_primaries.0), point(m.display_primaries.1), point(m.display_primaries.2)] : nil
        return MasteringDisplay(
            primaries: primaries, whitePoint: m.has_primaries != 0 ? point(m.white_point) : nil,
            minimumLuminance: m.has_luminance != 0 ? value(m.min_luminance) : nil,
            maximumLuminance: m.has_luminance != 0 ? value(m.max_luminance) : nil)
    }
}
