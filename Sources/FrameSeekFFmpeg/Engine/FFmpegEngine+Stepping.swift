import FrameSeekCore

extension FFmpegEngine {
    /// Steps `count` frames in presentation order from the current frame (the last landing;
    /// frame 0 before any).
    ///
    /// Forward steps decode on from where the decoder stands. Backward steps come from the
    /// frame cache; a backward step to a frame not cached decodes its GOP once, from the
    /// keyframe, without skipping anything, and caches the frames up to it, so the steps
    /// after it cost a cache lookup. A frame the decoder cannot produce is stepped over (see
    /// `FrameStepReport.framesStepped`). Never throws: failures are typed reasons.
    public func step(_ direction: FrameStepDirection, count: Int = 1) -> FrameStepReport {
        stepLoop.step(direction, count: count, from: landedFrameIndex ?? 0)
    }

    /// The step every engine of this module takes, on this engine's table and landings.
    private var stepLoop: FrameStepLoop {
        FrameStepLoop(
            table: frameTable, isVideo: media.selectedStream.mediaType == .video,
            land: { plan, mode throws(MediaError) in try self.land(plan, mode: mode) },
            isUndecodable: { self.undecodable[$0] != nil },
            currentFrame: { self.landedFrameIndex.map { self.frameTable.frames[$0] } })
    }

    /// Takes up to `repeats` forward steps of `count` frames from the current frame, as
    /// `step(.forward, count:)` called `repeats` times does, stopping after the first step that
    /// cannot happen: a pass over many frames, split between up to `decoders` decoders on as
    /// many cores.
    ///
    /// Where every step goes is known from the frame table before anything is decoded, so the
    /// steps' frames are landed as a batch (`seek(to:precision:decoders:interruption:each:)`):
    /// one run per GOP, decoded from its keyframe through every frame stepped to, the runs
    /// split between the decoders. Every frame decodes to the same pixels as on one decoder,
    /// and this engine stands on the last frame afterwards. Two things differ from `step`:
    /// - damage is counted from the keyframe of the step's GOP, as a seek counts it; one
    ///   decoder stepping on counts it from where it last started decoding, so it also flags
    ///   frames of later GOPs, which a keyframe makes independent of the damage;
    /// - a step's latency is its own decoding, not the time since the step before.
    ///
    /// With one decoder, or on audio, the pass is `step` after `step` on this engine. When a
    /// landing fails (a frame that cannot be decoded at all is stepped over, one frame more,
    /// which moves every later step), the steps delivered stand, and the pass goes on `step`
    /// after `step` from the last of them, its failures typed reasons as `step`'s are.
    ///
    /// - Parameters:
    ///   - each: called once per step, in order within a GOP, on the thread of the decoder
    ///     that landed it, with the step's number (from 0), its report and that decoder's
    ///     engine, whose landed frame it is: the moment to read its picture. A step that
    ///     cannot happen is reported last, on the calling thread, with this engine.
    ///   - delivered: called on the calling thread with each step's report and what `each`
    ///     made of it, in step order, as soon as the step and every step before it are landed.
    /// - Throws: only what `each` or `delivered` throws; the pass then lands nothing more.
    public func stepForward<Output: Sendable>(
        count: Int = 1, repeats: Int, decoders: Int,
        each: @escaping @Sendable (_ ordinal: Int, _ report: FrameStepReport, _ engine: FFmpegEngine) throws -> Output,
        delivered: (_ report: FrameStepReport, _ output: Output) throws -> Void
    ) throws {
        let start = landedFrameIndex ?? 0
        guard decoders > 1, media.selectedStream.mediaType == .video else {
            return try stepForwardOneByOne(from: start, count: count, repeats: repeats, firstOrdinal: 0, each: each, delivered: delivered)
        }
        var destinations: [(index: Int, moved: Int)] = []
        var edge: FrameStepUnavailableReason?
        var current = start
        while destinations.count < repeats, edge == nil {
            switch frameTable.stepDestination(from: current, .forward, count: max(1, count)) {
            case .success(let found):
                destinations.append(found)
                current = found.index
            case .failure(let reason):
                edge = reason
            }
        }
        var done = 0
        var lastFrame = start
        do {
            let plans = try destinations.map { destination throws(LandingError) in try frameTable.planLanding(onFrame: destination.index) }
            let moved = destinations.map(\.moved)
            try land(plans, decoders: decoders) { position, landing, engine in
                let report = FrameStepReport(
                    result: .stepped(.forward, landedMediaTime: landing.frame.time), direction: .forward,
                    requestedCount: count, framesStepped: moved[position], frame: landing.frame,
                    framesDecoded: landing.framesDecoded, latency: landing.latency,
                    decodeErrors: landing.decodeErrors)
                return StepOutcome(report: report, output: try each(position, report, engine))
            } deliver: { run in
                for landed in run {
                    do { try delivered(landed.output.report, landed.output.output) } catch { throw DeliveryFailure(error: error) }
                    done += 1
                    lastFrame = landed.landing.frame.index
                }
            }
        } catch let failure as DeliveryFailure {
            throw failure.error
        } catch is MediaError, is LandingError {
            return try stepForwardOneByOne(
                from: lastFrame, count: count, repeats: repeats - done, firstOrdinal: done,
                each: each, delivered: delivered)
        }
        if let edge {
            let report = FrameStepReport(
                result: .unavailable(edge), direction: .forward, requestedCount: count, framesStepped: 0,
                frame: landedFrameIndex.map { frameTable.frames[$0] }, framesDecoded: 0, latency: .zero)
            try delivered(report, try each(done, report, self))
        }
    }

    /// `step(.forward, count:)` from frame `start`, up to `repeats` times, on this engine; the
    /// first step is number `firstOrdinal`.
    private func stepForwardOneByOne<Output>(
        from start: Int, count: Int, repeats: Int, firstOrdinal: Int,
        each: (_ ordinal: Int, _ report: FrameStepReport, _ engine: FFmpegEngine) throws -> Output,
        delivered: (_ report: FrameStepReport, _ output: Output) throws -> Void
    ) throws {
        var current = start
        for ordinal in firstOrdinal..<(firstOrdinal + max(0, repeats)) {
            let report = stepLoop.step(.forward, count: count, from: current)
            try delivered(report, try each(ordinal, report, self))
            guard report.result.didStep, let frame = report.frame else { return }
            current = frame.index
        }
    }
}

/// An error `delivered` threw, told apart from a landing's.
private struct DeliveryFailure: Error {
    let error: any Error
}

/// A step landed by one of a pass's decoders, and what `each` made of it there.
private struct StepOutcome<Output: Sendable>: Sendable {
    let report: FrameStepReport
    let output: Output
}
