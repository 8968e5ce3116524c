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
        _ = try await advance(.newPlaylist(items))
    }

    /// The playlist's items.
    public var playlist: [URL] { machine.read(\.playlist) }

    /// The index of the current item in `playlist`, nil before the first.
    public var playlistIndex: Int? { machine.read(\.playlistIndex) }

    /// Loads the next item of the playlist; playback listeners hear `onItemChanged(from:to:)`
    /// first, then the old item's `onItemEnding` and the new item's `onItemLoaded`. Returns the
    /// new item, or nil (changing nothing) past the last one. When the player was playing (or
    /// had just reached the end of an item, whose own advance then gives way to this one), it
    /// plays the new item at the same rate, unless `pause()`, `close()` or another `load()`
    /// came while it opened; a `play(rate:)` meanwhile sets the rate it plays at.
    ///
    /// Returns nil too when a later `load()`, `close()` or advance overtook this one before its
    /// item was installed: that item never became current and nothing plays. The playlist
    /// still moved on to it, as after a failed load.
    ///
    /// - Throws: the `MediaError` of the load; the playlist still moved on, so another call
    ///   skips the item that failed.
    @discardableResult
    public func advanceToNextItem() async throws(MediaError) -> URL? {
        try await advance(.next)
    }

    /// Moves the playlist on and loads its next item, in one transition; returns it, or nil
    /// when there was none or the load was overtaken. Playback resumes on it as
    /// `PlayerState.moveToNextItem` registered.
    private func advance(_ advance: PlaylistAdvance) async throws(MediaError) -> URL? {
        guard let loaded = await load(choosing: { s, events in s.moveToNextItem(advance, into: &events) }) else { return nil }
        switch loaded.outcome {
        case .success(let installed):
            resume(loaded.choice, installed: installed)
            return installed == nil ? nil : loaded.url
        case .failure(let error):
            resume(loaded.choice, installed: nil)
            throw error
        }
    }

    /// Starts the playback an advance registered as `token`, if it still stands, on the item
    /// its load made current as `installed`.
    private func resume(_ token: UInt64?, installed: UInt64?) {
        guard let token else { return }
        let now = clock.now()
        let id = machine.update { $0.makeID() }
        let started = machine.apply { s, events in
            s.resumeAfterAdvance(token, installed: installed, id: id, now: now, into: &events)
        }
        if started { scheduleTick(of: id, after: .zero) }
    }

    /// Playback reached the end of an item, and the tick that found it registered the advance
    /// to the next one (`PlayerState.commitTick`): the next item plays at the rate of the end,
    /// unless the item changed meanwhile, and unless `pause()`, `play(rate:)`, `close()` or a
    /// load came before it is installed.
    func advance(afterEnd: AdvanceAfterEnd) {
        Task { [weak self] in
            _ = try? await self?.advance(.afterEnd(afterEnd))
        }
    }
}
