import Foundation
import FrameSeekCore
import FrameSeekFFmpeg

extension ThumbnailGenerator {
    /// The decoders `thumbnails` uses by default: one per core, at most two. Keyframe-only
    /// thumbnails are independent (one seek and one packet each), so a second decoder nearly
    /// halves the time on two cores; beyond the cores it only adds an open and a frame cache.
    public static var defaultDecoders: Int { max(1, min(2, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Thumbnails for many times, returned in the order asked, made by up to `decoders`
    /// decoders at once. The generator's own engine decodes on the calling thread; each other
    /// decoder opens the same media with the same options on a queue of its own, takes the next
    /// frame to make (so each decoder's demuxer only ever seeks forward), and is closed there.
    /// The pictures are the ones one decoder makes: every frame is landed by the same plan and
    /// decodes to the same pixels on any decoder. Times that land on the same frame share its
    /// picture. `progress` is called on the calling thread with (done, total).
    public func thumbnails(at times: [MediaTime], decoders: Int,
                           progress: ((Int, Int) -> Void)? = nil) throws(MediaError) -> [Thumbnail] {
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
            throw MediaError(path: engine.media.path, reason: .decodeFailed, detail: "\(error)")
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
    public func forEachThumbnail(at times: [MediaTime], decoders: Int = ThumbnailGenerator.defaultDecoders,
                                 progress: ((Int, Int) -> Void)? = nil,
                                 _ deliver: (Thumbnail) throws -> Void) throws {
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
        if let source, decoders > 1, jobs.count > 1 {
            for helper in 1..<min(decoders, jobs.count) {
                startHelper(helper, source: source, board: board)
            }
        }
        var done = 0
        for index in jobs.indices {
            let thumbnail = try result(of: index, on: board).get()
            for time in [jobs[index].plan.requested] + jobs[index].alsoServes {
                try deliver(time == thumbnail.requestedTime ? thumbnail : thumbnail.shown(for: time))
                done += 1
                progress?(done, times.count)
            }
        }
        if let planFailure { throw planFailure }
    }

    /// Job `index`'s result. While it is not made, this thread makes the next job rather than
    /// wait (it is a decoder too); with none left to take, it waits for the decoder making it.
    private func result(of index: Int, on board: ThumbnailBoard) -> Result<Thumbnail, MediaError> {
        while true {
            if let made = board.result(index) { return made }
            if callerDecodes, let (taken, job) = board.take() {
                board.finish(taken, Result { () throws(MediaError) in try thumbnail(for: job.plan) }, by: 0)
                continue
            }
            if let made = board.waitForResult(index) { return made }
            // No other decoder is left to make it (none could open the media): this one does.
            if let (taken, job) = board.take() {
                board.finish(taken, Result { () throws(MediaError) in try thumbnail(for: job.plan) }, by: 0)
            }
        }
    }

    /// Opens the media again for decoder `number` on a queue of its own, which makes thumbnails
    /// from `board` until none are left. The engine is opened, used and closed on that queue
    /// alone, as an engine must be.
    private func startHelper(_ number: Int, source: (path: String, options: FFmpegEngine.Options), board: ThumbnailBoard) {
        let frames = engine.frameTable.frames
        let (size, precision) = (maximumSize, precision)
        let (path, options) = source
        board.helperStarted()
        DispatchQueue(label: "frameseek.thumbnails.decoder-\(number + 1)").async {
            Self.help(number, board: board, path: path, options: options, frames: frames, size: size, precision: precision)
            // Only now, with the engine closed (it lived in `help` alone), may the run return.
            board.helperExited()
        }
    }

    /// One extra decoder's life: opens `path`, makes thumbnails from `board` until none are
    /// left, and closes the engine on return. A decoder that cannot open, or that indexes the
    /// media differently from the first (`frames`), leaves the work to the others.
    private static func help(_ number: Int, board: ThumbnailBoard, path: String, options: FFmpegEngine.Options, frames: [FrameEntry],
                             size: (width: Int, height: Int), precision: SeekPrecision) {
        guard let generator = try? ThumbnailGenerator(path: path, options: options),
              generator.engine.frameTable.frames == frames else { return }
        generator.maximumSize = size
        generator.precision = precision
        while let (index, job) = board.take() {
            board.finish(index, Result { () throws(MediaError) in try generator.thumbnail(for: job.plan) }, by: number)
        }
    }
}

extension Thumbnail {
    /// This thumbnail's picture and frame, for another requested time that lands on it.
    func shown(for time: MediaTime) -> Thumbnail {
        Thumbnail(requestedTime: time, actualTime: actualTime, frameIndex: frameIndex, fromKeyframeOnly: fromKeyframeOnly,
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

/// The jobs of one `forEachThumbnail` run and their results, shared by its decoders: jobs are
/// handed out in time order, one at a time, and results wait here until the caller takes them
/// in time order.
final class ThumbnailBoard: @unchecked Sendable {
    // Safe because every `var` below is read and written only while `condition` is locked, and
    // `jobs` is never written after init. Jobs and results are Sendable values.
    private let condition = NSCondition()
    private let jobs: [ThumbnailJob]
    private var nextJob = 0
    /// No job at or after this index is handed out: set past a failed job (nothing after it is
    /// delivered) and to 0 when the caller stops.
    private var stopAt = Int.max
    private var results: [Int: Result<Thumbnail, MediaError>] = [:]
    private var runningHelpers = 0
    /// Jobs the other decoders made (all but decoder 0, the caller's).
    private var madeByOthers = 0

    init(jobs: [ThumbnailJob]) { self.jobs = jobs }

    /// The next job and its index, or nil when none is left.
    func take() -> (Int, ThumbnailJob)? {
        condition.lock()
        defer { condition.unlock() }
        guard nextJob < min(jobs.count, stopAt) else { return nil }
        defer { nextJob += 1 }
        return (nextJob, jobs[nextJob])
    }

    /// Posts job `index`'s result, made by decoder `decoder`.
    func finish(_ index: Int, _ result: Result<Thumbnail, MediaError>, by decoder: Int) {
        condition.lock()
        results[index] = result
        if decoder != 0 { madeByOthers += 1 }
        if case .failure = result { stopAt = min(stopAt, index + 1) }
        condition.broadcast()
        condition.unlock()
    }

    /// Job `index`'s result, removed from the board, or nil when it is not made yet.
    func result(_ index: Int) -> Result<Thumbnail, MediaError>? {
        condition.lock()
        defer { condition.unlock() }
        return results.removeValue(forKey: index)
    }

    /// Waits for job `index`'s result and removes it; nil when no other decoder is left
    /// running and none has taken the job, so only the caller can make it.
    func waitForResult(_ index: Int) -> Result<Thumbnail, MediaError>? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let made = results.removeValue(forKey: index) { return made }
            if runningHelpers == 0 && nextJob <= index { return nil }
            condition.wait()
        }
    }

    /// Counts a decoder started on a queue of its own.
    func helperStarted() {
        condition.lock()
        runningHelpers += 1
        condition.unlock()
    }

    /// Counts a decoder gone: it takes no more jobs, and its engine is closed.
    func helperExited() {
        condition.lock()
        runningHelpers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Hands out no more jobs and waits until every other decoder has finished the job it holds
    /// and closed its engine, so nothing decodes after the run returns. Returns how many jobs
    /// the other decoders made.
    func stopAndWaitForHelpers() -> Int {
        condition.lock()
        defer { condition.unlock() }
        stopAt = 0
        while runningHelpers > 0 { condition.wait() }
        return madeByOthers
    }
}
