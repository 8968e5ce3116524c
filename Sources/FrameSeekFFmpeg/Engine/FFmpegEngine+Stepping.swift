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
        let clock = ContinuousClock()
        let start = clock.now
        let current = landedFrameIndex ?? 0
        func report(_ result: FrameStepResult, moved: Int, decoded: Int, errors: Int = 0) -> FrameStepReport {
            FrameStepReport(result: result, direction: direction, requestedCount: count, framesStepped: moved,
                            frame: landedFrameIndex.map { frameTable.frames[$0] }, framesDecoded: decoded,
                            latency: clock.now - start, decodeErrors: errors)
        }
        guard media.selectedStream.mediaType == .video else {
            return report(.unavailable(.audioOnly), moved: 0, decoded: 0)
        }
        let destination: (index: Int, moved: Int)
        switch frameTable.stepDestination(from: current, direction, count: max(1, count)) {
        case .failure(let reason): return report(.unavailable(reason), moved: 0, decoded: 0)
        case .success(let found): destination = found
        }
        var target = destination.index
        var moved = destination.moved
        var passedOver = 0
        while true {
            do {
                // A step is a landing planned on its destination frame, carried out as seeks are.
                let plan = try frameTable.planLanding(onFrame: target)
                let landing = try land(plan, mode: direction == .backward ? .refillingBackward : .decode)
                return report(.stepped(direction, landedMediaTime: landing.frame.time), moved: moved,
                              decoded: landing.framesDecoded, errors: landing.decodeErrors + passedOver)
            } catch where undecodable[target] != nil {
                // A frame the decoder does not produce (FFmpeg's own decode lacks it too) is
                // stepped over, and the step is reported damaged: stopping there would leave
                // every later step failing on the same frame.
                let next = direction == .forward ? target + 1 : target - 1
                guard frameTable.frames.indices.contains(next) else {
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
