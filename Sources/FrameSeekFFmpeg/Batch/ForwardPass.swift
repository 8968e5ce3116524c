import FrameSeekCore

/// A batch's landings on one engine's `LandingExecutor`, in one forward pass: the plans sorted
/// by frame, each frame landed once however many plans land on it.
///
/// A target in the GOP the decoder stands in decodes on from the previous landing, skipping
/// the non-reference frames between the two, and a target in another GOP starts from its
/// keyframe (or from a decoder parked in it), so a sorted batch costs one forward pass per run
/// of GOPs.
struct ForwardPass {
    /// Lands the pass, reached anew for every landing (`FFmpegEngine.executorForBatch`): `each`
    /// may step on the engine, which decodes the next step ahead on another thread, and the
    /// pass must neither land beside that thread nor leave the engine reading its pictures from
    /// that step (`DecodeAhead.standing`).
    let engine: FFmpegEngine

    /// The positions of `plans` in the order a forward pass lands them: by frame, and for one
    /// frame in the caller's order, so a repeated frame is decoded for its first target.
    static func landingOrder(of plans: [LandingPlan]) -> [Int] {
        plans.indices.sorted { (plans[$0].frameIndex, $0) < (plans[$1].frameIndex, $1) }
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

    /// Lands `plans[position]` for each position of `order`, which goes forward in frames,
    /// calling `each` after each landing while its frame is the landed one. `startingFresh`
    /// seeks for the first landing even when the active decoder could go on to it, so that a
    /// run reports the same work and damage whichever decoder lands it.
    func land(
        _ order: [Int], of plans: [LandingPlan], interruption: SeekInterruptionFlag?, startingFresh: Bool = false,
        each: (_ position: Int, _ landing: SeekLanding) throws -> Void
    ) throws {
        if startingFresh { engine.executorForBatch.forgetActivePosition() }
        var previous: SeekLanding?
        for position in order {
            let executor = engine.executorForBatch
            let plan = plans[position]
            let landing: SeekLanding
            // A repeat is the frame still landed, unless `each` landed elsewhere meanwhile.
            if let previous, previous.plan.frameIndex == plan.frameIndex, executor.landedFrameIndex == previous.frame.index {
                landing = SeekLanding(
                    plan: plan, frame: previous.frame, keyframeIndex: previous.keyframeIndex,
                    framesDecoded: 0, demuxerSeeks: 0, latency: .zero,
                    decodeErrors: previous.decodeErrors, missingData: executor.table.missingData(at: plan.target),
                    reads: MediaReads(bytes: 0, requests: previous.reads?.requests.map { _ in 0 }),
                    servedFromCache: true)
            } else {
                landing = try executor.land(plan, mode: .forwardPass, interruption: interruption)
            }
            try each(position, landing)
            previous = landing
        }
    }
}
