extension Player {
    /// Steps `count` frames from the current frame, in presentation order.
    ///
    /// Unavailable with `.noCurrentItem` when nothing is loaded (or the item closes before the
    /// step runs), `.seekInProgress` while a seek is landing, `.audioOnly` for media without
    /// video, and at the edges.
    public func stepFrame(_ direction: FrameStepDirection, count: Int = 1) async -> FrameStepResult {
        await stepFrameReport(direction, count: count).result
    }

    /// `stepFrame` with where it went and what it cost.
    public func stepFrameReport(_ direction: FrameStepDirection, count: Int = 1) async -> FrameStepReport {
        let machine = self.machine
        return await withCheckedContinuation { continuation in
            let step = PendingStep(direction: direction, count: count, reply: .resume(continuation))
            let queued = machine.apply { s, events -> UInt64? in
                let id = s.makeID()
                return s.registerStep(id: id, step, into: &events) ? id : nil
            }
            guard let id = queued else { return }
            host.schedule { engine in
                guard let playhead = machine.read({ $0.stepToRun(id: id) }) else { return }
                let report = engine.map { Self.step($0, from: playhead, direction, count: count) }
                    ?? step.unavailable(.noCurrentItem)
                machine.apply { s, events in s.commitStep(id: id, report, into: &events) }
            }
        }
    }

    /// Steps from the playhead. On the engine queue.
    ///
    /// The engine's current frame can differ from the playhead: a seek that landed on the
    /// engine just as it was superseded leaves the engine there. The engine is put back on
    /// the playhead's frame first (a cache hit).
    private static func step(_ engine: any PlaybackEngine, from playhead: MediaTime,
                             _ direction: FrameStepDirection, count: Int) -> FrameStepReport {
        let table = engine.frameTable
        let engineTime = engine.currentFrameIndex.map { table.frames[$0].time } ?? table.frames.first?.time
        if engine.media.selectedStream.mediaType == .video, engineTime != playhead {
            _ = try? engine.seek(to: playhead, precision: .exact)
        }
        return engine.step(direction, count: max(1, count))
    }
}
