/// A scrub gesture coalesced into one seek.
///
/// `updateScrubbing(to:)` issues no seek, ever: it records the proposed time and emits
/// position events at most once per `positionThrottle`, so it is safe at touch rate.
/// `endScrubbing(at:precision:)` issues the session's one seek; `cancelScrubbing()` issues
/// none and leaves the playhead where it was. Beginning a new scrub while the end seek is in
/// flight supersedes that seek.
///
/// The session's state is part of the player's one state value (`PlayerState.scrub`), so a
/// scrub and a seek never race on two locks: the transition that ends the end seek (landing,
/// supersession, cancel, close) is the one that returns the session to idle.
public final class ScrubSession: Sendable {
    /// The default throttle for position events: 0.1 s.
    public static let defaultPositionThrottle: Duration = .milliseconds(100)

    private let machine: PlayerStateMachine
    private let host: EngineHost
    private let clock: any PlayerClock

    init(machine: PlayerStateMachine, host: EngineHost, clock: any PlayerClock) {
        self.machine = machine
        self.host = host
        self.clock = clock
    }

    /// The minimum time between two position events.
    public var positionThrottle: Duration {
        get { machine.read(\.scrub.throttle) }
        set { machine.update { $0.scrub.throttle = newValue } }
    }

    /// Where the session stands.
    public var scrubState: ScrubState { machine.read(\.scrub.state) }

    /// True while scrubbing or seeking.
    public var isActive: Bool { scrubState.isActive }

    /// Updates so far in this session.
    public var sampleCount: Int { machine.read(\.scrub.sampleCount) }

    /// Starts a session at `time` (usually the player's current time). A seek still landing
    /// from the previous session is superseded.
    public func beginScrubbing(at time: MediaTime) {
        machine.apply { s, events in s.beginScrub(at: time, into: &events) }
    }

    /// `beginScrubbing(at:)` with `Double` seconds.
    public func beginScrubbing(at seconds: Double) { beginScrubbing(at: MediaTime(decimalSeconds: seconds)) }

    /// Records a proposed time. Issues no seek. Emits a position event when
    /// `positionThrottle` has passed since the last one. Ignored outside a session.
    public func updateScrubbing(to time: MediaTime) {
        let now = clock.now()
        machine.apply { s, events in s.updateScrub(to: time, now: now, into: &events) }
    }

    /// `updateScrubbing(to:)` with `Double` seconds.
    public func updateScrubbing(to seconds: Double) { updateScrubbing(to: MediaTime(decimalSeconds: seconds)) }

    /// Ends the session with its one seek, to `time` at `precision`; `completion` runs on the
    /// callback queue with the seek's outcome and the session's sample count. Outside a
    /// session it issues no seek and completes with no outcome.
    public func endScrubbing(
        at time: MediaTime, precision: SeekPrecision = .exact,
        completion: (@Sendable (ScrubSessionResult) -> Void)? = nil
    ) {
        let end = startEnd(at: time, precision: precision) { sampleCount in
            .callback { outcome in completion?(ScrubSessionResult(outcome: outcome, sampleCount: sampleCount)) }
        }
        if case .noSession(let sampleCount) = end, let completion {
            machine.apply { _, events in
                events.append(.callback { completion(ScrubSessionResult(outcome: nil, sampleCount: sampleCount)) })
            }
        }
    }

    /// `endScrubbing` with `Double` seconds.
    public func endScrubbing(
        at seconds: Double, precision: SeekPrecision = .exact,
        completion: (@Sendable (ScrubSessionResult) -> Void)? = nil
    ) {
        endScrubbing(at: MediaTime(decimalSeconds: seconds), precision: precision, completion: completion)
    }

    /// Ends the session with its one seek and returns how it ended.
    public func endScrubbing(at time: MediaTime, precision: SeekPrecision = .exact) async -> ScrubSessionResult {
        var count = 0
        var hadSession = true
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<SeekOutcome, Never>) in
            let end = startEnd(at: time, precision: precision) { sampleCount in
                count = sampleCount
                return .resume(continuation)
            }
            if case .noSession(let sampleCount) = end {
                (count, hadSession) = (sampleCount, false)
                // No seek was issued; the value is only there to resume, and is dropped below.
                continuation.resume(
                    returning: SeekOutcome(
                        requested: time, precision: precision, clamp: .seekableRangeUnknown,
                        interruption: .cancelled, playhead: .invalid, latency: .zero))
            }
        }
        return ScrubSessionResult(outcome: hadSession ? outcome : nil, sampleCount: count)
    }

    /// `endScrubbing(at:precision:) async` with `Double` seconds.
    public func endScrubbing(at seconds: Double, precision: SeekPrecision = .exact) async -> ScrubSessionResult {
        await endScrubbing(at: MediaTime(decimalSeconds: seconds), precision: precision)
    }

    /// Moves the session to seeking, registers its seek and queues it on the engine, in one
    /// transition.
    private func startEnd(
        at time: MediaTime, precision: SeekPrecision,
        reply: (Int) -> Reply<SeekOutcome>
    ) -> PlayerState.ScrubEnd {
        let started = ContinuousClock.now
        let host = self.host, machine = self.machine
        return machine.apply { s, events in
            let end = s.endScrub(id: s.makeID(), at: time, precision: precision, start: started, reply: reply, into: &events)
            // Queued in the seek's own transition (PlayerState invariant 11).
            if case .run(let seek) = end { Player.run(seek, on: host, machine: machine) }
            return end
        }
    }

    /// Where previews come from; nil (the default) means no previews.
    public var previewProvider: (any ScrubPreviewProvider)? {
        get { machine.read(\.previewProvider) }
        set { machine.update { $0.previewProvider = newValue } }
    }

    /// The preview picture for a proposed time, from `previewProvider`: a decoder of its own,
    /// never a seek of the playhead. Nil without a provider.
    public func preview(at time: MediaTime) async -> ScrubPreview? {
        guard let provider = previewProvider else { return nil }
        return await provider.preview(at: time)
    }

    /// Ends the session without seeking; the playhead stays where it was. If the end seek is
    /// already in flight, it is cancelled.
    public func cancelScrubbing() {
        machine.apply { s, events in s.cancelScrub(into: &events) }
    }
}
