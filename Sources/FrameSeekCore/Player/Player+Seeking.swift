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
        Task {
            let outcome = await execute(ticket)
            events.deliver { completion(outcome) }
        }
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

    /// Runs a registered seek on the engine and reports it.
    func execute(_ ticket: SeekTicket?) async -> SeekOutcome {
        guard let ticket else { return notReady(MediaTime.invalid, .exact, ContinuousClock.now) }
        if ticket.flag.interruption == .notReady {
            return notReady(ticket.target, ticket.precision, ticket.start)
        }
        let flag = ticket.flag
        let result = await withTaskCancellationHandler {
            await host.perform { engine -> Result<SeekLanding, MediaError> in
                if let interruption = flag.interruption {
                    return .failure(MediaError(path: engine.media.path, reason: .interrupted, detail: interruption.rawValue))
                }
                do throws(MediaError) {
                    return .success(try engine.seek(to: ticket.target, precision: ticket.precision, interruption: flag))
                } catch {
                    return .failure(error)
                }
            }
        } onCancel: {
            flag.interrupt(.cancelled)
        }
        let latency = ContinuousClock.now - ticket.start
        let outcome: SeekOutcome
        switch result {
        case .success(let landing)?:
            // A newer seek issued while this one decoded moves the playhead after it: this one
            // was superseded even though its frame came out.
            if let interruption = flag.interruption {
                outcome = SeekOutcome(requested: ticket.target, precision: ticket.precision, clamp: landing.plan.clamp,
                                      interruption: interruption, latency: latency, framesDecoded: landing.framesDecoded)
            } else {
                outcome = SeekOutcome(landing: landing, latency: latency)
            }
        case .failure(let error)?:
            outcome = SeekOutcome(requested: ticket.target, precision: ticket.precision, clamp: .none,
                                  interruption: flag.interruption ?? .failed, latency: latency, error: error)
        case nil:
            outcome = SeekOutcome(requested: ticket.target, precision: ticket.precision, clamp: .seekableRangeUnknown,
                                  interruption: .notReady, latency: latency)
        }
        finish(ticket, outcome)
        return outcome
    }

    private func notReady(_ time: MediaTime, _ precision: SeekPrecision, _ start: ContinuousClock.Instant) -> SeekOutcome {
        let outcome = SeekOutcome(requested: time, precision: precision, clamp: .seekableRangeUnknown,
                                  interruption: .notReady, latency: ContinuousClock.now - start)
        let accuracy = outcome.accuracy
        events.toListeners { $0.onSeekAccuracy(accuracy, outcome: outcome) }
        return outcome
    }

    /// Moves the playhead if the seek landed and is still the current one, and tells the
    /// listeners, in order: clamp (only if the target moved), accuracy, seek end, time.
    private func finish(_ ticket: SeekTicket, _ outcome: SeekOutcome) {
        let (playhead, duration) = state.withLock { s -> (MediaTime, MediaTime) in
            if s.activeSeek?.flag === ticket.flag {
                s.activeSeek = nil
                if outcome.finished { s.currentTime = outcome.landedTime }
            }
            return (s.currentTime, s.item?.duration ?? .indefinite)
        }
        let clamp = outcome.clamp
        if clamp.didClamp { events.toListeners { $0.onSeekClamped(clamp) } }
        let accuracy = outcome.accuracy
        events.toListeners { $0.onSeekAccuracy(accuracy, outcome: outcome) }
        events.toDelegate { $0.onSeekEnd(at: playhead) }
        if outcome.finished { events.toDelegate { $0.onTimeUpdate(currentTime: playhead, duration: duration) } }
    }
}
