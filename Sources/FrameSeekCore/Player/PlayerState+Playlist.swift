// The playlist's transitions: which item is next, and whether playback resumes on it once it
// is installed. An advance loads its item through `load()` like any other, so the one thing
// kept here across that load is the resume it promised, which the user can withdraw meanwhile.

import Foundation

/// Playback an advance resumes when its item is installed.
struct PendingResume: Sendable {
    /// Which advance registered it.
    let token: UInt64
    let rate: Double
}

/// An advance past the end of an item, as registered when that end was reached.
struct AdvanceAfterEnd: Sendable, Equatable {
    let token: UInt64
    /// The item whose end was reached: the advance goes ahead only while it is still current.
    let after: ItemIdentity
}

/// Why the playlist moves on.
enum PlaylistAdvance: Sendable {
    /// `advanceToNextItem()`: playback, if it runs or an end's advance was to resume it,
    /// resumes on the next item.
    case next
    /// The end of an item was reached while playing.
    case afterEnd(AdvanceAfterEnd)
    /// `setPlaylist(_:)`: the new list's first item, paused.
    case newPlaylist([URL])
}

extension PlayerState {
    /// Playback reached the end of the item `identity` at `rate`: registers the resume of the
    /// advance that will follow, when there is a next item. Called by the tick's commit that
    /// found the end, so no `pause()` can come between the end and the registration.
    mutating func registerAdvance(afterEndOf identity: ItemIdentity, playingAt rate: Double) -> AdvanceAfterEnd? {
        guard item?.identity == identity, let index = playlistIndex, index + 1 < playlist.count else { return nil }
        let token = makeID()
        pendingResume = PendingResume(token: token, rate: rate)
        return AdvanceAfterEnd(token: token, after: identity)
    }

    /// Moves the playlist on to its next item and returns it, with the token of the resume
    /// that follows its load (nil: it stays paused); nil (changing nothing more) past the last
    /// item. The caller begins the item's load in the same transition. An advance after an
    /// end goes ahead only if its item is still current and no load is replacing it; otherwise
    /// its resume is withdrawn.
    mutating func moveToNextItem(
        _ advance: PlaylistAdvance, into events: inout [PlayerEmission]
    ) -> (url: URL, choice: UInt64?)? {
        var resume: UInt64?
        switch advance {
        case .next:
            // Next resumes the session it interrupts, or the one an end's advance, not yet run,
            // would have resumed (that advance then gives way: its token is no longer pending).
            if let rate = playback?.rate ?? pendingResume?.rate {
                let token = makeID()
                pendingResume = PendingResume(token: token, rate: rate)
                resume = token
            }
        case .afterEnd(let afterEnd):
            guard item?.identity == afterEnd.after, !loading else {
                if pendingResume?.token == afterEnd.token { pendingResume = nil }
                return nil
            }
            resume = afterEnd.token
        case .newPlaylist(let items):
            playlist = items
            playlistIndex = nil
        }
        let next = (playlistIndex ?? -1) + 1
        guard next < playlist.count else {
            if let resume, pendingResume?.token == resume { pendingResume = nil }
            return nil
        }
        let old = playlistIndex.map { playlist[$0] }
        playlistIndex = next
        events.append(.itemChanged(from: old, to: playlist[next]))
        return (playlist[next], resume)
    }

    /// `pause()`: playback stops, and so does any playback an advance in flight would resume on
    /// its next item (`pause()` during that item's load would otherwise find nothing to stop).
    mutating func pause(into events: inout [PlayerEmission]) {
        pendingResume = nil
        stopPlaying(into: &events)
    }

    /// `play(rate:)`: a new session from the playhead. While an advance's item opens with its
    /// resume pending, the resume takes this rate instead (the user's word wins) and no session
    /// starts yet. Returns whether a session started now.
    mutating func play(id: UInt64, rate: Double, now: Duration, into events: inout [PlayerEmission]) -> Result<Bool, PlaybackError> {
        if loading, let pending = pendingResume {
            pendingResume = PendingResume(token: pending.token, rate: rate)
            return .success(false)
        }
        return startPlaying(id: id, rate: rate, now: now, into: &events) ? .success(true) : .failure(.noCurrentItem)
    }

    /// An advance's load ended: playback resumes at the advance's rate when its resume is still
    /// pending (no `pause()` or `close()` since, nor a `play(rate:)` that started a session of
    /// its own) and the item the load installed
    /// as `installed` is still current (no later load or close; nil when the load failed or was
    /// overtaken). Whatever it decides, the resume is no longer pending. Returns whether
    /// playback started.
    mutating func resumeAfterAdvance(
        _ resume: UInt64, installed: UInt64?, id: UInt64, now: Duration, into events: inout [PlayerEmission]
    ) -> Bool {
        guard let pending = pendingResume, pending.token == resume else { return false }
        pendingResume = nil
        guard let installed, installed == generation else { return false }
        return startPlaying(id: id, rate: pending.rate, now: now, into: &events)
    }
}
