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
        let blocked: FrameStepUnavailableReason? = state.withLock { s in
            if s.item == nil { return .noCurrentItem }
            if s.activeSeek != nil { return .seekInProgress }
            return nil
        }
        let report: FrameStepReport
        if let blocked {
            report = FrameStepReport(result: .unavailable(blocked), direction: direction, requestedCount: count,
                                     framesStepped: 0, frame: nil, framesDecoded: 0, latency: .zero)
        } else if let stepped = await host.perform({ engine in engine.step(direction, count: max(1, count)) }) {
            report = stepped
        } else {
            report = FrameStepReport(result: .unavailable(.noCurrentItem), direction: direction, requestedCount: count,
                                     framesStepped: 0, frame: nil, framesDecoded: 0, latency: .zero)
        }
        let update: (MediaTime, MediaTime)? = state.withLock { s in
            guard case .stepped(_, let landed) = report.result else { return nil }
            s.currentTime = landed
            return (landed, s.item?.duration ?? .indefinite)
        }
        let result = report.result
        events.toListeners { $0.onFrameStep(result) }
        if let (time, duration) = update { events.toDelegate { $0.onTimeUpdate(currentTime: time, duration: duration) } }
        return report
    }
}
