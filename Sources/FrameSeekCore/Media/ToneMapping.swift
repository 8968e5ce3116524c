/// How an HDR picture (PQ or HLG) is brought into SDR BT.709 when FrameSeek makes a picture of
/// it: a PNG, a thumbnail, a sprite sheet, a scrub preview or a landing diff picture.
///
/// Every choice but `none` runs FFmpeg's recipe through libavfilter: zscale to linear light
/// (100 nits as 1.0), BT.2020 primaries to BT.709, FFmpeg's `tonemap` filter with this curve
/// and no desaturation, peaking at the stream's MaxCLL, else its mastering display's peak,
/// else 1000 nits, then the BT.709 transfer at full range. SDR pictures never go through it,
/// and MD5s are always of the decoded planes, so no choice changes an MD5 or a manifest.
public enum ToneMapping: String, Sendable, Hashable, CaseIterable {
    /// John Hable's filmic curve: keeps shadow detail and rolls highlights off smoothly. The
    /// default, as in FFmpeg's usual recipe.
    case hable
    /// Möbius: linear up to a knee, then a smooth roll-off; keeps in-range colours exact.
    case mobius
    /// Reinhard's simple curve, x / (1 + x) scaled to the peak.
    case reinhard
    /// Linear, with everything above the SDR range clipped.
    case clip
    /// No tone mapping: the picture converted with its YUV matrix and range alone, as before
    /// tone mapping existed (an HDR picture then looks grey and flat).
    case none

    /// `hable`.
    public static let `default` = ToneMapping.hable

    /// The mapping named `text` (`hable`, `mobius`, `reinhard`, `clip` or `none`), nil for
    /// anything else.
    public init?(parsing text: String) {
        self.init(rawValue: text.lowercased())
    }
}
