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
            let plan: LandingPlan
            do { plan = try self.plan(at: time) } catch { planFailure = error; break }
            if let last = jobs.last, last.plan.frameIndex == plan.frameIndex {
                jobs[jobs.count - 1].alsoServes.append(time)
            } else {
                jobs.append(ThumbnailJob(plan: plan))
            }
        }
        let board = ThumbnailBoard(jobs: jobs)
        defer { framesMadeByOtherDecoders = board.stopAndWaitForHelpers() }
        if opensHelpers, jobs.count > 1 {
            let wanted = min(decoders, jobs.count, Self.maximumDecoders) - 1
            while helpers.count < wanted { helpers.append(Self.openHelper(helpers.count + 1, blueprint: engine.blueprint)) }
            let (size, precision) = (maximumSize, precision)
            for helper in helpers.prefix(max(0, wanted)) {
                board.start(helper) { generator, job in
                    generator.maximumSize = size
                    generator.precision = precision
                    return Result { () throws(MediaError) in try generator.thumbnail(for: job.plan, inForwardPass: true) }
                }
            }
        }
        var done = 0
        for index in jobs.indices {
            let thumbnail = try board.result(of: index, callerDecodes: callerDecodes) { _, job in
                Result { () throws(MediaError) in try self.thumbnail(for: job.plan, inForwardPass: true) }
            }.get()
            for time in [jobs[index].plan.requested] + jobs[index].alsoServes {
                try deliver(time == thumbnail.requestedTime ? thumbnail : thumbnail.shown(for: time))
                done += 1
                progress?(done, times.count)
            }
        }
        if let planFailure { throw planFailure }
    }

    /// Decoder `number`: a generator opened on a queue of its own, where it stays, with an
    /// engine sharing the first engine's index (`blueprint`). It is nil there when the media
    /// cannot be opened again (removed since): the other decoders then do its share.
    static func openHelper(_ number: Int, blueprint: EngineBlueprint) -> QueueConfined<ThumbnailGenerator?> {
        let helper = QueueConfined<ThumbnailGenerator?>(nil, label: "frameseek.thumbnails.decoder-\(number + 1)")
        helper.schedule { generator in
            generator = try? ThumbnailGenerator(engine: FFmpegEngine(sharingIndexOf: blueprint))
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

/// One frame to make a thumbnail of, planned once, and the later times that land on it too.
struct ThumbnailJob: Sendable {
    /// The landing, planned for the first time that lands on this frame.
    let plan: LandingPlan
    /// The later times, in order, that land on the same frame and share its picture.
    var alsoServes: [MediaTime] = []
}

/// The jobs of one `forEachThumbnail` run and their pictures, shared by its decoders.
typealias ThumbnailBoard = JobBoard<ThumbnailJob, Thumbnail, MediaError>
