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
    ///
    /// On a seek window (`FrameIndexing.asNeeded`) a step reads another window when the
    /// destination lies beyond the frames the current one proved complete, and its report
    /// is not indexed (`FrameStepReport.isIndexed`).
    ///
    /// With `Options.decodesAhead`, a forward step after which the decoder stands right after
    /// its frame lands the next step of the same count on another thread before it returns
    /// (`DecodeAhead`). The next forward step takes it, with the report it would have made but
    /// for its latency, which is the time the caller waited. Anything else that reaches the
    /// decoders waits for that thread first; the landed picture, the current frame, the table
    /// and the media are read without waiting. A seek, a batch or another step stops that
    /// thread's step where it retries over damage rather than wait for it to decode on.
    public func step(_ direction: FrameStepDirection, count: Int = 1) -> FrameStepReport {
        let clock = ContinuousClock()
        let start = clock.now
        // Another step than the one decoded ahead: its retries over damage, if any, are not
        // waited for.
        if direction != .forward || !decodeAhead.isStepping(from: landedFrameIndex ?? 0, count: count) {
            decodeAhead.abandon()
        }
        // Audio has no frames to step: the loop says so without any table. Steps move by frame
        // number: where no window holds the destination, the whole table must.
        if media.selectedStream.mediaType == .video, (try? prepareWindow(forStep: direction, count: count)) != true,
            (try? completeFrameTable()) == nil
        {
            return FrameStepReport(
                result: .unavailable(.decodeFailed), direction: direction, requestedCount: count, framesStepped: 0, frame: nil,
                framesDecoded: 0, latency: .zero)
        }
        let executor = self.executor
        let from = executor.landedFrameIndex ?? 0
        let report: FrameStepReport
        if direction == .forward, let kept = decodeAhead.take(from: from, count: count, landingCount: executor.landingCount),
            executor.landDecodedAhead()
        {
            report = kept.report.waited(clock.now - start)
        } else {
            report = FrameStepLoop(executor: executor).step(direction, count: count, from: from)
        }
        decodeNextStepAhead(after: report, count: count, on: executor)
        return report
    }

    /// Forward steps taken from `DecodeAhead`: landed on another thread while the caller
    /// worked with the step before.
    package var stepsDecodedAhead: Int { decodeAhead.stepsTaken }

    /// Steps decoded ahead that another call stopped where they retried over damage.
    package var stepsAbandonedAhead: Int { decodeAhead.stepsAbandoned }

    /// Starts landing the next forward step of `count` frames on another thread, when the
    /// step just taken went forward and its decoder stands right after its frame: on clean
    /// media the step ahead then goes on from there, and costs one step's decoding. (Over a
    /// frame the decoder cannot produce it retries as any step does: the next forward step of
    /// the same count waits for that, any other call stops it.)
    private func decodeNextStepAhead(after report: FrameStepReport, count: Int, on executor: LandingExecutor) {
        guard options.decodesAhead, report.direction == .forward, report.result.didStep,
            executor.media.selectedStream.mediaType == .video, executor.table.coversStream,
            let current = executor.landedFrameIndex, let last = executor.position?.lastOutputPTS,
            last == executor.table.frames[current].pts
        else { return }
        decodeAhead.start(on: executor, count: count)
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
    /// With one decoder, on audio, or while this engine lands in seek windows (opened as needed
    /// and its table not built: a split would first read the whole stream, 594.5 MB over HTTP
    /// for two steps into a 378 MB Matroska film), the pass is `step` after `step` on this
    /// engine, window by window, as a player steps. When a
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
        // One decoder steps on, through windows and decoding each next step ahead (audio, which
        // has no steps, needs no table); a split between decoders needs the whole table, taken
        // only where it is already built.
        if decoders <= 1 || media.selectedStream.mediaType != .video || !indexesWholeStream {
            for ordinal in 0..<max(0, repeats) {
                let report = step(.forward, count: count)
                try delivered(report, try each(ordinal, report, self))
                guard report.result.didStep else { return }
            }
            return
        }
        decodeAhead.abandon()
        try completeFrameTable()
        try ForwardStepPass(engine: self, count: count, each: each).run(
            from: landedFrameIndex ?? 0, repeats: repeats, decoders: decoders, delivered: delivered)
    }
}

extension FrameStepReport {
    /// The same report, its latency the time its caller waited for it.
    fileprivate func waited(_ latency: Duration) -> FrameStepReport {
        FrameStepReport(
            result: result, direction: direction, requestedCount: requestedCount, framesStepped: framesStepped, frame: frame,
            framesDecoded: framesDecoded, latency: latency, decodeErrors: decodeErrors, isIndexed: isIndexed)
    }
}
