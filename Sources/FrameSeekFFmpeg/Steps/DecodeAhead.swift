import Dispatch
import FrameSeekCore

/// The next forward step, landed on another thread while the caller works with the frame the
/// last one landed on, as a player decodes ahead of what it shows. One decoder then decodes
/// while the caller converts a picture, hashes it or writes a PNG.
///
/// After `step(.forward, count:)` lands frame N with the decoder standing right after it,
/// `start` runs the same step again
/// from N on a worker thread: the same `FrameStepLoop`, the same landing of frame N + count
/// (in `LandingMode.steppingAhead`), the same report. The executor holds that frame beside its
/// cache (`LandingExecutor.holdLandingAhead`), and frame N is put
/// back as the landed frame (`restoreLanding`). The engine stands where the caller left it;
/// only its decoder has gone on.
///
/// The next `step(.forward, count:)` from N takes the step (`take`): it waits at most for the
/// rest of that decoding, and its report is the kept one. Any other call waits for the worker
/// first, since the engine reaches its executor only through `finish()`. A landing on the frame
/// decoded ahead then finds it as it finds a cached frame. Once anything else has landed, the
/// kept report is never taken (`LandingExecutor.landingCount`).
///
/// A seek, a batch, a step other than the one decoded ahead, or the engine's end calls
/// `abandon()` instead: the worker's step then stops once it retries over damage
/// (`LandingExecutor.interruptsOnlyRetries`), which can mean decoding from the start of the
/// file; the caller finds the engine where the stopped step left it, with nothing held. On
/// clean media the step is one step's decoding, and it is waited for and held as ever.
///
/// While the worker runs, the caller's pictures and the current frame come from `standing`:
/// its own reference to frame N, and the table and media as the step left them.
///
/// Owns the work in flight and the report it kept. Only the engine's thread calls it.
final class DecodeAhead {
    /// A step the worker landed: its report, and the executor's landing count after the frame
    /// the caller stands on was put back.
    struct KeptStep {
        let from: Int
        let count: Int
        let report: FrameStepReport
        let landingCount: Int
    }

    /// What the caller stands on while the worker runs: its frame, the frame's index in the
    /// table, and the table and media as the caller last saw them; nil when no worker runs.
    struct Standing {
        let frame: Frame
        let index: Int
        let table: FrameTable
        let media: MediaDescription
    }

    private(set) var standing: Standing?
    private var inFlight: Work?
    private var kept: KeptStep?
    /// Steps taken from the worker so far: how tests tell that it ran.
    private(set) var stepsTaken = 0
    /// Steps ahead that `abandon()` stopped in their retries over damage: how tests tell that
    /// a caller did not wait for them.
    private(set) var stepsAbandoned = 0

    /// Lands the step of `count` frames forward from the executor's landed frame on a worker
    /// thread.
    func start(on executor: LandingExecutor, count: Int) {
        finish()
        kept = nil
        guard let from = executor.landedFrameIndex else { return }
        let picture = Frame()
        // A reference the caller's pictures read: the worker moves the executor's own.
        guard (try? picture.reference(executor.landedFrame)) != nil else { return }
        let work = Work(executor: executor, from: from, count: count)
        standing = Standing(frame: picture, index: from, table: executor.table, media: executor.media)
        inFlight = work
        DispatchQueue.global(qos: .userInitiated).async(group: work.done) { work.run() }
    }

    /// Waits for the worker, if one runs, and keeps the report of what it landed.
    func finish() {
        guard let work = inFlight else { return }
        work.done.wait()
        inFlight = nil
        standing = nil
        kept = work.kept
        if work.wasStopped { stepsAbandoned += 1 }
    }

    /// Whether the worker lands, or has landed, the step of `count` frames forward from frame
    /// `from`: what `take` would take.
    func isStepping(from: Int, count: Int) -> Bool {
        guard let step = inFlight.map({ ($0.from, $0.count) }) ?? kept.map({ ($0.from, $0.count) }) else { return false }
        return step == (from, count)
    }

    /// Stops the worker's step where it retries over damage, waits for it, and lets go of
    /// what it kept: for a call that wants something other than that step.
    func abandon() {
        inFlight?.abandonment.interrupt(.superseded)
        finish()
        kept = nil
    }

    /// The kept report of the step of `count` frames forward from frame `from`, when nothing has
    /// landed since it was kept; taken once. The caller then lands its frame
    /// (`LandingExecutor.landDecodedAhead()`).
    func take(from: Int, count: Int, landingCount: Int) -> KeptStep? {
        finish()
        defer { kept = nil }
        guard let kept, kept.from == from, kept.count == count, kept.landingCount == landingCount else { return nil }
        stepsTaken += 1
        return kept
    }
}

extension DecodeAhead {
    /// One step landed on the worker thread.
    ///
    /// `@unchecked Sendable`: between `DecodeAhead.start` handing it to the worker and
    /// `finish()` returning from `done.wait()`, only the worker touches `executor`, and the
    /// engine's thread does not: the engine reaches its executor only through `finish()`
    /// (`FFmpegEngine.executor`), and nothing holds the executor across a call that may step,
    /// which starts a worker (a batch reaches it anew after each `each`,
    /// `FFmpegEngine.executorForBatch`). The worker's last act is storing `result` under its
    /// lock, which `finish()` reads under the same lock after the wait: everything the worker
    /// did comes before the engine's next use.
    fileprivate final class Work: @unchecked Sendable {
        let executor: LandingExecutor
        let from: Int
        let count: Int
        let done = DispatchGroup()
        /// Set by `abandon()`; the step's landings heed it only where they retry.
        let abandonment = SeekInterruptionFlag()
        /// The report of what the worker landed, and whether `abandonment` stopped the step,
        /// handed over under a lock.
        private let result = Locked<(kept: KeptStep?, stopped: Bool)>((nil, false))
        var kept: KeptStep? { result.withLock { $0.kept } }
        var wasStopped: Bool { result.withLock { $0.stopped } }

        init(executor: LandingExecutor, from: Int, count: Int) {
            self.executor = executor
            self.from = from
            self.count = count
        }

        func run() {
            let aside = executor.setLandingAside()
            let interruptedBefore = executor.interruptedLandings
            let report = FrameStepLoop(executor: executor, forwardMode: .steppingAhead, interruption: abandonment)
                .step(.forward, count: count, from: from)
            if report.result.didStep { executor.holdLandingAhead(decoded: report.framesDecoded > 0) }
            executor.restoreLanding(aside)
            let kept =
                report.result.didStep
                ? KeptStep(from: from, count: count, report: report, landingCount: executor.landingCount) : nil
            let stopped = executor.interruptedLandings > interruptedBefore
            result.withLock { $0 = (kept, stopped) }
        }
    }
}
