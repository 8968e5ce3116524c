import FrameSeek

extension ColorDescription {
    /// The `color` object of `probe --json`: FFmpeg's names, the dynamic range they make, and
    /// the container's HDR metadata (null where it has none).
    var json: JSONValue {
        .object([
            ("transfer", .string(transfer)), ("primaries", .string(primaries)), ("matrix", .string(matrix)),
            ("range", .string(range)), ("dynamic_range", .string(dynamicRange.rawValue)),
            (
                "mastering_display",
                masteringDisplay.map { m in
                    .object([
                        ("primaries", m.primaries.map { points in .array(points.map(\.json)) } ?? .null),
                        ("white_point", m.whitePoint?.json ?? .null),
                        ("min_luminance", m.minimumLuminance.map { .number($0) } ?? .null),
                        ("max_luminance", m.maximumLuminance.map { .number($0) } ?? .null)
                    ])
                } ?? .null
            ),
            (
                "content_light_level",
                contentLightLevel.map { c in
                    .object([
                        ("max_cll", .integer(Int64(c.maxContentLightLevel))), ("max_fall", .integer(Int64(c.maxFrameAverageLightLevel)))
                    ])
                } ?? .null
            ),
            (
                "dolby_vision",
                dolbyVision.map { d in
                    .object([
                        ("profile", .integer(Int64(d.profile))), ("level", .integer(Int64(d.level))),
                        ("bl_signal_compatibility_id", .integer(Int64(d.baseLayerCompatibility))),
                        ("rpu", .bool(d.hasRPU)), ("el", .bool(d.hasEnhancementLayer)), ("bl", .bool(d.hasBaseLayer))
                    ])
                } ?? .null
            )
        ])
    }

    /// What `probe` adds to an HDR stream's line: " HLG (arib-std-b67, bt2020), Dolby Vision 8.4".
    var probeText: String {
        guard isHDR || dolbyVision != nil else { return "" }
        var text = " \(dynamicRange.rawValue.uppercased()) (\([transfer, primaries].compactMap { $0 }.joined(separator: ", ")))"
        if let maxCLL = contentLightLevel?.maxContentLightLevel { text += ", MaxCLL \(maxCLL) nits" }
        if let peak = masteringDisplay?.maximumLuminance { text += ", mastered at \(Int(peak.rounded())) nits" }
        if let dolbyVision { text += ", Dolby Vision \(dolbyVision.name)" }
        return text
    }
}

extension Chromaticity {
    /// `[x, y]`.
    var json: JSONValue { .array([.number(x), .number(y)]) }
}
