import Dispatch
import FrameSeekCore

/// The next forward step, landed on another thread while the caller works with the frame the
/// last one landed on, as a player decodes ahead of what it shows. One decoder then decodes
/// while the caller converts a picture, hashes it or writes a PNG.
///
/// After `step(.forward, count:)` lands frame N by decoding, `start` runs the same step again
/// from N on a worker thread: the same `FrameStepLoop`, the same landing of frame N + count, with
/// the same report. It keeps what that step landed and puts frame N back as the landed frame
/// (`LandingExecutor.restoreLanding`). The engine stands where the caller left it. Only its
/// decoder has gone on, and the next frame is in hand.
///
/// The next `step(.forward, count:)` from N takes the kept step (`take`). It waits at most for
/// the rest of that frame's decoding, and its report is the kept one. Any other call waits for
/// the worker first, since the engine reaches its executor only through `finish()`. It then
/// finds the executor as after any landing, one frame further on; the kept step is never taken
/// once anything else has landed (`LandingExecutor.landingCount`).
///
/// While the worker runs, the caller's pictures come from `standing`, its own reference to
/// frame N: conversion touches no state the worker changes.
///
/// Owns the work in flight and the step it kept. Only the engine's thread calls it.
final class DecodeAhead {
    /// A step the worker landed: its report, its frame and the executor's landing count after
    /// the frame the caller stands on was put back.
    struct KeptStep {
        let from: Int
        let count: Int
        let report: FrameStepReport
        let frame: Frame
        let index: Int
        let decodeErrors: Int
        let landingCount: Int
    }

    /// The frame the caller stands on while the worker runs, with the media as the caller last
    /// saw it; nil when no worker runs.
    private(set) var standing: (frame: Frame, index: Int, media: MediaDescription)?
    private var inFlight: Work?
    private var kept: KeptStep?
    /// Steps taken from the worker so far: how tests tell that it ran.
    private(set) var stepsTaken = 0

    /// Lands the step of `count` frames forward from frame `from` on a worker thread. The
    /// executor's landed frame must be frame `from`.
    func start(on executor: LandingExecutor, from: Int, count: Int) {
        finish()
        kept = nil
        let picture = Frame()
        // A reference the caller's pictures read: the worker moves the executor's own.
        guard (try? picture.reference(executor.landedFrame)) != nil else { return }
        let work = Work(executor: executor, from: from, count: count)
        standing = (picture, from, executor.media)
        inFlight = work
        DispatchQueue.global(qos: .userInitiated).async(group: work.done) { work.run() }
    }

    /// Waits for the worker, if one runs, and keeps what it landed.
    func finish() {
        guard let work = inFlight else { return }
        work.done.wait()
        inFlight = nil
        standing = nil
        kept = work.kept
    }

    /// The kept step of `count` frames forward from frame `from`, when nothing has landed since
    /// it was kept; taken once.
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
    /// engine's thread does not: the engine reaches its executor only through `finish()`. The
    /// worker's last act is storing `result` under its lock, which `finish()` reads under the
    /// same lock after the wait: everything the worker did comes before the engine's next use.
    fileprivate final class Work: @unchecked Sendable {
        let executor: LandingExecutor
        let from: Int
        let count: Int
        let done = DispatchGroup()
        /// What the worker landed, handed over under a lock: the worker's last write, and so
        /// the edge that orders everything it did to the executor before the engine's reads.
        private let result = Locked<KeptStep?>(nil)
        var kept: KeptStep? { result.withLock { $0 } }

        init(executor: LandingExecutor, from: Int, count: Int) {
            self.executor = executor
            self.from = from
            self.count = count
        }

        func run() {
            let aside = executor.setLandingAside()
            let report = FrameStepLoop(executor: executor, forwardMode: .steppingAhead).step(.forward, count: count, from: from)
            var landed: (frame: Frame, index: Int, decodeErrors: Int)?
            if report.result.didStep, let index = executor.landedFrameIndex {
                let next = executor.setLandingAside()
                landed = (next.frame, index, next.decodeErrors)
            }
            executor.restoreLanding(aside)
            let kept = landed.map {
                KeptStep(
                    from: from, count: count, report: report, frame: $0.frame, index: $0.index, decodeErrors: $0.decodeErrors,
                    landingCount: executor.landingCount)
            }
            result.withLock { $0 = kept }
        }
    }
}
