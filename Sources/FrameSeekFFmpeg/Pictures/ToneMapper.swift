import FrameSeekCore

/// FFmpeg's tone-mapping recipe as a libavfilter graph, kept between pictures of one shape:
///
///     zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,
///     tonemap=tonemap=hable:desat=0:peak=P,zscale=t=bt709:m=bt709:r=pc,format=rgb24
///
/// Linear light with 1.0 at 100 nits, BT.2020 primaries to BT.709, the curve in floating point,
/// then the BT.709 transfer at full range; zscale reads the input's transfer, primaries,
/// matrix and range from the frame (`PictureColor.tag`). The graph runs at the picture's full
/// size: a thumbnail is scaled after it, since averaging PQ or HLG code values before the
/// curve darkens edges and costs about 18 dB.
final class ToneMapper {
    /// The curve.
    let mapping: ToneMapping
    /// Whether a filter is there; tests stand in a libavfilter without zscale.
    private let filterExists: (String) -> Bool
    private var graph: FilterGraph?
    private var graphShape: Shape?

    /// What a graph is made for: the input's size and format and the filters' text.
    private struct Shape: Hashable {
        let width: Int, height: Int, format: PixelFormat, description: String
    }

    /// A mapper with `mapping`'s curve.
    init(mapping: ToneMapping, filterExists: @escaping (String) -> Bool = FilterLibrary.hasFilter) {
        self.mapping = mapping
        self.filterExists = filterExists
    }

    /// The filters between the source and the sink, for a peak of `peakLuminance` nits and
    /// RGB of `depth` out.
    static func filters(mapping: ToneMapping, peakLuminance: Double, depth: RGBDepth) -> String {
        // tonemap's peak is in units of the 100-nit reference white; a peak outside what any
        // display masters for (a damaged or absurd MaxCLL) is held to 100-10,000 nits.
        let peak = min(10_000, max(100, peakLuminance)) / 100
        return "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,"
            + "tonemap=tonemap=\(mapping.rawValue):desat=0:peak=\(peak),"
            + "zscale=t=bt709:m=bt709:r=pc,format=\(depth == .eight ? "rgb24" : "rgb48be")"
    }

    /// `frame` tone-mapped to full-range BT.709 RGB of `depth`, at its own size; `color` is
    /// written into the frame's colour fields first.
    ///
    /// - Throws: `FFmpegError` with `AVERROR_FILTER_NOT_FOUND` from `avfilter_get_by_name`
    ///   when this libavfilter has no zscale (FFmpeg built without libzimg) or no tonemap;
    ///   otherwise as `FilterGraph.init` and `FilterGraph.run` throw.
    func map(_ frame: Frame, color: PictureColor, depth: RGBDepth) throws(FFmpegError) -> Frame {
        color.tag(frame)
        let shape = Shape(
            width: frame.width, height: frame.height, format: frame.pixelFormat,
            description: Self.filters(mapping: mapping, peakLuminance: color.peakLuminance, depth: depth))
        if shape != graphShape {
            graph = nil
            graphShape = nil
            // Looked up when a graph is made, not for every picture a made graph runs.
            for name in ["zscale", "tonemap"] where !filterExists(name) {
                throw FFmpegError(function: "avfilter_get_by_name(\"\(name)\")", code: FFmpegError.Code.filterNotFound)
            }
            graph = try FilterGraph(
                width: shape.width, height: shape.height, format: shape.format,
                description: shape.description)
            graphShape = shape
        }
        guard let graph else { preconditionFailure("a tone-mapping graph was just made") }
        return try graph.run(frame)
    }
}
