import Dispatch
import FrameSeekCore
import FrameSeekFFmpeg

/// A picture for a time, and the time of the frame it really shows.
public struct Thumbnail: Sendable, Hashable {
    /// The time asked for.
    public let requestedTime: MediaTime
    /// The presentation time of the frame used (AVAssetImageGenerator's "actual time").
    public let actualTime: MediaTime
    /// That frame's index in presentation order; nil when it landed in a seek window, without
    /// the whole stream's table (`FrameIndexing.asNeeded`).
    public let frameIndex: Int?
    /// True when the picture came from decoding one keyframe alone.
    public let fromKeyframeOnly: Bool
    /// The picture, upright and in the display aspect, fitted in the maximum size.
    public let image: RGBImage
    /// Errors reported on the way to the frame (`SeekLanding.decodeErrors`); above 0 the
    /// picture may differ from a clean decode.
    public var decodeErrors = 0
}

/// Seek-preview pictures from a decoder of its own, so the playhead never moves.
///
/// For each requested time it lands by the landing rules with the tolerance given (by default
/// unbounded both ways: the nearest keyframe, as AVAssetImageGenerator does). When a keyframe
/// is in the window, only that keyframe's packet is read and decoded, and one swscale call
/// takes it from the decoder's pixel format to the thumbnail size. With zero tolerance it
/// decodes the exact frame. The display matrix (rotations and flips) and the sample aspect
/// ratio are honoured, so a portrait phone clip gives portrait thumbnails and an anamorphic
/// one the right shape.
///
/// Not Sendable: it owns an FFmpeg engine. Keep it on one executor.
public final class ThumbnailGenerator {
    /// The engine that decodes for the generator alone.
    package let engine: FFmpegEngine
    /// The largest picture to return; the display aspect is kept inside this box.
    public var maximumSize: (width: Int, height: Int) = (160, 90)
    /// How far before the requested time the frame may be.
    public var toleranceBefore: MediaTime = .positiveInfinity
    /// How far after the requested time the frame may be.
    public var toleranceAfter: MediaTime = .positiveInfinity
    /// Whether more decoders may open the same media (`thumbnails(at:decoders:progress:)`):
    /// not for an engine handed in, which is the only one.
    let opensHelpers: Bool
    /// How many frames the other decoders made in the last `forEachThumbnail` run: what shows
    /// that they really took part.
    package internal(set) var framesMadeByOtherDecoders = 0
    /// Whether the calling thread decodes too while other decoders run (it does: it would only
    /// wait otherwise). Tests turn it off so that the other decoders make every frame.
    package var callerDecodes = true
    /// The other decoders, each a generator of its own on a queue of its own, opened from
    /// this engine's index when first needed and kept until this generator goes.
    var helpers: [QueueConfined<ThumbnailGenerator?>] = []
    /// Whether `helpers` were opened from the whole table (sharing it) or in seek windows (the
    /// media opened again): they land only jobs of that kind.
    var helpersShareWholeTable = false

    /// Opens `path` with an engine of its own, to land at `precision` (by default the nearest
    /// keyframe, however far). The other decoders that `thumbnails(at:decoders:progress:)`
    /// uses open when first needed, each on a queue of its own, with this engine's index: a
    /// demuxer and a decoder each, not another scan of the file.
    ///
    /// With `prefetchingKeyframes`, unless `precision` is exact, the engine decodes keyframes
    /// on a second core while it scans the file (`FFmpegEngine.Options.prefetchesKeyframes`),
    /// and the thumbnails that land on one of them take it from there: a run of thumbnails
    /// made right after opening no longer leaves a core idle during the scan. Off by default:
    /// the frames not taken stay held (at most 64 MiB) as long as the generator.
    public init(
        path: String, options: FFmpegEngine.Options = FFmpegEngine.Options(),
        precision: SeekPrecision = .tolerance(before: .positiveInfinity, after: .positiveInfinity),
        prefetchingKeyframes: Bool = false
    ) throws(MediaError) {
        var options = options
        options.prefetchesKeyframes = options.prefetchesKeyframes || (prefetchingKeyframes && precision != .exact)
        engine = try FFmpegEngine(path: path, options: options)
        opensHelpers = true
        (toleranceBefore, toleranceAfter) = precision.window
        let stream = engine.media.selectedStream
        guard stream.mediaType == .video else {
            let detail =
                options.streamIndex == nil
                ? "no video stream to make thumbnails from"
                : "stream \(stream.index) is \(stream.mediaType.rawValue); thumbnails need a video stream"
            throw MediaError(path: path, reason: .noPlayableStream, cause: detail)
        }
        try planOnWholeTableUnlessKeyframesAreListed()
    }

