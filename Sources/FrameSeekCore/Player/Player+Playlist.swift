// Playlists: a list of URLs, one current, loaded through `load()` like any item, so everything
// `load()` promises (old item's events end, resume position before the first frame) holds for
// each item.

import Foundation

extension Player {
    /// Replaces the playlist with `items` and loads the first (nothing when empty). Playback
    /// stops; `play(rate:)` plays on through the list.
    ///
    /// - Throws: the `MediaError` of the first item's load.
    public func setPlaylist(_ items: [URL]) async throws(MediaError) {
        machine.update { $0.replacePlaylist(with: items) }
        try await advanceToNextItem()
    }

    /// The playlist's items.
    public var playlist: [URL] { machine.read(\.playlist) }

    /// The index of the current item in `playlist`, nil before the first.
    public var playlistIndex: Int? { machine.read(\.playlistIndex) }

    /// Loads the next item of the playlist; playback listeners hear `onItemChanged(from:to:)`
    /// first, then the old item's `onItemEnding` and the new item's `onItemLoaded`. Returns the
    /// new item, or nil (changing nothing) past the last one. When the player was playing, it
    /// plays the new item at the same rate, unless `pause()`, `play(rate:)`, `close()` or
    /// another `load()` came while it opened.
    ///
    /// Returns nil too when a later `load()`, `close()` or advance overtook this one before its
    /// item was installed: that item never became current and nothing plays. The playlist
    /// still moved on to it, as after a failed load.
    ///
    /// - Throws: the `MediaError` of the load; the playlist still moved on, so another call
    ///   skips the item that failed.
    @discardableResult
    public func advanceToNextItem() async throws(MediaError) -> URL? {
        try await advance(afterEnd: nil)
    }

    /// Moves the playlist on and loads its next item; returns it, or nil when there was none or
    /// the load was overtaken. Playback resumes on it as `PlayerState.moveToNextItem` registered.
    private func advance(afterEnd: AdvanceAfterEnd?) async throws(MediaError) -> URL? {
        let moved = machine.apply { s, events in s.moveToNextItem(afterEnd: afterEnd, into: &events) }
        guard let moved else { return nil }
        let installed: UInt64?
        do {
            installed = try await loadItem(moved.url)
        } catch {
            resume(moved.resume, installed: nil)
            throw error
        }
        resume(moved.resume, installed: installed)
        return installed == nil ? nil : moved.url
    }

    /// Starts the playback an advance registered as `token`, if it still stands, on the item
    /// its load made current as `installed`.
    private func resume(_ token: UInt64, installed: UInt64?) {
        let now = clock.now()
        let id = machine.update { $0.makeID() }
        let started = machine.apply { s, events in
            s.resumeAfterAdvance(token, installed: installed, id: id, now: now, into: &events)
        }
        if started { scheduleTick(of: id, after: .zero) }
    }

    /// Playback reached the end of `identity`'s item: the next playlist item plays at `rate`,
    /// unless the item changed meanwhile or it was the last, and unless `pause()`,
    /// `play(rate:)`, `close()` or a load came before it is installed.
    func advanceAfterEnd(of identity: ItemIdentity, playingAt rate: Double) {
        guard let afterEnd = machine.update({ $0.registerAdvance(afterEndOf: identity, playingAt: rate) }) else { return }
        Task { [weak self] in
            _ = try? await self?.advance(afterEnd: afterEnd)
        }
    }
}
