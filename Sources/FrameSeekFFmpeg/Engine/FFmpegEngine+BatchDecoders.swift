import Foundation
import FrameSeekCore

/// What another engine needs to open the same media without indexing it again
/// (`FFmpegEngine.init(sharingIndexOf:)`).
package struct EngineBlueprint: Sendable {
    let path: String
    let options: FFmpegEngine.Options
    let memory: MemoryInput?
    let media: MediaDescription
    let frameTable: FrameTable
    let packetOrder: PacketDecodeOrder
    let demuxerFlaggedFrames: Set<Int>
    let keyframePrefetch: KeyframePrefetch?
    let decoderParameters: StreamParameters
}

/// One target of a batch landed by one of its decoders, and what that decoder's `each` made of it.
package struct BatchLanded<Output: Sendable>: Sendable {
    /// The target's position among the batch's plans.
    package let position: Int
    /// Where it landed.
    package let landing: SeekLanding
    /// What `each` made of it.
    package let output: Output
}

extension FFmpegEngine {
    /// The decoders a batch uses by default: one per core, at most two. Each decodes whole GOP
    /// runs at the engine's own thread count, so a second decoder nearly halves a batch that
    /// spans several GOPs on two cores, and every frame decodes exactly as on one decoder, with
    /// its damage reported as one decoder reports it (unlike frame threads; see the Performance article's
    /// "Threads").
    public static var defaultBatchDecoders: Int { max(1, min(2, ProcessInfo.processInfo.activeProcessorCount)) }
    /// The most decoders one batch uses.
    public static let maximumBatchDecoders = 16

    /// Lands on every time in `times`, as `seek(to:precision:interruption:each:)` does, with
    /// the pass split between up to `decoders` decoders on as many cores.
    ///
    /// The planned frames are split into runs, one per GOP that a target lands in (one seek to
    /// its keyframe, then decoding on from landing to landing, skipping the non-reference
    /// frames between). This engine lands runs on the calling thread; each other decoder is an
    /// engine of its own, opened once on a queue of its own from this engine's index and kept
    /// for later batches, and takes the next run as it finishes one. The first run and the
    /// last are this engine's: the first goes on from where it stands when it can, and after
    /// the last it stands on the last frame in frame order, as one decoder would; a batch of
    /// one or two runs is this engine's alone. When other decoders take part, every run after
    /// the first starts with a seek to its keyframe, as a single seek would, so a frame decodes
    /// to the same pixels, with the same damage reported, whichever decoder lands it: the
    /// split changes no landing.
    ///
    /// - Parameters:
    ///   - decoders: how many decoders land runs at once; 1 lands everything on this engine.
    ///   - each: called once per target, on the thread of the decoder that landed it, with
    ///     the target's position in `times`, its landing and that decoder's engine, while the
    ///     frame is that engine's landed frame: the moment to read its picture. Calls for
    ///     different runs may overlap; within a run they come in frame order.
    /// - Returns: the landings in the order of `times`, each with what `each` returned for it;
    ///   a landing's latency is the time its own decoding took.
    /// - Throws: the first error in frame order (`MediaError` as a single seek throws, with
    ///   `.interrupted` when `interruption` is set, or whatever `each` throws), once every
    ///   decoder has stopped; the landings made by then are lost, and the engine stays usable.
    public func seek<Output: Sendable>(
        to times: [MediaTime], precision: SeekPrecision, decoders: Int, interruption: SeekInterruptionFlag? = nil,
        each: @escaping @Sendable (_ position: Int, _ landing: SeekLanding, _ engine: FFmpegEngine) throws -> Output
    ) throws -> [(landing: SeekLanding, output: Output)] {
        let plans = try times.map { time throws(MediaError) in try plan(at: time, precision: precision) }
        return try land(plans, decoders: decoders, interruption: interruption, each: each)
    }

    /// Carries out `plans` as one batch split between decoders, as
    /// `seek(to:precision:decoders:interruption:each:)` does.
    package func land<Output: Sendable>(
        _ plans: [LandingPlan], decoders: Int, interruption: SeekInterruptionFlag? = nil,
        each: @escaping @Sendable (_ position: Int, _ landing: SeekLanding, _ engine: FFmpegEngine) throws -> Output
    ) throws -> [(landing: SeekLanding, output: Output)] {
        var results = [(landing: SeekLanding, output: Output)?](repeating: nil, count: plans.count)
        try land(plans, decoders: decoders, interruption: interruption, each: each) { run in
            for landed in run { results[landed.position] = (landed.landing, landed.output) }
        }
        return results.map { $0! }
    }

