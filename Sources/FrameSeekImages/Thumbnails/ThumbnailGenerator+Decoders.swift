import Foundation
import FrameSeekCore
import FrameSeekFFmpeg

extension ThumbnailGenerator {
    /// The decoders `thumbnails` uses by default: one per core, at most two. Keyframe-only
    /// thumbnails are independent (one seek and one packet each), so a second decoder nearly
    /// halves the time on two cores; beyond the cores it only adds an open and a frame cache.
    public static var defaultDecoders: Int { max(1, min(2, ProcessInfo.processInfo.activeProcessorCount)) }
    /// The most decoders one generator uses.
    public static let maximumDecoders = 16

    /// Thumbnails for many times, returned in the order asked, made by up to `decoders`
    /// decoders at once. The generator's own engine decodes on the calling thread; each other
    /// decoder is a generator of its own for the same media and options, on a queue of its own
    /// (opened there by `init(path:options:decoders:)` or by the first run that needs it, and
    /// closed there when this generator goes), and takes the next frame to make, so each
    /// decoder's demuxer only ever seeks forward.
    /// The pictures are the ones one decoder makes: every frame is landed by the same plan and
    /// decodes to the same pixels on any decoder. Times that land on the same frame share its
    /// picture. `progress` is called on the calling thread with (done, total).
    public func thumbnails(
        at times: [MediaTime], decoders: Int,
        progress: ((Int, Int) -> Void)? = nil
    ) throws(MediaError) -> [Thumbnail] {
        let order = times.indices.sorted { times[$0] < times[$1] }
        var results = [Thumbnail?](repeating: nil, count: times.count)
        var next = 0
        do {
            try forEachThumbnail(at: order.map { times[$0] }, decoders: decoders, progress: progress) { thumbnail in
                results[order[next]] = thumbnail
                next += 1
            }
        } catch let error as MediaError {
            throw error
        } catch {
            // `deliver` above never throws, so every error is the generator's.
            throw MediaError(path: engine.media.path, reason: .decodeFailed, cause: "\(error)")
        }
        return results.compactMap { $0 }
    }

    /// Makes the thumbnails for `times`, which must be in time order, on up to `decoders`
    /// decoders, and hands each to `deliver` on the calling thread, in time order, as soon as it
    /// and every one before it are made: a caller can write pictures while decoding goes on.
    ///
    /// - Throws: the first `MediaError` in time order, after delivering every thumbnail before
    ///   it; or what `deliver` throws, which stops the decoders. Either way every other decoder
    ///   has stopped and been closed when this returns.
    public func forEachThumbnail(
        at times: [MediaTime], decoders: Int = ThumbnailGenerator.defaultDecoders,
        progress: ((Int, Int) -> Void)? = nil,
        _ deliver: (Thumbnail) throws -> Void
    ) throws {
        var jobs: [ThumbnailJob] = []
        var planFailure: MediaError?
        for time in times {
            let job: ThumbnailJob
            do { job = try self.job(at: time) } catch { planFailure = error; break }
            if let last = jobs.last, let frame = job.frame, last.frame == frame {
                jobs[jobs.count - 1].alsoServes.append(time)
            } else {
                jobs.append(job)
            }
        }
        // In seek windows the last job is this decoder's: the window it read at the end of the
        // stream for the set's span (`framesRange()`) holds the last keyframe, which a helper
        // would read again, and FFmpeg's Matroska seek reads on to the end for it.
        let board = ThumbnailBoard(jobs: jobs, lastJobForCaller: !engine.indexesWholeStream)
        defer { framesMadeByOtherDecoders = board.stopAndWaitForHelpers() }
        // In seek windows another decoder opens the media again (its own Cues and windows);
        // media in memory has no path to open, and stays on this decoder.
        let opening = engine.indexesWholeStream ? nil : engine.opening
        if opensHelpers, jobs.count > 1, engine.indexesWholeStream || opening != nil {
            let wanted = min(decoders, jobs.count, Self.maximumDecoders) - 1
            let open: @Sendable () throws(MediaError) -> FFmpegEngine
            if let opening {
                open = { () throws(MediaError) in try FFmpegEngine(opening) }
            } else {
                let blueprint = engine.blueprint
                open = { () throws(MediaError) in try FFmpegEngine(sharingIndexOf: blueprint) }
            }
            // Helpers land one kind of job: those opened for the other are closed.
            if helpersShareWholeTable != engine.indexesWholeStream { closeHelpers() }
            helpersShareWholeTable = engine.indexesWholeStream
            while helpers.count < wanted { helpers.append(Self.openHelper(helpers.count + 1, open)) }
            let (size, precision) = (maximumSize, precision)
            for helper in helpers.prefix(max(0, wanted)) {
                board.start(helper) { generator, job in
                    generator.maximumSize = size
                    generator.precision = precision
                    return Result { () throws(MediaError) in try generator.thumbnail(for: job) }
                }
            }
        }
        var done = 0
        for index in jobs.indices {
            let thumbnail = try board.result(of: index, callerDecodes: callerDecodes) { _, job in
                Result { () throws(MediaError) in try self.thumbnail(for: job) }
            }.get()
            for time in [jobs[index].requested] + jobs[index].alsoServes {
                try deliver(time == thumbnail.requestedTime ? thumbnail : thumbnail.shown(for: time))
                done += 1
                progress?(done, times.count)
            }
        }
        if let planFailure { throw planFailure }
    }

