internal import CFFmpeg

/// libavfilter's functions, opened on first use (`fs_avfilter_load`): a process that never
/// tone-maps never loads libavfilter and its dependencies.
final class FilterLibrary: @unchecked Sendable {
    // @unchecked Sendable: `api` is written once, in `init`, before the instance is published
    // through the `shared` global (whose lazy initialisation Swift makes thread-safe), and
    // only read after; the functions it points to are libavfilter's, valid for the process.
    fileprivate let api: UnsafeMutablePointer<fs_avfilter_api>

    private init?() {
        api = .allocate(capacity: 1)
        api.initialize(to: fs_avfilter_api())
        guard fs_avfilter_load(api) != 0 else {
            api.deallocate()
            return nil
        }
    }

    /// The library, or nil when it cannot be opened.
    static let shared = FilterLibrary()

    /// The soname opened, such as `libavfilter.so.8`.
    static var soname: String { String(cString: fs_avfilter_soname()) }

    /// Whether the library is there and has the filter `name` (zscale needs an FFmpeg built
    /// with libzimg).
    static func hasFilter(_ name: String) -> Bool {
        guard let library = shared else { return false }
        return fs_filter_exists(library.api, name) != 0
    }
}

/// One libavfilter graph, `buffer` → the filters of a description → `buffersink`, for frames of
/// one size and pixel format. Made once and run on every frame of that shape: a graph with
/// zscale in it costs milliseconds to configure.
final class FilterGraph {
    private let library: FilterLibrary
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// A graph over `description` (libavfilter's syntax) for `width` x `height` frames in
    /// `format`, on one thread.
    ///
    /// - Throws: `FFmpegError` with `AVERROR_FILTER_NOT_FOUND` from `dlopen` when libavfilter
    ///   cannot be opened; from `avfilter_graph_parse_ptr` (a filter that does not exist or an
    ///   option it refuses) or `avfilter_graph_config` (formats that cannot be linked), through
    ///   `fs_filter_graph_build`.
    init(width: Int, height: Int, format: AVPixelFormat, description: String) throws(FFmpegError) {
        guard let library = FilterLibrary.shared else {
            throw FFmpegError(function: "dlopen(\"\(FilterLibrary.soname)\")", code: fs_averror_filter_not_found())
        }
        var graph: UnsafeMutablePointer<AVFilterGraph>?
        var source: UnsafeMutablePointer<AVFilterContext>?
        var sink: UnsafeMutablePointer<AVFilterContext>?
        let code = fs_filter_graph_build(
            library.api, Int32(clamping: width), Int32(clamping: height), format.rawValue,
            description, &graph, &source, &sink)
        guard code >= 0, let graph, let source, let sink else {
            throw FFmpegError(function: "avfilter_graph_config", code: code < 0 ? code : fs_averror_external())
        }
        self.library = library
        self.graph = graph
        self.source = source
        self.sink = sink
    }

    deinit { fs_filter_graph_free(library.api, &graph) }

    /// Runs `frame` through the graph (the caller keeps it: libavfilter takes a reference, or
    /// a copy of planes that are not reference-counted) and returns the frame that comes out.
    ///
    /// - Throws: `FFmpegError` from `av_buffersrc_add_frame_flags` or `av_buffersink_get_frame`.
    func run(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> Frame {
        let out = Frame()
        try check(fs_filter_graph_run(library.api, source, sink, frame, out.pointer), "av_buffersink_get_frame")
        return out
    }

    /// Whether libavfilter can be opened and has the filter `name`.
    static func hasFilter(_ name: String) -> Bool { FilterLibrary.hasFilter(name) }
}
