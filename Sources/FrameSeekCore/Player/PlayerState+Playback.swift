// Headless playback as transitions on `PlayerState`: a session anchored at a clock reading and a
// media time, ticks planned and committed under the one lock, so a seek, a step, a pause, a
// close or a load that comes between a tick's plan and its commit always wins over the tick.

import Foundation

/// One `play(rate:)` until the next `pause()`, end, `close()` or `load()`.
struct PlaybackSession: Sendable {
    let id: UInt64
    let rate: Double
    /// The clock reading media time is measured from; nil after a seek or step landed, until
    /// the next tick re-anchors (the clock is read on the engine's queue, not in transitions).
    var anchorClock: Duration?
    /// The media time at `anchorClock`.
    var anchorMedia: MediaTime
    /// The media time at or after which the next `onTimeUpdate` is due.
    var nextTimeUpdate: MediaTime
    /// The time of the frame the last tick left the engine on, ahead of the playhead and not
    /// due yet (playback without the frame table: `Player.advanceUnindexedVideo`); nil when
    /// the engine stands on the playhead's frame.
    var heldFrame: MediaTime? = nil
}

/// What came of a tick's commit.
enum TickCommit: Sendable, Equatable {
    /// Schedule the next tick.
    case goOn
    /// The session is over (paused, replaced, item gone): nothing more.
    case stop
    /// This tick reached the end of the item and the session ended there; `next` is the
    /// playlist's advance to its next item, registered in the same commit, if there is one.
    case ended(next: AdvanceAfterEnd?)
}

/// What a tick should do, decided under the lock.
enum TickPlan: Sendable {
    /// The session ended: schedule nothing more.
    case stop
    /// A seek, step or load is in flight: it moves the playhead; try again later.
    case wait
    /// Bring the playhead to `target`.
    case advance(
        target: MediaTime, playhead: MediaTime, heldFrame: MediaTime?, identity: ItemIdentity, isVideo: Bool,
        end: MediaTime, nextTimeUpdate: MediaTime)
}

extension PlayerState {
    /// The default interval of `onTimeUpdate` during playback: 0.1 s of media time.
    static let defaultTimeUpdateInterval = MediaTime(value: 1, timescale: 10)

    /// `play(rate:)`: a new session from the playhead (replacing any running one). The user's
    /// rate wins over the one a playlist advance would resume at.
    mutating func startPlaying(id: UInt64, rate: Double, now: Duration, into events: inout [PlayerEmission]) -> Bool {
        guard item != nil, !loading else { return false }
        pendingResume = nil
        playback = PlaybackSession(
            id: id, rate: rate, anchorClock: now, anchorMedia: playhead,
            nextTimeUpdate: playhead + timeUpdateInterval)
        events.append(.playbackRate(rate, playhead))
        return true
    }

    /// `pause()`, or the end of the session for a close or load: the playhead stays.
    mutating func stopPlaying(into events: inout [PlayerEmission]) {
        guard playback != nil else { return }
        playback = nil
        events.append(.playbackRate(0, playhead))
    }

    /// A seek or step moved the playhead: playback goes on from there, anchored at the next tick.
    mutating func reanchorPlayback() {
        guard var session = playback else { return }
        session.anchorClock = nil
        session.heldFrame = nil
        session.anchorMedia = playhead
        session.nextTimeUpdate = playhead + timeUpdateInterval
        playback = session
    }

    /// A tick of session `id` at clock reading `now`.
    mutating func planTick(id: UInt64, now: Duration) -> TickPlan {
        guard var session = playback, session.id == id, let item else { return .stop }
        if loading || activeSeek != nil || !pendingSteps.isEmpty { return .wait }
        let anchor = session.anchorClock ?? now
        session.anchorClock = anchor
        playback = session
        let target = Self.mediaTime(from: session.anchorMedia, elapsed: now - anchor, rate: session.rate)
        return .advance(
            target: target, playhead: playhead, heldFrame: session.heldFrame, identity: item.identity,
            isVideo: item.media.selectedStream.mediaType == .video, end: item.duration,
            nextTimeUpdate: session.nextTimeUpdate)
    }

    /// The engine brought session `id`'s item to `time` for a tick aimed at `target`; `ended`
    /// when the target reached the end. Dropped (returns whether ticks go on) when the session,
    /// the item or the playhead's owner changed meanwhile: a seek or step registered since wins.
    mutating func commitTick(
        id: UInt64, identity: ItemIdentity, target: MediaTime, landed time: MediaTime, heldFrame: MediaTime?,
        ended: Bool, into events: inout [PlayerEmission]
    ) -> TickCommit {
        guard var session = playback, session.id == id else { return .stop }
        guard item?.identity == identity, activeSeek == nil, pendingSteps.isEmpty else { return .goOn }
        session.heldFrame = heldFrame
        let moved = time != playhead
        playhead = time
        if moved { events.append(.playbackProgress(time, duration: duration)) }
        if ended {
            playback = nil
            events.append(.timeUpdate(time, duration: duration))
            events.append(.playbackEnded(time, duration: duration))
            return .ended(next: registerAdvance(afterEndOf: identity, playingAt: session.rate))
        }
        if target >= session.nextTimeUpdate {
            session.nextTimeUpdate = target + timeUpdateInterval
            events.append(.timeUpdate(time, duration: duration))
        }
        playback = session
        return .goOn
    }

    /// `anchor + elapsed × rate`, to the microsecond (a grid on which 1/30, 1/25, 1/24, 1/1000
    /// and every common audio rate's timescale combine exactly with 1/1 000 000).
    static func mediaTime(from anchor: MediaTime, elapsed: Duration, rate: Double) -> MediaTime {
        let (seconds, attoseconds) = elapsed.components
        let micros = (Double(seconds) * 1_000_000 + Double(attoseconds) / 1_000_000_000_000) * rate
        return anchor + MediaTime(value: Int64(micros.rounded(.down)), timescale: 1_000_000)
    }
}