    /// Makes thumbnails with `engine`, which must be the generator's alone from then on (the
    /// fuzzer and its regression tests open bytes from memory this way).
    ///
    /// - Throws: `MediaError` `.noPlayableStream` when the engine's stream is not video.
    package init(engine: FFmpegEngine) throws(MediaError) {
        guard engine.media.selectedStream.mediaType == .video else {
            throw MediaError(path: engine.media.path, reason: .noPlayableStream, cause: "no video stream to make thumbnails from")
        }
        self.engine = engine
        opensHelpers = false
    }

    deinit { closeHelpers() }

    /// Closes each other decoder's engine on its own queue, and before this returns, so no
    /// file stays open after the generator, or after helpers opened for another way of landing.
    func closeHelpers() {
        for helper in helpers {
            let closed = DispatchSemaphore(value: 0)
            helper.schedule { generator in
                generator = nil
                closed.signal()
            }
            closed.wait()
        }
        helpers = []
    }

    /// Called before each landing is decided, as the precision may have changed since the open.
    /// Opened as needed, thumbnails land in seek windows only where the container's index
    /// lists the keyframes (Matroska's Cues) and the precision reaches a keyframe however far
    /// (one side unbounded, as the default): each then reads one keyframe. Elsewhere a window
    /// per thumbnail would read and decode up to a GOP each, more than the whole table costs (a
    /// fragmented MP4's boxes) or than one pass over the file (MPEG-TS), so it is built.
    func planOnWholeTableUnlessKeyframesAreListed() throws(MediaError) {
        guard !engine.indexesWholeStream else { return }
        let reachesAnyKeyframe = toleranceBefore == .positiveInfinity || toleranceAfter == .positiveInfinity
        if !reachesAnyKeyframe || !engine.landsOnListedKeyframes { try engine.completeFrameTable() }
    }

    /// The span of the stream's frames on the timeline, what a set of thumbnails covers: the
    /// whole table's, or in seek windows from zero to where the last frame ends (a window
    /// read at the end: the last GOP, where a truncated file shows). Nil without frames.
    ///
    /// - Throws: `MediaError` as a seek to the end does.
    package func framesRange() throws(MediaError) -> Range<MediaTime>? {
        let end = try engine.framesEnd()
        if engine.indexesWholeStream { return engine.frameTable.seekableRange }
        return end.flatMap { $0 > .zero ? .zero..<$0 : nil }
    }

    /// The tolerance as a seek precision.
    public var precision: SeekPrecision {
        get { .tolerance(before: toleranceBefore, after: toleranceAfter) }
        set { (toleranceBefore, toleranceAfter) = newValue.window }
    }

