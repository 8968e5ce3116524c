/// The scrub session's part of `PlayerState`, and its transitions.
struct ScrubMachine: Sendable {
    var state: ScrubState = .idle
    var sampleCount = 0
    var position: MediaTime = .zero
    var lastPositionEvent: Duration?
    var throttle = ScrubSession.defaultPositionThrottle
    /// The session's one seek while it lands (invariant 7 of `PlayerState`).
    var endSeekID: UInt64?

    /// The end seek was reported: the session is over.
    mutating func endSeekFinished(into events: inout [PlayerEmission]) {
        endSeekID = nil
        state = .idle
        events.append(.scrubState(.idle))
    }
}

extension PlayerState {
    /// `beginScrubbing(at:)`: a seek still landing from the previous session is superseded.
    mutating func beginScrub(at time: MediaTime, into events: inout [PlayerEmission]) {
        if let endSeek = scrub.endSeekID {
            scrub.endSeekID = nil  // the new session takes over; no idle in between
            if activeSeek?.id == endSeek { endActiveSeek(.superseded, into: &events) }
        }
        scrub.state = .scrubbing
        scrub.sampleCount = 0
        scrub.position = time
        scrub.lastPositionEvent = nil
        events.append(.scrubState(.scrubbing))
    }

    /// `updateScrubbing(to:)`: issues no seek; a position event at most once per throttle.
    mutating func updateScrub(to time: MediaTime, now: Duration, into events: inout [PlayerEmission]) {
        guard scrub.state == .scrubbing else { return }
        scrub.sampleCount += 1
        scrub.position = time
        if let last = scrub.lastPositionEvent, now - last < scrub.throttle { return }
        scrub.lastPositionEvent = now
        events.append(.scrubPosition(ScrubPosition(time: time, sampleCount: scrub.sampleCount)))
    }

    /// What `endScrub` decided.
    enum ScrubEnd {
        /// Queue the end seek on the engine.
        case run(PendingSeek)
        /// The end seek was answered already (nothing loaded).
        case answered
        /// There was no session to end.
        case noSession(sampleCount: Int)
    }

    /// `endScrubbing(at:precision:)`: the session's one seek. `reply` is made with the
    /// session's sample count.
    mutating func endScrub(
        id: UInt64, at time: MediaTime, precision: SeekPrecision, start: ContinuousClock.Instant,
        reply: (_ sampleCount: Int) -> Reply<SeekOutcome>,
        into events: inout [PlayerEmission]
    ) -> ScrubEnd {
        guard scrub.state == .scrubbing else { return .noSession(sampleCount: scrub.sampleCount) }
        scrub.position = time
        let seekReply = reply(scrub.sampleCount)
        guard item != nil else {
            // Nothing to land on: the session is over at once, and the seek answers notReady.
            scrub.state = .idle
            events.append(.scrubState(.idle))
            _ = registerSeek(id: id, to: time, precision: precision, start: start, reply: seekReply, into: &events)
            return .answered
        }
        switch registerSeek(id: id, to: time, precision: precision, start: start, reply: seekReply, into: &events) {
        case .run(let seek):
            scrub.state = .seeking
            scrub.endSeekID = id
            events.append(.scrubState(.seeking))
            return .run(seek)
        case .answered:
            return .answered
        }
    }

    /// `cancelScrubbing()`: no seek; an end seek in flight is cancelled.
    mutating func cancelScrub(into events: inout [PlayerEmission]) {
        guard scrub.state != .idle else { return }
        if let endSeek = scrub.endSeekID, activeSeek?.id == endSeek {
            endActiveSeek(.cancelled, into: &events)  // returns the session to idle
        } else {
            scrub.endSeekID = nil
            scrub.state = .idle
            events.append(.scrubState(.idle))
        }
    }
}
