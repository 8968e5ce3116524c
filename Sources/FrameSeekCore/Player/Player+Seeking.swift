import Foundation

extension Player {
    /// Seeks to `time` with `precision` and returns where the seek landed.
    ///
    /// A newer seek supersedes this one: it returns at once with `interruption ==
    /// .superseded`, and the engine stops decoding it. Cancelling the calling task,
    /// `cancelPendingSeeks()` or `close()` give `.cancelled`. With nothing loaded it returns
    /// at once with `.notReady` and clamp `seekableRangeUnknown`.
    ///
    /// In an `async` context `await player.seek(to:)` is this form; in synchronous code the
    /// same spelling without `await` is the completion-handler form, with no completion.
    @discardableResult
    public func seek(to time: MediaTime, precision: SeekPrecision = .exact) async -> SeekOutcome {
        let id = machine.update { $0.makeID() }
        return await awaitingSeek(id: id) { continuation in
            start(id: id, to: time, precision: precision, reply: .resume(continuation))
        }
    }

    /// `seek(to:precision:)` with `Double` seconds, read as the decimal they print as.
    @discardableResult
    public func seek(to seconds: Double, precision: SeekPrecision = .exact) async -> SeekOutcome {
        await seek(to: MediaTime(decimalSeconds: seconds), precision: precision)
    }

    /// Seeks and calls `completion`, if any, on the callback queue, after the seek's events.
    /// The seek is registered before this method returns, so seeks issued one after another
    /// supersede in the order issued, and listeners and the delegate hear it either way.
    ///
    /// This is the form synchronous code calls, as the SDK's does: `player.seek(to: 92.5)` with
    /// no completion, or with a trailing closure.
    public func seek(
        to time: MediaTime, precision: SeekPrecision = .exact,
        completion: (@Sendable (SeekOutcome) -> Void)? = nil
    ) {
        start(
            id: machine.update { $0.makeID() }, to: time, precision: precision,
            reply: .callback { completion?($0) })
    }

    /// The completion-handler form with `Double` seconds.
    public func seek(
        to seconds: Double, precision: SeekPrecision = .exact,
        completion: (@Sendable (SeekOutcome) -> Void)? = nil
    ) {
        seek(to: MediaTime(decimalSeconds: seconds), precision: precision, completion: completion)
    }

    /// Registers a seek and, when something is loaded, queues it on the engine.
    private func start(id: UInt64, to time: MediaTime, precision: SeekPrecision, reply: Reply<SeekOutcome>) {
        start(id: id, precision: precision, reply: reply) { _, _ in time }
    }

    /// Registers a seek to the time `resolve` reads from the state, in the same transition (so
    /// a seek by date uses the window current when it is registered, and no reload comes in
    /// between), and queues it on the engine. `resolve` returns nil when there is nothing to
    /// seek to, after answering the caller through the events itself.
    func start(
        id: UInt64, precision: SeekPrecision, reply: Reply<SeekOutcome>,
        resolve: (PlayerState, inout [PlayerEmission]) -> MediaTime?
    ) {
        let started = ContinuousClock.now
        let host = self.host, machine = self.machine
        machine.apply { s, events in
            guard let time = resolve(s, &events) else { return }
            let registration = s.registerSeek(id: id, to: time, precision: precision, start: started, reply: reply, into: &events)
            // Queued in the seek's own transition (invariant 11).
            if case .run(let seek) = registration { Self.run(seek, on: host, machine: machine) }
        }
    }

    /// Runs `begin`, which starts seek `id` answering `continuation`, and waits for the answer;
    /// cancelling the calling task cancels the seek.
    func awaitingSeek<Value: Sendable>(
        id: UInt64,
        _ begin: (CheckedContinuation<Value, Never>) -> Void
    ) async -> Value {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                begin(continuation)
                // A task cancelled before the seek was registered found nothing to cancel.
                if Task.isCancelled { cancelSeek(id: id) }
            }
        } onCancel: {
            cancelSeek(id: id)
        }
    }

    private func cancelSeek(id: UInt64) {
        machine.apply { s, events in s.cancelSeek(id: id, into: &events) }
    }

    /// Queues a registered seek on the engine (so seeks run in the order issued). Whether it
    /// moves the playhead is decided by `PlayerState.commitSeek`, under the lock, right after
    /// the frame comes out.
    static func run(_ seek: PendingSeek, on host: EngineHost, machine: PlayerStateMachine) {
        host.schedule { engine in
            // Ended before its turn (superseded, cancelled, closed): the engine never sees it.
            guard let flag = machine.read({ $0.seekToRun(id: seek.id) }) else { return }
            let result: PlayerState.EngineResult
            if let engine {
                do throws(MediaError) {
                    let landing = try engine.seek(to: seek.target, precision: seek.precision, interruption: flag)
                    result = .landed(landing, date: (engine as? any LivePlaybackEngine)?.landedDate)
                } catch  where error.reason == .interrupted {
                    result = .interrupted
                } catch {
                    result = .failed(error)
                }
            } else {
                result = .noEngine
            }
            machine.apply { s, events in s.commitSeek(id: seek.id, result, into: &events) }
        }
    }
}
