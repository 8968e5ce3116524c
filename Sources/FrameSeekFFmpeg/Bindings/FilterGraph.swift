internal import CFFmpeg
import Glibc

/// libavfilter's functions, opened on first use with dlopen: a process that never tone-maps
/// never loads libavfilter and its dependencies (see the shim's "Filter graphs" section).
final class FilterLibrary: Sendable {
    /// Every slot is set: `fs_avfilter_resolve` succeeds only when it fills them all. The
    /// functions are libavfilter's, valid for the process (the handle is never closed).
    fileprivate let api: fs_avfilter_api

    private init?() {
        guard let handle = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else { return nil }
        var api = fs_avfilter_api()
        guard fs_avfilter_resolve(handle, &api) != 0 else { return nil }
        self.api = api
    }

    /// The library, or nil when it cannot be opened.
    static let shared = FilterLibrary()

    /// The soname of the libavfilter the headers describe, such as `libavfilter.so.8`.
    static var soname: String { "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)" }

    /// Whether the library is there and has the filter `name` (zscale needs an FFmpeg built
    /// with libzimg).
    static func hasFilter(_ name: String) -> Bool {
        guard let library = shared else { return false }
        return library.api.get_by_name(name) != nil
    }
}

/// One libavfilter graph, `buffer` sources → the filters of a description → `buffersink`, for
/// frames of one size and pixel format per source. Made once and run on every frame of that
/// shape: a graph with zscale in it costs milliseconds to configure.
final class FilterGraph {
    /// What one `buffer` source takes.
    struct Source: Hashable {
        let width: Int, height: Int, format: PixelFormat
    }

    private let api: fs_avfilter_api
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let sources: [UnsafeMutablePointer<AVFilterContext>]
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// A graph over `description` (libavfilter's syntax) for `width` x `height` frames in
    /// `format`, its one source and its sink unnamed in the description.
    convenience init(width: Int, height: Int, format: PixelFormat, description: String) throws(FFmpegError) {
        try self.init(sources: [Source(width: width, height: height, format: format)], description: description)
    }

    /// A graph over `description` with one `buffer` per source, named `in0`, `in1`, ... in the
    /// description (a single source may go unnamed), and a sink named `out`; on one thread, so
    /// that a picture is the same whatever the machine.
    ///
    /// - Throws: `FFmpegError` with `AVERROR_FILTER_NOT_FOUND` from `dlopen` when libavfilter
    ///   cannot be opened; from `avfilter_graph_alloc` or `avfilter_inout_alloc` (out of
    ///   memory), `avfilter_graph_create_filter`, `avfilter_graph_parse_ptr` (a filter that does
    ///   not exist or an option it refuses) or `avfilter_graph_config` (formats that cannot be
    ///   linked).
    init(sources shapes: [Source], description: String) throws(FFmpegError) {
        guard let api = FilterLibrary.shared?.api else {
            throw FFmpegError(function: "dlopen(\"\(FilterLibrary.soname)\")", code: FFmpegError.Code.filterNotFound)
        }
        guard let graph = api.graph_alloc() else {
            throw FFmpegError(function: "avfilter_graph_alloc", code: FFmpegError.Code.outOfMemory)
        }
        graph.pointee.nb_threads = 1
        let names = shapes.count == 1 ? ["in"] : shapes.indices.map { "in\($0)" }
        var sources: [UnsafeMutablePointer<AVFilterContext>] = []
        var sink: UnsafeMutablePointer<AVFilterContext>?
        do throws(FFmpegError) {
            for (shape, name) in zip(shapes, names) {
                var source: UnsafeMutablePointer<AVFilterContext>?
                let arguments = "video_size=\(shape.width)x\(shape.height):pix_fmt=\(shape.format.rawValue):time_base=1/1:pixel_aspect=1/1"
                try check(
                    api.graph_create_filter(&source, api.get_by_name("buffer"), name, arguments, nil, graph),
                    "avfilter_graph_create_filter")
                guard let source else { throw FFmpegError(function: "avfilter_graph_create_filter", code: FFmpegError.Code.external) }
                sources.append(source)
            }
            try check(
                api.graph_create_filter(&sink, api.get_by_name("buffersink"), "out", nil, nil, graph),
                "avfilter_graph_create_filter")
            // The parse takes the two lists by address and may free or replace them. The
            // sources' list is chained in order: libavfilter links each by its name.
            var outputs: UnsafeMutablePointer<AVFilterInOut>? = nil
            var inputs = api.inout_alloc()
            defer {
                api.inout_free(&inputs)
                api.inout_free(&outputs)
            }
            for (source, name) in zip(sources, names).reversed() {
                guard let output = api.inout_alloc() else {
                    throw FFmpegError(function: "avfilter_inout_alloc", code: FFmpegError.Code.outOfMemory)
                }
                output.pointee.name = av_strdup(name)
                output.pointee.filter_ctx = source
                output.pointee.next = outputs
                outputs = output
            }
            guard let input = inputs else {
                throw FFmpegError(function: "avfilter_inout_alloc", code: FFmpegError.Code.outOfMemory)
            }
            input.pointee.name = av_strdup("out")
            input.pointee.filter_ctx = sink
            try check(api.graph_parse_ptr(graph, description, &inputs, &outputs, nil), "avfilter_graph_parse_ptr")
        } catch {
            var toFree: UnsafeMutablePointer<AVFilterGraph>? = graph
            api.graph_free(&toFree)
            throw error
        }
        let configured = api.graph_config(graph, nil)
        guard configured >= 0, let sink else {
            var toFree: UnsafeMutablePointer<AVFilterGraph>? = graph
            api.graph_free(&toFree)
            throw FFmpegError(function: "avfilter_graph_config", code: configured < 0 ? configured : FFmpegError.Code.external)
        }
        self.api = api
        self.graph = graph
        self.sources = sources
        self.sink = sink
    }

    deinit { api.graph_free(&graph) }

    /// Runs `frame` through a one-source graph; see `run(_:)` with a frame per source.
    func run(_ frame: Frame) throws(FFmpegError) -> Frame { try run([frame]) }

    /// Runs one frame per source through the graph (the caller keeps them: libavfilter takes a
    /// reference, or a copy of planes that are not reference-counted) and returns the frame
    /// that comes out. `last` ends every source after its frame: a filter that pairs frames
    /// from two sources (`ssim`, `psnr`) may otherwise wait for the next ones.
    ///
    /// - Throws: `FFmpegError` from `av_buffersrc_add_frame_flags` or `av_buffersink_get_frame`
    ///   (`AVERROR(EAGAIN)` if the graph held the frame back, which none of its filters does).
    func run(_ frames: [Frame], last: Bool = false) throws(FFmpegError) -> Frame {
        precondition(frames.count == sources.count, "FilterGraph.run: \(frames.count) frames for \(sources.count) sources")
        for (source, frame) in zip(sources, frames) {
            try check(
                api.buffersrc_add_frame_flags(source, frame.pointer, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)),
                "av_buffersrc_add_frame_flags")
        }
        if last {
            for source in sources {
                try check(api.buffersrc_add_frame_flags(source, nil, 0), "av_buffersrc_add_frame_flags")
            }
        }
        let out = Frame()
        try check(api.buffersink_get_frame(sink, out.pointer), "av_buffersink_get_frame")
        return out
    }
}
