import Foundation

// The player's members under the SDK's names, so code ported from the SDK compiles and behaves
// as written. In the SDK, precision seeking needs a seek manager that `setupSeekManager(delegate:)`
// creates, and until then `scrubSession` is nil and seeks call back unfinished. FrameSeek's
// player is its own seek manager from `init`, so these members are spellings of what it already
// has, kept for that code.

extension Player {
    /// Sets the delegate that follows the playhead (`seekDelegate`, held weakly), as the SDK's
    /// call of the same name does.
    ///
    /// The player is its own seek manager, ready from `init`: calling this is never required,
    /// and code that never calls it works the same. The SDK's "no seek manager" case (a seek
    /// that calls back with `finished == false` and clamp `.seekableRangeUnknown`) is, in
    /// FrameSeek, a seek with nothing loaded: it completes with `interruption == .notReady` and
    /// that clamp, rather than doing nothing.
    public func setupSeekManager(delegate: (any SeekDelegate)?) {
        seekDelegate = delegate
    }

    /// The scrub session of this player: many position updates, one seek.
    ///
    /// Optional in type because the SDK's is, so `guard let scrub = player.scrubSession` ports
    /// as written. It is never nil: the session exists from `init`, with or without
    /// `setupSeekManager(delegate:)`, with nothing loaded and after `close()`; a scrub with
    /// nothing loaded ends in a seek that reports `.notReady`.
    public var scrubSession: ScrubSession? { scrub }

    /// `currentTime` in seconds, for display, as the SDK's `getCurrentTime()`.
    public func getCurrentTime() -> TimeInterval { currentTime.seconds }

    /// `duration` in seconds, for display, as the SDK's `getDuration()`; NaN with nothing
    /// loaded (`duration` is then `.indefinite`).
    public func getDuration() -> TimeInterval { duration.seconds }

    /// Whether picture in picture is showing: never, for a headless player. Here so the SDK's
    /// resume recipe, which saves nothing while picture in picture plays on, ports as written.
    public func isPiPActive() -> Bool { false }
}

/// The SDK's name for the scrub session's type (`FastPixScrubSessionCoordinator`), so
/// `ScrubSessionCoordinator.defaultPositionThrottle` reads as the SDK writes it.
public typealias ScrubSessionCoordinator = ScrubSession
