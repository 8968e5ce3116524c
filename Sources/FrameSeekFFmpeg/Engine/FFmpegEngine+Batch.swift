import Foundation
import FrameSeekCore

extension FFmpegEngine {
    /// Lands on every time in `times` in one forward pass: the batch form of
    /// `seek(to:precision:interruption:)`, for sampling many frames of a clip, on this engine's
    /// decoders alone (`seek(to:precision:decoders:interruption:each:)` splits the pass
    /// between decoders on several cores).
    ///
    /// Every landing is planned first, by the same landing rules as a single seek. The planned
    /// frames are then landed in presentation order, each frame once however many times land
    /// on it: a target in the GOP the decoder stands in decodes on from the previous landing,
    /// skipping the non-reference frames between the two, and a target in another GOP starts
    /// from its keyframe (or from a decoder parked in it). So a sorted batch costs one forward
    /// pass per run of GOPs, and the order of `times` costs nothing.
    ///
    /// - Parameters:
    ///   - times: the targets, in any order, repeats allowed.
    ///   - each: called once per target, in the order the frames are landed (not the order of
    ///     `times`), with the target's position in `times` and its landing, while that frame
    ///     is the engine's landed frame: the moment to read its picture. A repeated frame is
    ///     reported for each of its targets, with no frames decoded after the first.
    /// - Returns: the landings in the order of `times`, each with the fields a single seek
    ///   reports; a landing's latency is the time its own decoding took.
    /// - Throws: `MediaError` as a single seek does (with `.interrupted` when `interruption`
    ///   is set, between packets), or whatever `each` throws; the landings made by then are
    ///   lost, and the engine stays usable.
    public func seek(
        to times: [MediaTime], precision: SeekPrecision, interruption: SeekInterruptionFlag? = nil,
        each: (_ position: Int, _ landing: SeekLanding) throws -> Void = { _, _ in }
    ) throws -> [SeekLanding] {
        decodeAhead.abandon()
        let plans = try times.map { time throws(MediaError) in try plan(at: time, precision: precision) }
        return try land(plans, interruption: interruption, each: each)
    }

    /// Carries out `plans` as one batch, as `seek(to:precision:interruption:each:)` does: for
    /// callers whose targets differ in precision too (landing manifests).
    package func land(
        _ plans: [LandingPlan], interruption: SeekInterruptionFlag? = nil,
        each: (_ position: Int, _ landing: SeekLanding) throws -> Void
    ) throws -> [SeekLanding] {
        decodeAhead.abandon()
        var landings = [SeekLanding?](repeating: nil, count: plans.count)
        try ForwardPass(engine: self).land(ForwardPass.landingOrder(of: plans), of: plans, interruption: interruption) {
            position, landing in
            try each(position, landing)
            landings[position] = landing
        }
        return landings.map { $0! }
    }

    /// The executor for a batch's next landing. A forward step that the batch's `each` took may
    /// be decoding the next one ahead (`DecodeAhead`), which the batch, landing elsewhere, does
    /// not want: it is stopped where it retries over damage and waited for, so that the
    /// executor is this thread's alone and the landed picture is the landing's again.
    var executorForBatch: LandingExecutor {
        decodeAhead.abandon()
        return executor
    }

    /// The decoders a batch uses by default: one per core, at most two. Each decodes whole GOP
    /// runs at the engine's own thread count, so a second decoder nearly halves a batch that
    /// spans several GOPs on two cores, and every frame decodes exactly as on one decoder, with
    /// its damage reported as one decoder reports it (unlike frame threads; see the Performance article's
    /// "Threads").
    public static var defaultBatchDecoders: Int { max(1, min(2, ProcessInfo.processInfo.activeProcessorCount)) }
    /// The most decoders one batch uses.
    public static let maximumBatchDecoders = BatchDecoders.maximumDecoders

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
        decodeAhead.abandon()
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
        decodeAhead.abandon()
        try batchDecoders.land(plans, on: self, decoders: decoders, interruption: interruption, each: each, deliver: deliver)
    }
}
