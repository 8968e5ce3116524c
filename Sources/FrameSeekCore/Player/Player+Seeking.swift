import Foundation

extension Player {
    /// Seeks to `time` with `precision` and returns where the seek landed.
    ///
    /// A newer seek supersedes this one: it stops decoding at once and returns with
    /// `interruption == .superseded`. Cancelling the calling task, `cancelPendingSeeks()` or
    /// `close()` give `.cancelled`. With nothing loaded it returns at once with `.notReady`
    /// and clamp `seekableRangeUnknown`.
    public func seek(to time: MediaTime, precision: SeekPrecision = .exact) async -> SeekOutcome {
        let ticket = register(time, precision)
        return await execute(ticket)
    }

    /// `seek(to:precision:)` with `Double` seconds, read as the decimal they print as.
    public func seek(to seconds: Double, precision: SeekPrecision = .exact) async -> SeekOutcome {
        await seek(to: MediaTime(decimalSeconds: seconds), precision: precision)
    }

    /// Seeks and calls `completion` on the callback queue. The seek is registered before this
    /// method returns, so seeks issued one after another supersede in the order issued.
    public func seek(to time: MediaTime, precision: SeekPrecision = .exact,
                     completion: @escaping @Sendable (SeekOutcome) -> Void) {
        let ticket = register(time, precision)
        execute(ticket) { outcome in self.events.deliver { completion(outcome) } }
    }

    /// The completion-handler form with `Double` seconds.
    public func seek(to seconds: Double, precision: SeekPrecision = .exact,
                     completion: @escaping @Sendable (SeekOutcome) -> Void) {
        seek(to: MediaTime(decimalSeconds: seconds), precision: precision, completion: completion)
    }

    /// Makes `time` the seek that will move the playhead, superseding the one in flight.
    func register(_ time: MediaTime, _ precision: SeekPrecision) -> SeekTicket? {
        let ticket = SeekTicket(target: time, precision: precision, flag: SeekInterruptionFlag(),
                                start: ContinuousClock.now)
        let loaded = state.withLock { s -> Bool in
            guard s.item != nil else { return false }
            s.activeSeek?.flag.interrupt(.superseded)
            s.activeSeek = ticket
            return true
        }
        guard loaded else {
            ticket.flag.interrupt(.notReady)
            return ticket
        }
        events.toDelegate { $0.onSeekStart(time) }
        return ticket
    }

    /// What a seek came to on the engine queue.
    private enum EngineVerdict: Sendable {
        case landed(SeekLanding)
        case interrupted(SeekInterruption, framesDecoded: Int)
        case failed(MediaError)
        case noEngine
    }

    /// Runs a registered seek on the engine and reports it.
    ///
    /// Whether the seek moves the playhead is decided on the engine queue, right after the
    /// frame comes out, under the player's lock: supersession and cancel take the same lock,
    /// so a seek either lands and moves the playhead, or is interrupted and moves nothing. Its
    /// events are queued there too, so seeks report in the order the engine finished them.
    func execute(_ ticket: SeekTicket?) async -> SeekOutcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                execute(ticket) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            ticket?.flag.interrupt(.cancelled)
        }
    }

    /// Queues a registered seek on the engine at once (so seeks run, and report, in the order
    /// they were issued) and calls `deliver` with its outcome, on the engine queue.
    func execute(_ ticket: SeekTicket?, deliver: @escaping @Sendable (SeekOutcome) -> Void) {
        guard let ticket else { return deliver(notReady(MediaTime.invalid, .exact, ContinuousClock.now)) }
        if ticket.flag.interruption == .notReady {
            return deliver(notReady(ticket.target, ticket.precision, ticket.start))
        }
        host.schedule { engine in
            let verdict = engine.map { self.run(ticket, on: $0) } ?? .noEngine
            let outcome = self.outcome(of: ticket, verdict)
            self.finish(ticket, outcome)
            deliver(outcome)
        }
    }

    /// The seek on the engine, and the commit that moves the playhead. On the engine queue.
    private func run(_ ticket: SeekTicket, on engine: any PlaybackEngine) -> EngineVerdict {
        let flag = ticket.flag
        if let interruption = flag.interruption { return .interrupted(interruption, framesDecoded: 0) }
        do throws(MediaError) {
            let landing = try engine.seek(to: ticket.target, precision: ticket.precision, interruption: flag)
            let committed = state.withLock { s -> Bool in
                guard flag.interruption == nil, s.activeSeek?.flag === flag else { return false }
                s.activeSeek = nil
                s.currentTime = landing.frame.time
                return true
            }
            return committed ? .landed(landing) : .interrupted(flag.interruption ?? .superseded, framesDecoded: landing.framesDecoded)
        } catch where error.reason == .interrupted {
            return .interrupted(flag.interruption ?? .cancelled, framesDecoded: 0)
        } catch {
            return .failed(error)
        }
    }

    private func outcome(of ticket: SeekTicket, _ verdict: EngineVerdict) -> SeekOutcome {
        let latency = ContinuousClock.now - ticket.start
        let clamp = state.withLock { $0.item?.clamp(for: ticket.target) } ?? .seekableRangeUnknown
        switch verdict {
        case .landed(let landing):
            return SeekOutcome(landing: landing, latency: latency)
        case .interrupted(let interruption, let framesDecoded):
            return SeekOutcome(requested: ticket.target, precision: ticket.precision, clamp: clamp,
                               interruption: interruption, latency: latency, framesDecoded: framesDecoded)
        case .failed(let error):
            return SeekOutcome(requested: ticket.target, precision: ticket.precision, clamp: clamp,
                               interruption: ticket.flag.interruption ?? .failed, latency: latency, error: error)
        case .noEngine:
            // Closed (or never loaded) before the seek ran: a close reports itself as the cancel it was.
            return SeekOutcome(requested: ticket.target, precision: ticket.precision, clamp: .seekableRangeUnknown,
                               interruption: ticket.flag.interruption ?? .notReady, latency: latency)
        }
    }

    private func notReady(_ time: MediaTime, _ precision: SeekPrecision, _ start: ContinuousClock.Instant) -> SeekOutcome {
        let outcome = SeekOutcome(requested: time, precision: precision, clamp: .seekableRangeUnknown,
                                  interruption: .notReady, latency: ContinuousClock.now - start)
        let accuracy = outcome.accuracy
        events.toListeners { $0.onSeekAccuracy(accuracy, outcome: outcome) }
        return outcome
    }

    /// Tells the listeners, in order: clamp (only if the seek landed on a moved target),
    /// accuracy, seek end, time. The playhead already moved on the engine queue.
    private func finish(_ ticket: SeekTicket, _ outcome: SeekOutcome) {
        let (playhead, duration) = state.withLock { s -> (MediaTime, MediaTime) in
            if s.activeSeek?.flag === ticket.flag { s.activeSeek = nil }
            return (s.currentTime, s.item?.duration ?? .indefinite)
        }
        let clamp = outcome.clamp
        if outcome.finished && clamp.didClamp { events.toListeners { $0.onSeekClamped(clamp) } }
        let accuracy = outcome.accuracy
        events.toListeners { $0.onSeekAccuracy(accuracy, outcome: outcome) }
        events.toDelegate { $0.onSeekEnd(at: playhead) }
        if outcome.finished { events.toDelegate { $0.onTimeUpdate(currentTime: playhead, duration: duration) } }
    }
}
