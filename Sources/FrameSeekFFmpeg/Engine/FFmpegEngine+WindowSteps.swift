import FrameSeekCore

extension FFmpegEngine {
    /// Makes the seek window the engine plans on hold the frame `count` steps from the landed
    /// one in `direction`, reading another window around the landed frame when it does not:
    /// ahead of it for a forward step, behind it for a backward one, twice as far each time
    /// until the destination is among the frames the window proved complete, or the window
    /// reaches the stream's end or start (where the step stops at the edge, as on the whole
    /// table). False when the engine plans on the whole table, or no window can be read; the
    /// whole table must answer then.
    func prepareWindow(forStep direction: FrameStepDirection, count: Int) throws(MediaError) -> Bool {
        guard let deferredIndex, !executor.table.coversStream, let current = executor.landedFrameIndex else { return false }
        let currentFrame = executor.table.frames[current]
        let landedPTS = currentFrame.pts
        let steps = Int64(clamping: max(1, count))
        // A first guess at how far the destination lies: the landed frame's duration per step,
        // and one more. A count near Int.max overflows it, and the whole table answers.
        let (framesAhead, tooMany) = steps.addingReportingOverflow(1)
        var reach = max(1, currentFrame.durationTicks).multipliedReportingOverflow(by: tooMany ? steps : framesAhead)
        for attempt in 0..<SeekWindowReader.stepsBack {
            if windowHolds(stepsFrom: landedPTS, direction, count: steps, deferredIndex: deferredIndex) { return true }
            guard !reach.overflow else { return false }
            let (start, end): (Int64, Int64?)
            switch direction {
            case .forward where attempt == 0 && landedPTS < .max:
                // First the rest of the GOP, through the next keyframe, as a player reads on: a
                // window is read from the random access point before it, so steps that go on
                // (playback) would otherwise read that point's frames again every frame or two.
                // Just past the landed frame, so a landed keyframe starts the GOP read.
                (start, end) = (landedPTS + 1, nil)
            case .forward:
                let (far, overflow) = landedPTS.addingReportingOverflow(reach.partialValue)
                (start, end) = (landedPTS, overflow ? .max : far)
            case .backward:
                let (far, overflow) = landedPTS.subtractingReportingOverflow(reach.partialValue)
                (start, end) = (overflow ? .min : far, landedPTS)
            }
            guard try readWindow(from: start, through: end, deferredIndex: deferredIndex) != nil,
                executor.landedFrameIndex != nil
            else { return false }
            reach = reach.partialValue.multipliedReportingOverflow(by: 2)
        }
        return windowHolds(stepsFrom: landedPTS, direction, count: steps, deferredIndex: deferredIndex)
    }

    /// Whether the current window lists the frame `count` steps from the frame presented at
    /// `pts`, and every frame between: or runs to the edge of the stream that way.
    private func windowHolds(
        stepsFrom pts: Int64, _ direction: FrameStepDirection, count: Int64, deferredIndex: DeferredIndex
    ) -> Bool {
        let table = executor.table
        guard let span = deferredIndex.window, let current = table.frameIndex(ofPTS: pts) else { return false }
        switch direction {
        case .forward:
            if span.upperBound == .max { return true }
            let (destination, overflow) = current.addingReportingOverflow(Int(clamping: count))
            return !overflow && destination < table.frames.count && table.frames[destination].pts <= span.upperBound
        case .backward:
            return deferredIndex.windowStartsStream || Int64(current) >= count
        }
    }
}