    /// Carries out `plans` as one batch split between decoders, handing each run's landings
    /// to `deliver` on the calling thread, run after run in frame order, as soon as that run
    /// and every run before it are landed: a caller can print while decoding goes on.
    ///
    /// - Throws: the first error in frame order, after delivering every run before it.
    package func land<Output: Sendable>(
        _ plans: [LandingPlan], decoders: Int, interruption: SeekInterruptionFlag? = nil,
        each: @escaping @Sendable (_ position: Int, _ landing: SeekLanding, _ engine: FFmpegEngine) throws -> Output,
        deliver: (_ run: [BatchLanded<Output>]) throws -> Void
    ) throws {
        let runs = Self.gopRuns(of: plans)
        // The first and the last run are this engine's: the first goes on from where it stands
        // when it can, as one decoder would, and after the last it stands on the last frame.
        // So only the runs between can go to other decoders, and only they, and the last, start
        // with a seek to their keyframe, so they land the same on any decoder. With no run
        // between, the batch is one decoder's.
        let board = JobBoard<[Int], [BatchLanded<Output>], any Error>(jobs: runs, lastJobForCaller: true)
        defer { _ = board.stopAndWaitForHelpers() }
        let first = board.take(byHelper: false)
        let wanted = min(decoders - 1, runs.count - 2, Self.maximumBatchDecoders - 1)
        if wanted > 0 {
            while batchHelpers.count < wanted { batchHelpers.append(openBatchHelper(batchHelpers.count + 1)) }
            for helper in batchHelpers.prefix(wanted) {
                board.start(helper) { engine, run in
                    Result { try engine.landRun(run, of: plans, interruption: interruption, startingFresh: true, each: each) }
                }
            }
        }
        if let (index, run) = first {
            board.finish(index, Result { try landRun(run, of: plans, interruption: interruption, startingFresh: false, each: each) }, by: 0)
        }
        for index in runs.indices {
            try deliver(
                board.result(of: index, callerDecodes: callerLandsBatchRuns) { _, run in
                    Result { try self.landRun(run, of: plans, interruption: interruption, startingFresh: wanted > 0, each: each) }
                }.get())
        }
    }

    /// The positions of `plans` in landing order, cut where the GOP decoding starts from
    /// changes: each run is one seek and one forward pass, on whichever decoder takes it.
    static func gopRuns(of plans: [LandingPlan]) -> [[Int]] {
        var runs: [[Int]] = []
        var runStart: RandomAccessPoint?
        for position in landingOrder(of: plans) {
            let start = plans[position].randomAccessPoint
            if runs.isEmpty || start != runStart {
                runs.append([])
                runStart = start
            }
            runs[runs.count - 1].append(position)
        }
        return runs
    }

    /// Lands one run of a batch on this engine, collecting what `each` makes of each landing.
    private func landRun<Output: Sendable>(
        _ run: [Int], of plans: [LandingPlan], interruption: SeekInterruptionFlag?, startingFresh: Bool,
        each: (_ position: Int, _ landing: SeekLanding, _ engine: FFmpegEngine) throws -> Output
    ) throws -> [BatchLanded<Output>] {
        var landed: [BatchLanded<Output>] = []
        landed.reserveCapacity(run.count)
        try land(run, of: plans, interruption: interruption, startingFresh: startingFresh) { position, landing in
            landed.append(BatchLanded(position: position, landing: landing, output: try each(position, landing, self)))
        }
        return landed
    }

    /// What another engine needs to open this media without indexing it. The engine keeps no
    /// frame cache: a helper lands each frame of its share once.
    package var blueprint: EngineBlueprint {
        var helperOptions = options
        helperOptions.cacheBytes = 0
        return EngineBlueprint(
            path: path, options: helperOptions, memory: pool.slots[0].demuxer.memory, media: media,
            frameTable: frameTable, packetOrder: executor.packetOrder,
            demuxerFlaggedFrames: demuxerFlaggedFrames, keyframePrefetch: keyframePrefetch,
            decoderParameters: pool.opener.parameters)
    }

    /// Batch decoder `number`: an engine sharing this one's index, opened on a queue of its
    /// own, where it stays. It is nil there when the media cannot be opened again (removed
    /// since): the other decoders then land its share.
    private func openBatchHelper(_ number: Int) -> QueueConfined<FFmpegEngine?> {
        let helper = QueueConfined<FFmpegEngine?>(nil, label: "frameseek.batch.decoder-\(number + 1)")
        let blueprint = self.blueprint
        helper.schedule { engine in engine = try? FFmpegEngine(sharingIndexOf: blueprint) }
        return helper
    }
}
