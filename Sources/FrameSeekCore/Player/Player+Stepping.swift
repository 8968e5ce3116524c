extension Player {
    /// Steps `count` frames from the current frame, in presentation order.
    ///
    /// Unavailable with `.noCurrentItem` when nothing is loaded, `.seekInProgress` while a
    /// seek is landing, `.audioOnly` for media without video, and at the edges.
    public func stepFrame(_ direction: FrameStepDirection, count: Int = 1) async -> FrameStepResult {
        await stepFrameReport(direction, count: count).result
    }

    /// `stepFrame` with where it went and what it cost.
    public func stepFrameReport(_ direction: FrameStepDirection, count: Int = 1) async -> FrameStepReport {
        let (blocked, generation) = state.withLock { s -> (FrameStepUnavailableReason?, UInt64) in
            if s.item == nil { return (.noCurrentItem, s.generation) }
            if s.activeSeek != nil { return (.seekInProgress, s.generation) }
            return (nil, s.generation)
        }
        let report: FrameStepReport
        if let blocked {
            report = FrameStepReport(result: .unavailable(blocked), direction: direction, requestedCount: count,
                                     framesStepped: 0, frame: nil, framesDecoded: 0, latency: .zero)
        } else if let stepped = await host.perform({ engine in
            self.stepOnEngine(engine, direction, count: count, generation: generation)
        }) {
            report = stepped
        } else {
            report = FrameStepReport(result: .unavailable(.noCurrentItem), direction: direction, requestedCount: count,
                                     framesStepped: 0, frame: nil, framesDecoded: 0, latency: .zero)
        }
        let update: (MediaTime, MediaTime)? = state.withLock { s in
            guard case .stepped(_, let landed) = report.result, s.currentTime == landed else { return nil }
            return (landed, s.item?.duration ?? .indefinite)
        }
        let result = report.result
        events.toListeners { $0.onFrameStep(result) }
        if let (time, duration) = update { events.toDelegate { $0.onTimeUpdate(currentTime: time, duration: duration) } }
        return report
    }

    /// Steps from the playhead. Runs on the engine queue.
    ///
    /// The engine's current frame can differ from the playhead: a seek that landed on the
    /// engine just as it was cancelled leaves the engine there. The engine is put back on the
    /// playhead's frame first (a cache hit), and the playhead moves only if no seek was
    /// issued meanwhile, since that seek will move it.
    private func stepOnEngine(_ engine: any PlaybackEngine, _ direction: FrameStepDirection, count: Int,
                              generation: UInt64) -> FrameStepReport {
        let (playhead, current) = state.withLock { ($0.currentTime, $0.generation) }
        // Closed or reloaded since the step was asked for: the item it was for is gone.
        guard current == generation else {
            return FrameStepReport(result: .unavailable(.noCurrentItem), direction: direction, requestedCount: count,
                                   framesStepped: 0, frame: nil, framesDecoded: 0, latency: .zero)
        }
        let engineTime = engine.currentFrameIndex.map { engine.frameTable.frames[$0].time } ?? engine.frameTable.frames.first?.time
        if engine.media.selectedStream.mediaType == .video, engineTime != playhead {
            _ = try? engine.seek(to: playhead, precision: .exact)
        }
        let report = engine.step(direction, count: max(1, count))
        if case .stepped(_, let landed) = report.result {
            state.withLock { s in
                if s.activeSeek == nil && s.generation == generation && s.item != nil { s.currentTime = landed }
            }
        }
        return report
    }
}
