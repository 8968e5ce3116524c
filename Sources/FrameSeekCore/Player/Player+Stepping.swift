extension Player {
    /// Steps `count` frames from the current frame, in presentation order, and returns at once
    /// with the frame the step will land on: the form synchronous code calls, as the SDK's does
    /// (`let result = player.stepFrame(.forward, count: 1)`).
    ///
    /// The landed time is read from the item's frame table, so it is the frame's exact
    /// presentation time, not a guess from the frame rate; a step issued while others are
    /// pending counts from where they will land. The frame is decoded afterwards, and
    /// `onFrameStep` reports the step as it really happened (stepping over frames the decoder
    /// cannot produce can move it further, and a decode failure reports `.decodeFailed`).
    /// Unavailable at once, with the same reasons as the `async` form and an `onFrameStep` event,
    /// when nothing is loaded, a seek is landing, the media has no video, or at the edges.
    /// An item without a table (opened as needed) cannot say where a step lands before the
    /// engine has stepped: the time returned is then the playhead's when the step is issued, as
    /// the SDK reads it ("the position at the moment of the call"), and `onFrameStep` and the
    /// time updates tell where the step went.
    @discardableResult
    public func stepFrame(_ direction: FrameStepDirection, count: Int = 1) -> FrameStepResult {
        switch register(PendingStep(direction: direction, count: count, reply: .direct { _ in }), refusingFromTable: true) {
        case .answered(let result):
            return result
        case .queued(let predicted):
            return .stepped(direction, landedMediaTime: predicted)
        }
    }

    /// Steps `count` frames from the current frame, in presentation order, and returns once the
    /// frame is decoded.
    ///
    /// Unavailable with `.noCurrentItem` when nothing is loaded (or the item closes before the
    /// step runs), `.seekInProgress` while a seek is landing, `.audioOnly` for media without
    /// video, and at the edges. In an `async` context `await player.stepFrame(...)` is this
    /// form.
    @discardableResult
    public func stepFrame(_ direction: FrameStepDirection, count: Int = 1) async -> FrameStepResult {
        await stepFrameReport(direction, count: count).result
    }

    /// `stepFrame` with where it went and what it cost.
    public func stepFrameReport(_ direction: FrameStepDirection, count: Int = 1) async -> FrameStepReport {
        await withCheckedContinuation { continuation in
            register(PendingStep(direction: direction, count: count, reply: .resume(continuation)), refusingFromTable: false)
        }
    }

    /// Registers `step` and, when it is not answered at once, queues it on the engine in the
    /// same transition (invariant 11).
    @discardableResult
    private func register(_ step: PendingStep, refusingFromTable: Bool) -> PlayerState.StepRegistration {
        let host = self.host, machine = self.machine
        return machine.apply { s, events in
            let id = s.makeID()
            let registration = s.registerStep(id: id, step, refusingFromTable: refusingFromTable, into: &events)
            if case .queued = registration { Self.run(stepID: id, step, on: host, machine: machine) }
            return registration
        }
    }

    /// Queues registered step `id` on the engine and commits what it did.
    private static func run(stepID id: UInt64, _ step: PendingStep, on host: EngineHost, machine: PlayerStateMachine) {
        host.schedule { engine in
            guard let playhead = machine.read({ $0.stepToRun(id: id) }) else { return }
            let report =
                engine.map { Self.step($0, from: playhead, step.direction, count: step.count) }
                ?? step.unavailable(.noCurrentItem)
            machine.apply { s, events in s.commitStep(id: id, report, into: &events) }
        }
    }

    /// Steps from the playhead. On the engine queue.
    ///
    /// The engine's current frame can differ from the playhead: a seek that landed on the
    /// engine just as it was superseded leaves the engine there. The engine is put back on
    /// the playhead's frame first (a cache hit).
    private static func step(
        _ engine: any PlaybackEngine, from playhead: MediaTime,
        _ direction: FrameStepDirection, count: Int
    ) -> FrameStepReport {
        // Before any landing an engine stands on its first frame; one that has not indexed its
        // frames (a playlist read as needed) is put on the playhead's.
        let engineTime = engine.currentFrameTime ?? engine.indexedFrameTable?.frames.first?.time
        if engine.media.selectedStream.mediaType == .video, engineTime != playhead {
            _ = try? engine.seek(to: playhead, precision: .exact)
        }
        return engine.step(direction, count: max(1, count))
    }
}
