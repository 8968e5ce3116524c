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
        if let source, jobs.count > 1 {
            let wanted = min(decoders, jobs.count, Self.maximumDecoders) - 1
            while helpers.count < wanted {
                helpers.append(Self.openHelper(helpers.count + 1, path: source.path, options: source.options))
            }
            for helper in helpers.prefix(max(0, wanted)) { start(helper, on: board) }
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
                board.finish(taken, Result { () throws(MediaError) in try thumbnail(for: job.plan, inForwardPass: true) }, by: 0)
                continue
            }
            if let made = board.waitForResult(index) { return made }
            // No other decoder is left to make it (none could open the media): this one does.
            if let (taken, job) = board.take() {
                board.finish(taken, Result { () throws(MediaError) in try thumbnail(for: job.plan, inForwardPass: true) }, by: 0)
            }
        }
    }

    /// Decoder `number`: a generator for `path` opened on a queue of its own, where it stays.
    /// It is nil there when the media cannot be opened again (removed since): the other
    /// decoders then do its share.
    static func openHelper(_ number: Int, path: String, options: FFmpegEngine.Options) -> QueueConfined<ThumbnailGenerator?> {
        let helper = QueueConfined<ThumbnailGenerator?>(nil, label: "frameseek.thumbnails.decoder-\(number + 1)")
        helper.schedule { generator in generator = try? ThumbnailGenerator(path: path, options: options) }
        return helper
    }

    /// Sets `helper` making thumbnails from `board` on its queue, after its opening, until
    /// none are left.
    private func start(_ helper: QueueConfined<ThumbnailGenerator?>, on board: ThumbnailBoard) {
        let frames = engine.frameTable.frames
        let (size, precision) = (maximumSize, precision)
        board.helperStarted()
        helper.schedule { generator in
            Self.help(&generator, board: board, frames: frames, size: size, precision: precision)
            // Only now, with `help` returned (and a mismatched engine closed in it), may the
            // run return.
            board.helperExited()
        }
    }

    /// One other decoder's part in a run: makes thumbnails from `board` until none are left.
    /// A decoder whose media indexes differently from the first's (`frames`) is closed and
    /// takes no part, now or later.
    private static func help(_ generator: inout ThumbnailGenerator?, board: ThumbnailBoard, frames: [FrameEntry],
                             size: (width: Int, height: Int), precision: SeekPrecision) {
        guard let helper = generator else { return }
        guard helper.engine.frameTable.frames == frames else {
            generator = nil
            return
        }
        helper.maximumSize = size
        helper.precision = precision
        while let (index, job) = board.take() {
            board.finish(index, Result { () throws(MediaError) in try helper.thumbnail(for: job.plan, inForwardPass: true) }, by: 1)
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