    /// The job for the thumbnail at `time`: its landing planned on the whole table, or, while
    /// the engine plans in seek windows, the keyframe the container's index chose for it, if any.
    func job(at time: MediaTime) throws(MediaError) -> ThumbnailJob {
        try planOnWholeTableUnlessKeyframesAreListed()
        guard engine.indexesWholeStream else {
            return ThumbnailJob(landing: .inWindow(time, listedKeyframe: try engine.listedKeyframe(for: time, precision: precision)))
        }
        return ThumbnailJob(landing: .planned(try plan(at: time)))
    }

    /// The thumbnail `job` asks for; on the whole table, landed as a pass in time order lands
    /// it unless `inForwardPass` is false (`thumbnail(for:inForwardPass:)`).
    func thumbnail(for job: ThumbnailJob, inForwardPass: Bool = true) throws(MediaError) -> Thumbnail {
        switch job.landing {
        case .planned(let plan): return try thumbnail(for: plan, inForwardPass: inForwardPass)
        case .inWindow(let time, let keyframe): return try thumbnailInWindow(at: time, listedKeyframe: keyframe)
        }
    }

    /// Decoder `number`: a generator opened on a queue of its own, where it stays, with the
    /// engine `open` makes there: one sharing the first engine's index (its blueprint), or, in
    /// seek windows, the media opened again. It is nil there when the media cannot be opened
    /// again (removed since): the other decoders then do its share.
    static func openHelper(
        _ number: Int, _ open: @escaping @Sendable () throws(MediaError) -> FFmpegEngine
    ) -> QueueConfined<ThumbnailGenerator?> {
        let helper = QueueConfined<ThumbnailGenerator?>(nil, label: "frameseek.thumbnails.decoder-\(number + 1)")
        helper.schedule { generator in
            generator = (try? open()).flatMap { try? ThumbnailGenerator(engine: $0) }
        }
        return helper
    }
}

extension Thumbnail {
    /// This thumbnail's picture and frame, for another requested time that lands on it.
    func shown(for time: MediaTime) -> Thumbnail {
        Thumbnail(
            requestedTime: time, actualTime: actualTime, frameIndex: frameIndex, fromKeyframeOnly: fromKeyframeOnly,
            image: image, decodeErrors: decodeErrors)
    }
}

/// One frame to make a thumbnail of, decided once, and the later times that land on it too.
struct ThumbnailJob: Sendable {
    /// How the frame is found.
    enum Landing: Sendable {
        /// Planned on the whole table, for the first time that lands on this frame.
        case planned(LandingPlan)
        /// In a seek window, for this time: on the keyframe the container's index chose, or
        /// where a seek at the generator's precision lands.
        case inWindow(MediaTime, listedKeyframe: Int64?)
    }

    let landing: Landing
    /// The later times, in order, that land on the same frame and share its picture.
    var alsoServes: [MediaTime] = []

    /// The first time that lands on the frame.
    var requested: MediaTime {
        switch landing {
        case .planned(let plan): return plan.requested
        case .inWindow(let time, _): return time
        }
    }

    /// What tells that two times land on the same frame before either lands: the planned frame
    /// in the table, or the listed keyframe's PTS. Nil when it is known only once landed.
    var frame: ThumbnailFrame? {
        switch landing {
        case .planned(let plan): return .numbered(plan.frameIndex)
        case .inWindow(_, let keyframe): return keyframe.map(ThumbnailFrame.listedKeyframe)
        }
    }
}

/// The frame a thumbnail job will land on, known before it lands: a number in the whole table,
/// or the PTS of a keyframe the container's index lists. Apart, so that a frame number and a
/// PTS of the same value never name one frame.
enum ThumbnailFrame: Hashable, Sendable {
    case numbered(Int)
    case listedKeyframe(Int64)
}

/// The jobs of one `forEachThumbnail` run and their pictures, shared by its decoders.
typealias ThumbnailBoard = JobBoard<ThumbnailJob, Thumbnail, MediaError>
