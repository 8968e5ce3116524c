import FrameSeekCore

/// The frame step every engine of this module takes: the destination chosen on the frame table
/// (`FrameTable.stepDestination`), landed as a plan on that frame, and frames the decoder
/// cannot produce stepped over. `FFmpegEngine` runs it on a file's table, `HLSEngine` on a
/// playlist window's table; only how a plan is landed and how a frame is known undecodable
/// differ, and those are passed in.
struct FrameStepLoop {
    /// The table steps move on.
    let table: FrameTable
    /// Whether the selected stream is video: audio frames are not stepped.
    let isVideo: Bool
    /// Lands a plan made on `table` (backward steps refill the cache).
    let land: (LandingPlan, LandingMode) throws(MediaError) -> SeekLanding
    /// Whether frame `index` is known not to come out of the decoder, even decoding from the
    /// start: such a frame is stepped over instead of failing every later step on it.
    let isUndecodable: (Int) -> Bool
    /// The frame current after the step (or after a step that did not happen).
    let currentFrame: () -> FrameEntry?
    /// Whether the table's frame numbers are the stream's (a run of a playlist's segments
    /// numbers its own frames).
    var isIndexed: Bool? = nil

    /// Steps `count` frames from frame `current`. Never throws: failures are typed reasons.
    func step(_ direction: FrameStepDirection, count: Int, from current: Int) -> FrameStepReport {
        let clock = ContinuousClock()
        let start = clock.now
        func report(_ result: FrameStepResult, moved: Int, decoded: Int, errors: Int = 0) -> FrameStepReport {
            FrameStepReport(
                result: result, direction: direction, requestedCount: count, framesStepped: moved,
                frame: currentFrame(), framesDecoded: decoded, latency: clock.now - start,
                decodeErrors: errors, isIndexed: isIndexed ?? table.numbersStreamFrames)
        }
        guard isVideo else { return report(.unavailable(.audioOnly), moved: 0, decoded: 0) }
        let destination: (index: Int, moved: Int)
        switch table.stepDestination(from: current, direction, count: max(1, count)) {
        case .failure(let reason): return report(.unavailable(reason), moved: 0, decoded: 0)
        case .success(let found): destination = found
        }
        var target = destination.index
        var moved = destination.moved
        var passedOver = 0
        while true {
            do {
                // A step is a landing planned on its destination frame, carried out as seeks are.
                let plan = try table.planLanding(onFrame: target)
                let landing = try land(plan, direction == .backward ? .refillingBackward : .steppingForward)
                return report(
                    .stepped(direction, landedMediaTime: landing.frame.time), moved: moved,
                    decoded: landing.framesDecoded, errors: landing.decodeErrors + passedOver)
            } catch  where isUndecodable(target) {
                // A frame the decoder does not produce (FFmpeg's own decode lacks it too) is
                // stepped over, and the step is reported damaged: stopping there would leave
                // every later step failing on the same frame.
                let next = direction == .forward ? target + 1 : target - 1
                guard table.frames.indices.contains(next) else {
                    return report(.unavailable(.decodeFailed), moved: 0, decoded: 0)
                }
                target = next
                moved += 1
                passedOver += 1
            } catch {
                return report(.unavailable(.decodeFailed), moved: 0, decoded: 0)
            }
        }
    }
}

extension FrameStepLoop {
    /// The step on a file's table, landed by `executor`; a forward step lands in
    /// `forwardMode` (`.steppingAhead` for a step decoded ahead of its caller), its landings
    /// polling `interruption`.
    init(executor: LandingExecutor, forwardMode: LandingMode = .steppingForward, interruption: SeekInterruptionFlag? = nil) {
        self.init(
            table: executor.table, isVideo: executor.media.selectedStream.mediaType == .video,
            land: { plan, mode throws(MediaError) in
                try executor.land(plan, mode: mode == .steppingForward ? forwardMode : mode, interruption: interruption)
            },
            isUndecodable: { executor.undecodable[$0] != nil },
            currentFrame: { executor.landedFrameIndex.map { executor.table.frames[$0] } })
    }
}
