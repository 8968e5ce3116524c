
/// A scrub gesture coalesced into one seek.
///
/// `updateScrubbing(to:)` issues no seek, ever: it records the proposed time and emits
/// position events at most once per `positionThrottle`, so it is safe at touch rate.
/// `endScrubbing(at:precision:)` issues the session's one seek; `cancelScrubbing()` issues
/// none and leaves the playhead where it was. Beginning a new scrub while the end seek is in
/// flight supersedes that seek.
public final class ScrubSession: Sendable {
    /// The default throttle for position events: 0.1 s.
    public static let defaultPositionThrottle: Duration = .milliseconds(100)

    private struct State {
        var scrub: ScrubState = .idle
        var sampleCount = 0
        var position: MediaTime = .zero
        var lastPositionEvent: Duration?
        var throttle = ScrubSession.defaultPositionThrottle
        var endSeek: SeekInterruptionFlag?
        /// Counts sessions, so an old session's end seek does not reset a newer session.
        var generation = 0
    }

    private let state = Locked(State())
    private let previews = Locked<(any ScrubPreviewProvider)?>(nil)
    private let events: PlayerEvents
    private let clock: any PlayerClock
    private let owner = Locked(WeakPlayer())

    private struct WeakPlayer: Sendable { weak var player: Player? }

    init(events: PlayerEvents, clock: any PlayerClock) {
        self.events = events
        self.clock = clock
    }

    func attach(to player: Player) { owner.withLock { $0.player = player } }

    /// The minimum time between two position events.
    public var positionThrottle: Duration {
        get { state.withLock { $0.throttle } }
        set { state.withLock { $0.throttle = newValue } }
    }

    /// Where the session stands.
    public var scrubState: ScrubState { state.withLock { $0.scrub } }

    /// True while scrubbing or seeking.
    public var isActive: Bool { scrubState.isActive }

    /// Updates so far in this session.
    public var sampleCount: Int { state.withLock { $0.sampleCount } }

    /// Starts a session at `time` (usually the player's current time). A seek still landing
    /// from the previous session is superseded.
    public func beginScrubbing(at time: MediaTime) {
        state.withLock { s in
            s.endSeek?.interrupt(.superseded)
            s.endSeek = nil
            s.generation += 1
            s.scrub = .scrubbing
            s.sampleCount = 0
            s.position = time
            s.lastPositionEvent = nil
            events.toListeners { $0.onScrubStateChanged(.scrubbing) }
        }
    }

    /// `beginScrubbing(at:)` with `Double` seconds.
    public func beginScrubbing(at seconds: Double) { beginScrubbing(at: MediaTime(decimalSeconds: seconds)) }

    /// Records a proposed time. Issues no seek. Emits a position event when
    /// `positionThrottle` has passed since the last one. Ignored outside a session.
    public func updateScrubbing(to time: MediaTime) {
        let now = clock.now()
        state.withLock { s in
            guard s.scrub == .scrubbing else { return }
            s.sampleCount += 1
            s.position = time
            if let last = s.lastPositionEvent, now - last < s.throttle { return }
            s.lastPositionEvent = now
            let position = ScrubPosition(time: time, sampleCount: s.sampleCount)
            events.toListeners { $0.onScrubPositionChanged(position) }
        }
    }

    /// `updateScrubbing(to:)` with `Double` seconds.
    public func updateScrubbing(to seconds: Double) { updateScrubbing(to: MediaTime(decimalSeconds: seconds)) }

    /// Ends the session with its one seek, to `time` at `precision`; `completion` runs on the
    /// callback queue with the seek's outcome and the session's sample count. Outside a
    /// session it issues no seek and completes with no outcome.
    public func endScrubbing(at time: MediaTime, precision: SeekPrecision = .exact,
                             completion: (@Sendable (ScrubSessionResult) -> Void)? = nil) {
        // The seek is registered before this returns, so a begin right after it supersedes
        // exactly this seek and never finds its session taken over later.
        let started = startEnd(at: time, precision: precision)
        Task { [self] in
            let result = await finishEnd(started)
            if let completion { events.deliver { completion(result) } }
        }
    }

    /// `endScrubbing` with `Double` seconds.
    public func endScrubbing(at seconds: Double, precision: SeekPrecision = .exact,
                             completion: (@Sendable (ScrubSessionResult) -> Void)? = nil) {
        endScrubbing(at: MediaTime(decimalSeconds: seconds), precision: precision, completion: completion)
    }

    /// Ends the session with its one seek and returns how it ended.
    public func endScrubbing(at time: MediaTime, precision: SeekPrecision = .exact) async -> ScrubSessionResult {
        await finishEnd(startEnd(at: time, precision: precision))
    }

    /// An end seek registered, or why there is none.
    private enum EndStart: Sendable {
        case started(player: Player, ticket: SeekTicket?, sampleCount: Int, generation: Int)
        case noSession(sampleCount: Int)
    }

    /// Moves the session to seeking and registers its seek, under the session's lock.
    private func startEnd(at time: MediaTime, precision: SeekPrecision) -> EndStart {
        let player = owner.withLock { $0.player }
        return state.withLock { s in
            guard s.scrub == .scrubbing, let player else { return .noSession(sampleCount: s.sampleCount) }
            s.scrub = .seeking
            s.position = time
            let ticket = player.register(time, precision)
            s.endSeek = ticket?.flag
            events.toListeners { $0.onScrubStateChanged(.seeking) }
            return .started(player: player, ticket: ticket, sampleCount: s.sampleCount, generation: s.generation)
        }
    }

    /// Runs the registered end seek and returns the session to idle, unless a newer session began.
    private func finishEnd(_ start: EndStart) async -> ScrubSessionResult {
        let (player, ticket, count, generation): (Player, SeekTicket?, Int, Int)
        switch start {
        case .noSession(let sampleCount): return ScrubSessionResult(outcome: nil, sampleCount: sampleCount)
        case .started(let p, let t, let c, let g): (player, ticket, count, generation) = (p, t, c, g)
        }
        let outcome = await player.execute(ticket)
        state.withLock { s in
            guard s.generation == generation, s.scrub == .seeking else { return }
            s.scrub = .idle
            s.endSeek = nil
            events.toListeners { $0.onScrubStateChanged(.idle) }
        }
        return ScrubSessionResult(outcome: outcome, sampleCount: count)
    }

    /// `endScrubbing(at:precision:) async` with `Double` seconds.
    public func endScrubbing(at seconds: Double, precision: SeekPrecision = .exact) async -> ScrubSessionResult {
        await endScrubbing(at: MediaTime(decimalSeconds: seconds), precision: precision)
    }

    /// Where previews come from; nil (the default) means no previews.
    public var previewProvider: (any ScrubPreviewProvider)? {
        get { previews.withLock { $0 } }
        set { previews.withLock { $0 = newValue } }
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
        state.withLock { s in
            guard s.scrub != .idle else { return }
            s.endSeek?.interrupt(.cancelled)
            s.endSeek = nil
            s.generation += 1
            s.scrub = .idle
            events.toListeners { $0.onScrubStateChanged(.idle) }
        }
    }

    /// The player cancelled its seeks: an end seek in flight is over.
    func playerCancelledSeeks() {
        state.withLock { s in
            guard s.scrub == .seeking else { return }
            s.endSeek = nil
        }
    }
}
