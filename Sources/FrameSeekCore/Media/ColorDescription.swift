/// How a video stream's pictures are meant to be shown: the transfer, primaries, matrix and
/// range its parameters state, and for HDR the metadata the container carries beside them.
/// Names are FFmpeg's (`av_color_transfer_name` and its siblings), as ffprobe prints them.
public struct ColorDescription: Sendable, Hashable {
    /// The transfer characteristic (`bt709`, `smpte2084` for PQ, `arib-std-b67` for HLG), nil
    /// when the stream does not say.
    public let transfer: String?
    /// The colour primaries (`bt709`, `bt2020`), nil when unstated.
    public let primaries: String?
    /// The YUV matrix (`bt709`, `bt2020nc`), nil when unstated.
    public let matrix: String?
    /// `tv` (limited) or `pc` (full), nil when unstated.
    public let range: String?
    /// The mastering display (SMPTE ST 2086), from the container.
    public let masteringDisplay: MasteringDisplay?
    /// The content light level (CTA-861.3 MaxCLL and MaxFALL), from the container.
    public let contentLightLevel: ContentLightLevel?
    /// The Dolby Vision configuration record, from the container.
    public let dolbyVision: DolbyVisionConfiguration?

    /// A description from these facts.
    public init(
        transfer: String?, primaries: String?, matrix: String?, range: String?,
        masteringDisplay: MasteringDisplay? = nil, contentLightLevel: ContentLightLevel? = nil,
        dolbyVision: DolbyVisionConfiguration? = nil
    ) {
        self.transfer = transfer
        self.primaries = primaries
        self.matrix = matrix
        self.range = range
        self.masteringDisplay = masteringDisplay
        self.contentLightLevel = contentLightLevel
        self.dolbyVision = dolbyVision
    }

    /// The dynamic range the transfer says; a Dolby Vision stream is the range of its base
    /// layer (profile 8.4, the iPhone's, has an HLG one).
    public var dynamicRange: DynamicRange {
        switch transfer {
        case "smpte2084": .pq
        case "arib-std-b67": .hlg
        default: .sdr
        }
    }

    /// Whether the pictures need tone mapping to look right on an SDR BT.709 display.
    public var isHDR: Bool { dynamicRange != .sdr }

    /// The peak luminance to tone-map from, in nits: MaxCLL, else the mastering display's
    /// maximum, else 1000, the usual mastering peak.
    public var peakLuminance: Double {
        Self.statedPeakLuminance(contentLightLevel: contentLightLevel, masteringDisplay: masteringDisplay) ?? 1000
    }

    /// The peak luminance HDR metadata states, in nits: MaxCLL when above 0, else the mastering
    /// display's maximum when above 0; nil when neither is stated. A stream's metadata and a
    /// frame's side data both carry these two records.
    public static func statedPeakLuminance(contentLightLevel: ContentLightLevel?, masteringDisplay: MasteringDisplay?) -> Double? {
        if let maxCLL = contentLightLevel?.maxContentLightLevel, maxCLL > 0 { return Double(maxCLL) }
        if let maximum = masteringDisplay?.maximumLuminance, maximum > 0 { return maximum }
        return nil
    }
}

/// The dynamic range of a stream's pictures, by their transfer characteristic.
public enum DynamicRange: String, Sendable, Hashable {
    /// Standard dynamic range (BT.709, BT.601, sRGB or unstated transfers).
    case sdr
    /// HDR10 and its kin: SMPTE ST 2084, the perceptual quantizer.
    case pq
    /// Hybrid log-gamma (ARIB STD-B67, BT.2100), as phones record it.
    case hlg
}

/// The display a stream was mastered on (SMPTE ST 2086, `AVMasteringDisplayMetadata`).
public struct MasteringDisplay: Sendable, Hashable {
    /// The CIE 1931 xy chromaticities of the red, green and blue primaries, in that order;
    /// nil when not given.
    public let primaries: [Chromaticity]?
    /// The white point's chromaticity; nil when not given.
    public let whitePoint: Chromaticity?
    /// The display's minimum and maximum luminance in nits; nil when not given.
    public let minimumLuminance: Double?, maximumLuminance: Double?

    /// A mastering display from these facts.
    public init(
        primaries: [Chromaticity]?, whitePoint: Chromaticity?,
        minimumLuminance: Double?, maximumLuminance: Double?
    ) {
        self.primaries = primaries
        self.whitePoint = whitePoint
        self.minimumLuminance = minimumLuminance
        self.maximumLuminance = maximumLuminance
    }
}

/// A CIE 1931 xy chromaticity.
public struct Chromaticity: Sendable, Hashable {
    /// The x and y coordinates.
    public let x: Double, y: Double

    /// A chromaticity at x, y.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A stream's content light level (CTA-861.3, `AVContentLightMetadata`), in nits.
public struct ContentLightLevel: Sendable, Hashable {
    /// MaxCLL: the brightest pixel of the whole stream.
    public let maxContentLightLevel: Int
    /// MaxFALL: the brightest frame's average.
    public let maxFrameAverageLightLevel: Int

    /// A content light level from these facts.
    public init(maxContentLightLevel: Int, maxFrameAverageLightLevel: Int) {
        self.maxContentLightLevel = maxContentLightLevel
        self.maxFrameAverageLightLevel = maxFrameAverageLightLevel
    }
}

/// A Dolby Vision configuration record (`AVDOVIDecoderConfigurationRecord`), as in the `dvcC`
/// or `dvvC` box: profile 8.4, for one, is a Dolby Vision stream whose base layer is HLG.
public struct DolbyVisionConfiguration: Sendable, Hashable {
    /// The profile and level.
    public let profile: Int, level: Int
    /// What the base layer is compatible with (`dv_bl_signal_compatibility_id`: 1 HDR10, 2
    /// SDR, 4 HLG, 0 none).
    public let baseLayerCompatibility: Int
    /// Whether the stream has a reference processing unit, an enhancement layer and a base layer.
    public let hasRPU: Bool, hasEnhancementLayer: Bool, hasBaseLayer: Bool

    /// A configuration from these facts.
    public init(
        profile: Int, level: Int, baseLayerCompatibility: Int, hasRPU: Bool, hasEnhancementLayer: Bool,
        hasBaseLayer: Bool
    ) {
        self.profile = profile
        self.level = level
        self.baseLayerCompatibility = baseLayerCompatibility
        self.hasRPU = hasRPU
        self.hasEnhancementLayer = hasEnhancementLayer
        self.hasBaseLayer = hasBaseLayer
    }

    /// "8.4", as Dolby writes a profile and its base layer's compatibility.
    public var name: String { "\(profile).\(baseLayerCompatibility)" }
}
