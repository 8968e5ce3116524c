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
        machine.update { s in
            s.playlist = items
            s.playlistIndex = nil
        }
        try await advanceToNextItem()
    }

    /// The playlist's items.
    public var playlist: [URL] { machine.read(\.playlist) }

    /// The index of the current item in `playlist`, nil before the first.
    public var playlistIndex: Int? { machine.read(\.playlistIndex) }

    /// Loads the next item of the playlist; playback listeners hear `onItemChanged(from:to:)`
    /// first, then the old item's `onItemEnding` and the new item's `onItemLoaded`. Returns the
    /// new item, or nil (changing nothing) past the last one. When the player was playing, it
    /// plays the new item at the same rate.
    ///
    /// - Throws: the `MediaError` of the load; the playlist still moved on, so another call
    ///   skips the item that failed.
    @discardableResult
    public func advanceToNextItem() async throws(MediaError) -> URL? {
        let moved = machine.apply { s, events -> (URL, Double?)? in
            let next = (s.playlistIndex ?? -1) + 1
            guard next < s.playlist.count else { return nil }
            let old = s.playlistIndex.map { s.playlist[$0] }
            s.playlistIndex = next
            events.append(.itemChanged(from: old, to: s.playlist[next]))
            return (s.playlist[next], s.playback?.rate)
        }
        guard let (url, rate) = moved else { return nil }
        try await load(url)
        if let rate { try? play(rate: rate) }
        return url
    }

    /// Playback reached the end of `identity`'s item: the next playlist item plays at `rate`,
    /// unless the item changed meanwhile or it was the last.
    func advanceAfterEnd(of identity: ItemIdentity, playingAt rate: Double) {
        let hasNext = machine.read { s in
            s.item?.identity == identity && (s.playlistIndex.map { $0 + 1 < s.playlist.count } ?? false)
        }
        guard hasNext else { return }
        Task { [weak self] in
            guard let self, (try? await self.advanceToNextItem()) != nil else { return }
            try? self.play(rate: rate)
        }
    }
}
