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
struct AdvanceAfterEnd: Sendable {
    let token: UInt64
    /// The item whose end was reached: the advance goes ahead only while it is still current.
    let after: ItemIdentity
}

extension PlayerState {
    /// `setPlaylist(_:)`: the new list, before its first item.
    mutating func replacePlaylist(with items: [URL]) {
        playlist = items
        playlistIndex = nil
    }

    /// Playback reached the end of the item `identity` at `rate`: registers the resume of the
    /// advance that will follow, when there is a next item and that item is still current.
    mutating func registerAdvance(afterEndOf identity: ItemIdentity, playingAt rate: Double) -> AdvanceAfterEnd? {
        guard item?.identity == identity, let index = playlistIndex, index + 1 < playlist.count else { return nil }
        let token = makeID()
        pendingResume = PendingResume(token: token, rate: rate)
        return AdvanceAfterEnd(token: token, after: identity)
    }

    /// Moves the playlist on to its next item and returns it with the token of the resume that
    /// follows its load; nil (changing nothing) past the last item. An advance after an end
    /// (`afterEnd`) goes ahead only if its item is still current and no load is replacing it;
    /// otherwise its resume is withdrawn. A user's advance resumes the session it interrupts.
    mutating func moveToNextItem(
        afterEnd: AdvanceAfterEnd?, into events: inout [PlayerEmission]
    ) -> (url: URL, resume: UInt64)? {
        if let afterEnd, item?.identity != afterEnd.after || loading {
            if pendingResume?.token == afterEnd.token { pendingResume = nil }
            return nil
        }
        let next = (playlistIndex ?? -1) + 1
        guard next < playlist.count else { return nil }
        let old = playlistIndex.map { playlist[$0] }
        playlistIndex = next
        events.append(.itemChanged(from: old, to: playlist[next]))
        if let afterEnd { return (playlist[next], afterEnd.token) }
        let token = makeID()
        if let rate = playback?.rate { pendingResume = PendingResume(token: token, rate: rate) }
        return (playlist[next], token)
    }

    /// `pause()`: playback stops, and so does any playback an advance in flight would resume on
    /// its next item (`pause()` during that item's load would otherwise find nothing to stop).
    mutating func pause(into events: inout [PlayerEmission]) {
        pendingResume = nil
        stopPlaying(into: &events)
    }

    /// An advance's load ended: playback resumes at the advance's rate when its resume is still
    /// pending (no `pause()`, `play(rate:)` or `close()` since) and the item the load installed
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