    /// The size every thumbnail of this stream has: the display size (sample aspect ratio and
    /// display matrix applied) fitted in `maximumSize`.
    public var thumbnailSize: (width: Int, height: Int) {
        let stream = engine.media.selectedStream
        // A hostile header's zero or negative size, or zero aspect ratio, must not make the
        // scale infinite or NaN: Int(_:) traps on either.
        let coded = (width: Double(max(1, stream.width ?? 1)), height: Double(max(1, stream.height ?? 1)))
        var displayWidth = coded.width
        if let sar = stream.sampleAspectRatio, sar.numerator > 0, sar.denominator > 0 {
            displayWidth = coded.width * Double(sar.numerator) / Double(sar.denominator)
        }
        var display = (width: displayWidth, height: coded.height)
        if stream.orientation.swapsDimensions { display = (display.height, display.width) }
        let scale = min(Double(maximumSize.width) / display.width, Double(maximumSize.height) / display.height)
        func fitted(_ side: Double, _ limit: Int) -> Int {
            let scaled = (side * scale).rounded()
            return scaled.isFinite ? max(1, min(limit, Int(scaled))) : limit
        }
        return (fitted(display.width, maximumSize.width), fitted(display.height, maximumSize.height))
    }

    /// The thumbnail for `time`.
    public func thumbnail(at time: MediaTime) throws(MediaError) -> Thumbnail {
        try thumbnail(for: job(at: time), inForwardPass: false)
    }

    /// The thumbnail for `time` while the engine plans in seek windows: on `listedKeyframe`
    /// when the container's index chose it (`FFmpegEngine.listedKeyframe(for:precision:)`),
    /// reading that keyframe alone, else as a seek at the generator's precision lands.
    func thumbnailInWindow(at time: MediaTime, listedKeyframe: Int64?) throws(MediaError) -> Thumbnail {
        let landing: SeekLanding
        if let listedKeyframe {
            landing = try engine.landOnListedKeyframe(listedKeyframe, for: time, precision: precision)
        } else {
            landing = try engine.landInWindow(at: time, precision: precision)
        }
        return Thumbnail(
            requestedTime: time, actualTime: landing.frame.time, frameIndex: landing.isIndexed ? landing.frame.index : nil,
            fromKeyframeOnly: landing.plan.landedOnKeyframeInWindow, image: try picture(),
            decodeErrors: landing.decodeErrors)
    }

    /// Thumbnails for many times in one pass in time order (the demuxer only ever seeks
    /// forward), returned in the order asked. Times that land on the same frame share its
    /// picture. One decoder: `thumbnails(at:decoders:progress:)` uses more.
    public func thumbnails(at times: [MediaTime], progress: ((Int, Int) -> Void)? = nil) throws(MediaError) -> [Thumbnail] {
        try thumbnails(at: times, decoders: 1, progress: progress)
    }

    /// The landing plan for `time` at the generator's precision: made once per thumbnail, and
    /// passed on to `thumbnail(for:)`.
    func plan(at time: MediaTime) throws(MediaError) -> LandingPlan {
        try engine.plan(at: time, precision: precision)
    }

    /// The thumbnail `plan` lands on. A keyframe inside the window is decoded from its own
    /// packet alone; any other frame is decoded as an exact seek decodes it, or, in a pass in
    /// time order (`inForwardPass`), as a batch landing: no frame on the way is cached, so
    /// every non-reference frame between two thumbnails is skipped.
    func thumbnail(for plan: LandingPlan, inForwardPass: Bool = false) throws(MediaError) -> Thumbnail {
        let keyframeOnly = plan.landedOnKeyframeInWindow
        let landing = try engine.land(plan, mode: keyframeOnly ? .keyframeOnly : inForwardPass ? .forwardPass : .decode)
        return Thumbnail(
            requestedTime: plan.requested, actualTime: landing.frame.time, frameIndex: landing.frame.index,
            fromKeyframeOnly: keyframeOnly, image: try picture(), decodeErrors: landing.decodeErrors)
    }

    /// The landed frame scaled to the thumbnail size in one swscale call, then turned upright.
    private func picture() throws(MediaError) -> RGBImage {
        let size = thumbnailSize
        let orientation = engine.media.selectedStream.orientation
        let coded = orientation.swapsDimensions ? (size.height, size.width) : (size.width, size.height)
        guard let image = try engine.landedImage(width: coded.0, height: coded.1) else {
            throw MediaError(path: engine.media.path, reason: .decodeFailed, cause: "no frame landed to make a thumbnail of")
        }
        return image.oriented(orientation)
    }
}
