import FrameSeekCore

/// One target of a batch landed by one of its decoders, and what that decoder's `each` made of it.
package struct BatchLanded<Output: Sendable>: Sendable {
    /// The target's position among the batch's plans.
    package let position: Int
    /// Where it landed.
    package let landing: SeekLanding
    /// What `each` made of it.
    package let output: Output
}

/// The decoders that share a batch's GOP runs with one engine: engines of their own on queues
/// of their own, opened from that engine's index by the first batch that needs them and kept
/// for the next.
///
/// The engine lands the first run and the last on the calling thread; the runs between go to
/// whichever decoder is free (`JobBoard`). Every run a helper may take starts with a seek to
/// its keyframe, so a frame decodes to the same pixels, with the same damage reported,
/// whichever decoder lands it.
final class BatchDecoders {
    /// The most decoders one batch uses.
    static let maximumDecoders = 16

    /// The helper engines opened so far; one is nil on its queue when the media could not be
    /// opened again there (removed since): the other decoders then land its share.
    private var helpers: [QueueConfined<FFmpegEngine?>] = []
    /// Whether the engine lands runs of a batch too while its helpers do (it does: it would
    /// only wait otherwise). Tests turn it off (`leaveRunsToHelpers()`) so that the helpers
    /// land every run.
    private(set) var callerLandsRuns = true

    /// From now on the engine lands only a batch's first and last runs, and its helpers every
    /// run between.
    func leaveRunsToHelpers() { callerLandsRuns = false }

    deinit {
        // Each helper's engine is closed on its own queue, after the work queued there.
        for helper in helpers { helper.schedule { $0 = nil } }
    }

    /// Carries out `plans` on `engine` and up to `decoders - 1` helpers, handing each run's
    /// landings to `deliver` on the calling thread, run after run in frame order, as soon as
    /// that run and every run before it are landed.
    ///
    /// - Throws: the first error in frame order, after delivering every run before it.
    func land<Output: Sendable>(
        _ plans: [LandingPlan], on engine: FFmpegEngine, decoders: Int, interruption: SeekInterruptionFlag?,
        each: @escaping @Sendable (_ position: Int, _ landing: SeekLanding, _ engine: FFmpegEngine) throws -> Output,
        deliver: (_ run: [BatchLanded<Output>]) throws -> Void
    ) throws {
        let runs = ForwardPass.gopRuns(of: plans)
        // The first and the last run are the engine's: the first goes on from where it stands
        // when it can, as one decoder would, and after the last it stands on the last frame.
        // So only the runs between can go to other decoders, and only they, and the last, start
        // with a seek to their keyframe, so they land the same on any decoder. With no run
        // between, the batch is one decoder's.
        let board = JobBoard<[Int], [BatchLanded<Output>], any Error>(jobs: runs, lastJobForCaller: true)
        defer { _ = board.stopAndWaitForHelpers() }
        let first = board.take(byHelper: false)
        let wanted = min(decoders - 1, runs.count - 2, Self.maximumDecoders - 1)
        if wanted > 0 {
            while helpers.count < wanted { helpers.append(Self.openHelper(helpers.count + 1, blueprint: engine.blueprint)) }
            for helper in helpers.prefix(wanted) {
                board.start(helper) { helperEngine, run in
                    Result {
                        try Self.landRun(run, of: plans, on: helperEngine, interruption: interruption, startingFresh: true, each: each)
                    }
                }
            }
        }
        if let (index, run) = first {
            let landed = Result {
                try Self.landRun(run, of: plans, on: engine, interruption: interruption, startingFresh: false, each: each)
            }
            board.finish(index, landed, by: 0)
        }
        for index in runs.indices {
            try deliver(
                board.result(of: index, callerDecodes: callerLandsRuns) { _, run in
                    Result {
                        try Self.landRun(run, of: plans, on: engine, interruption: interruption, startingFresh: wanted > 0, each: each)
                    }
                }.get())
        }
    }

    /// Lands one run of a batch on `engine`, collecting what `each` makes of each landing.
    private static func landRun<Output: Sendable>(
        _ run: [Int], of plans: [LandingPlan], on engine: FFmpegEngine, interruption: SeekInterruptionFlag?, startingFresh: Bool,
        each: (_ position: Int, _ landing: SeekLanding, _ engine: FFmpegEngine) throws -> Output
    ) throws -> [BatchLanded<Output>] {
        var landed: [BatchLanded<Output>] = []
        landed.reserveCapacity(run.count)
        try ForwardPass(engine: engine).land(run, of: plans, interruption: interruption, startingFresh: startingFresh) {
            position, landing in
            landed.append(BatchLanded(position: position, landing: landing, output: try each(position, landing, engine)))
        }
        return landed
    }

    /// Batch decoder `number`: an engine opened from `blueprint` on a queue of its own, where
    /// it stays; nil there when the media cannot be opened again.
    private static func openHelper(_ number: Int, blueprint: EngineBlueprint) -> QueueConfined<FFmpegEngine?> {
        let helper = QueueConfined<FFmpegEngine?>(nil, label: "frameseek.batch.decoder-\(number + 1)")
        helper.schedule { engine in engine = try? FFmpegEngine(sharingIndexOf: blueprint) }
        return helper
    }
}
