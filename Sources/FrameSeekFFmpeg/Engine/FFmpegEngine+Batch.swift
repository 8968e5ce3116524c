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
        let plans = try times.map { time throws(MediaError) in try plan(at: time, precision: precision) }
        return try land(plans, interruption: interruption, each: each)
    }

    /// Carries out `plans` as one batch, as `seek(to:precision:interruption:each:)` does: for
    /// callers whose targets differ in precision too (landing manifests).
    package func land(
        _ plans: [LandingPlan], interruption: SeekInterruptionFlag? = nil,
        each: (_ position: Int, _ landing: SeekLanding) throws -> Void
    ) throws -> [SeekLanding] {
        var landings = [SeekLanding?](repeating: nil, count: plans.count)
        try land(Self.landingOrder(of: plans), of: plans, interruption: interruption) { position, landing in
            try each(position, landing)
            landings[position] = landing
        }
        return landings.map { $0! }
    }

    /// The positions of `plans` in the order a forward pass lands them: by frame, and for one
    /// frame in the caller's order, so a repeated frame is decoded for its first target.
    static func landingOrder(of plans: [LandingPlan]) -> [Int] {
        plans.indices.sorted { (plans[$0].frameIndex, $0) < (plans[$1].frameIndex, $1) }
    }

    /// Lands `plans[position]` for each position of `order`, which goes forward in frames,
    /// calling `each` after each landing while its frame is the landed one. `startingFresh`
    /// seeks for the first landing even when the active decoder could go on to it, so that a
    /// run reports the same work and damage whichever decoder lands it.
    func land(
        _ order: [Int], of plans: [LandingPlan], interruption: SeekInterruptionFlag?, startingFresh: Bool = false,
        each: (_ position: Int, _ landing: SeekLanding) throws -> Void
    ) throws {
        if startingFresh { executor.forgetActivePosition() }
        var previous: SeekLanding?
        for position in order {
            let plan = plans[position]
            let landing: SeekLanding
            // A repeat is the frame still landed, unless `each` landed elsewhere meanwhile.
            if let previous, previous.plan.frameIndex == plan.frameIndex, currentFrameIndex == previous.frame.index {
                landing = SeekLanding(
                    plan: plan, frame: previous.frame, keyframeIndex: previous.keyframeIndex,
                    framesDecoded: 0, demuxerSeeks: 0, latency: .zero,
                    decodeErrors: previous.decodeErrors, missingData: frameTable.missingData(at: plan.target),
                    reads: MediaReads(bytes: 0, requests: previous.reads?.requests.map { _ in 0 }),
                    servedFromCache: true)
            } else {
                landing = try land(plan, mode: .forwardPass, interruption: interruption)
            }
            try each(position, landing)
            previous = landing
        }
    }
}
