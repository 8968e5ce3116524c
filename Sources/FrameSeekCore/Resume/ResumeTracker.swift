// Remembers where each media item was left, through a `ProgressStore`, by listening to a
// Player. Saves happen on the player's callback queue, in the order the player's events
// happened, so a save never overwrites a newer position of the same item.

import Foundation

/// Saves and restores playback positions per media item for one `Player`.
///
/// - Keys: one per item, from `keyProvider` (the caller's identifier for a URL); by default
///   the URL's standardized absolute string. Two items never share a key unless the provider
///   says so.
/// - Restore: the tracker becomes the player's `startPositionProvider`, so `load()` lands on
///   the saved position before the first frame is shown. A position under `minimumResume`
///   (3 s by default), or within `completionMargin` of the end, is not resumed.
/// - Save: during playback whenever the playhead has moved `saveInterval` (1 s by default) of
///   playback time since the last save, which is at most and at least once per second of
///   playback, so a crash (kill -9) loses at most that much; after every seek; on pause; when
///   the item is closed or replaced (a playlist advance saves the old item's position and
///   switches keys, erasing nothing).
/// - Clear: when playback reaches the end, or the item stops (pause, close, replace) within
///   `completionMargin` (3 s by default) of it, the key is removed, so a finished item starts
///   from the beginning next time.
///
/// One tracker per player: it replaces the player's `startPositionProvider`. Keep a reference
/// to it; the player holds it weakly. Store failures do not stop playback; the latest is in
/// `lastError`.
public final class ResumeTracker: PlaybackListener, Sendable {
    /// The tracker's thresholds, in media time.
    public struct Settings: Sendable, Hashable {
        /// Playback time between two saves during playback: 1 s by default.
        public var saveInterval: MediaTime
        /// How near the end counts as finished: 3 s by default.
        public var completionMargin: MediaTime
        /// Positions under this are not resumed: 3 s by default.
        public var minimumResume: MediaTime

        /// Settings with the documented defaults, each overridable.
        public init(
            saveInterval: MediaTime = MediaTime(value: 1, timescale: 1),
            completionMargin: MediaTime = MediaTime(value: 3, timescale: 1),
            minimumResume: MediaTime = MediaTime(value: 3, timescale: 1)
        ) {
            self.saveInterval = saveInterval
            self.completionMargin = completionMargin
            self.minimumResume = minimumResume
        }
    }

    /// The key of `url` when the caller gives none: its standardized absolute string.
    public static let defaultKey: @Sendable (URL) -> String = { $0.standardizedFileURL.absoluteString }

    private struct Current {
        let key: String
        let duration: MediaTime
        /// The playhead of the last save (or of the load): the throttle's reference.
        var lastSaved: MediaTime
        /// Cleared at the end: nothing more is saved for this item until it loads again.
        var completed = false
    }

    private struct State {
        var current: Current?
        var lastError: ProgressStoreError?
    }

    /// The store positions go to.
    public let store: any ProgressStore
    /// The thresholds.
    public let settings: Settings
    private let keyProvider: @Sendable (URL) -> String
    private let state = Locked(State())

    /// Tracks `player`'s items in `store`. `keyProvider` gives each URL's key (the caller's
    /// identifier); by default `defaultKey`.
    public init(
        player: Player, store: any ProgressStore, settings: Settings = Settings(),
        keyProvider: @escaping @Sendable (URL) -> String = ResumeTracker.defaultKey
    ) {
        self.store = store
        self.settings = settings
        self.keyProvider = keyProvider
        player.addPlaybackListener(self)
        player.startPositionProvider = { [weak self, weak player] url, duration in
            self?.startPosition(for: url, duration: duration, ended: player?.lastEndedItem)
        }
    }

    /// The key of `url`.
    public func key(for url: URL) -> String { keyProvider(url) }

    /// The latest store failure, nil when every call succeeded.
    public var lastError: ProgressStoreError? { state.withLock(\.lastError) }

    /// Where `url` would resume, given its duration: the saved position, unless it is under
    /// `minimumResume` or within `completionMargin` of the end.
    public func startPosition(for url: URL, duration: MediaTime) -> MediaTime? {
        startPosition(for: url, duration: duration, ended: nil)
    }

    /// `startPosition(for:duration:)` when the player's last item to end was `ended`. While the
    /// tracker has not yet heard that item's end (delivered on the callback queue, after this
    /// load's open may have begun on the engine's), the store lacks its last save, and a load of
    /// the same key resumes where it stopped instead. Once heard, the store is the word: it may
    /// have changed since (another device).
    func startPosition(for url: URL, duration: MediaTime, ended: EndedItem?) -> MediaTime? {
        let key = keyProvider(url)
        let position: MediaTime?
        if let ended, keyProvider(ended.url) == key, state.withLock({ $0.current?.key == key }) {
            position = ended.position
        } else {
            do throws(ProgressStoreError) { position = try store.load(key: key)?.position } catch {
                state.withLock { $0.lastError = error }
                return nil
            }
        }
        guard let position, position >= settings.minimumResume, !isComplete(position, duration: duration) else { return nil }
        return position
    }

    // MARK: PlaybackListener

    /// Switches to `url`'s key.
    public func onItemLoaded(_ url: URL, at time: MediaTime, duration: MediaTime) {
        state.withLock { $0.current = Current(key: keyProvider(url), duration: duration, lastSaved: time) }
    }

    /// Saves where the item stopped (or clears it, near the end) and leaves its key.
    public func onItemEnding(_ url: URL, at time: MediaTime, duration: MediaTime) {
        record(time, force: true)
        state.withLock { $0.current = nil }
    }

    /// Saves once a second of playback has passed since the last save.
    public func onPlaybackProgress(currentTime: MediaTime, duration: MediaTime) {
        record(currentTime, force: false)
    }

    /// Saves where the seek landed.
    public func onSeekEnded(at time: MediaTime) { record(time, force: true) }

    /// Saves on pause.
    public func onPlaybackRateChanged(_ rate: Double, at time: MediaTime) {
        if rate == 0 { record(time, force: true) }
    }

    /// Clears the item's key: it was watched to the end.
    public func onPlaybackEnded(at time: MediaTime, duration: MediaTime) {
        guard
            let key = state.withLock({ s -> String? in
                s.current?.completed = true
                return s.current?.key
            })
        else { return }
        perform { () throws(ProgressStoreError) in try store.remove(key: key) }
    }

    // MARK: Saving

    /// Saves `time` for the current item when forced or a save interval has passed; removes
    /// the key instead when `time` is within the completion margin of the end.
    private func record(_ time: MediaTime, force: Bool) {
        let action = state.withLock { s -> (String, MediaTime, Bool)? in
            guard var current = s.current, !current.completed else { return nil }
            guard force || time - current.lastSaved >= settings.saveInterval else { return nil }
            current.lastSaved = time
            s.current = current
            return (current.key, current.duration, isComplete(time, duration: current.duration))
        }
        guard let (key, duration, complete) = action else { return }
        if complete {
            perform { () throws(ProgressStoreError) in try store.remove(key: key) }
        } else {
            perform { () throws(ProgressStoreError) in try store.save(SavedProgress(key: key, position: time, duration: duration)) }
        }
    }

    private func isComplete(_ time: MediaTime, duration: MediaTime) -> Bool {
        duration.isNumeric && time >= duration - settings.completionMargin
    }

    private func perform(_ body: () throws(ProgressStoreError) -> Void) {
        do throws(ProgressStoreError) { try body() } catch { state.withLock { $0.lastError = error } }
    }
}
