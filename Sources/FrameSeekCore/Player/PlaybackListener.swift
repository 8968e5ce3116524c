import Foundation

/// Receives what the player does while it plays, and which item it plays: what a
/// `ResumeTracker` listens to. Every method has a no-op default.
///
/// Unlike `SeekDelegate` (one, for the host's UI), any number of these can be added; each is
/// held weakly and called on the player's callback queue, in transition order, so an item's
/// events always come between its `onItemLoaded` and its `onItemEnding`. Not `Sendable`, for
/// the reason `SeekPrecisionListener` is not.
public protocol PlaybackListener: AnyObject {
    /// `url` was installed as the current item with the playhead at `time` (its start, or the
    /// start position given to `load`).
    func onItemLoaded(_ url: URL, at time: MediaTime, duration: MediaTime)
    /// The current item `url` is about to go (`close()`, `load()` of another item, a playlist
    /// advance); `time` is where its playhead stood.
    func onItemEnding(_ url: URL, at time: MediaTime, duration: MediaTime)
    /// The playlist moved from `old` to `new` (nil past the end).
    func onItemChanged(from old: URL?, to new: URL?)
    /// Playback started (`rate` > 0) or paused (`rate` == 0) with the playhead at `time`.
    func onPlaybackRateChanged(_ rate: Double, at time: MediaTime)
    /// Playback moved the playhead; called on every tick that moved it, not throttled (the
    /// throttled form is `SeekDelegate.onTimeUpdate(currentMediaTime:durationMediaTime:)`).
    func onPlaybackProgress(currentTime: MediaTime, duration: MediaTime)
    /// A seek ended with the playhead at `time`.
    func onSeekEnded(at time: MediaTime)
    /// Playback reached the end of the item; the player paused there.
    func onPlaybackEnded(at time: MediaTime, duration: MediaTime)
}

extension PlaybackListener {
    /// Does nothing.
    public func onItemLoaded(_ url: URL, at time: MediaTime, duration: MediaTime) {}
    /// Does nothing.
    public func onItemEnding(_ url: URL, at time: MediaTime, duration: MediaTime) {}
    /// Does nothing.
    public func onItemChanged(from old: URL?, to new: URL?) {}
    /// Does nothing.
    public func onPlaybackRateChanged(_ rate: Double, at time: MediaTime) {}
    /// Does nothing.
    public func onPlaybackProgress(currentTime: MediaTime, duration: MediaTime) {}
    /// Does nothing.
    public func onSeekEnded(at time: MediaTime) {}
    /// Does nothing.
    public func onPlaybackEnded(at time: MediaTime, duration: MediaTime) {}
}

/// Why `play(rate:)` refused.
public enum PlaybackError: Error, Sendable, Hashable {
    /// The rate was NaN, infinite, zero, negative or above `Player.maximumRate`.
    case invalidRate(Double)
    /// Nothing is loaded.
    case noCurrentItem
}

/// Where `Player.load` starts an item: given the item's URL and duration, the time of its first
/// frame, or nil for its beginning. Called on the engine's queue; must not call the player.
public typealias StartPositionProvider = @Sendable (URL, MediaTime) -> MediaTime?
