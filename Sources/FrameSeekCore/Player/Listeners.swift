import Foundation

/// Receives what the player learns about seeks, scrubs and steps. Every method has a no-op
/// default, so a listener implements only what it needs.
///
/// Held weakly: the player never keeps a listener alive, and a released listener receives
/// nothing. Methods run on the player's callback queue, in the order the events happened.
///
/// Not `Sendable`, as a UI delegate is not: a listener is called only on the callback queue,
/// so a host's view controller with mutable state conforms as the SDK's code writes it.
public protocol SeekPrecisionListener: AnyObject {
    /// A seek finished or was interrupted; `accuracy` is `outcome.accuracy`.
    func onSeekAccuracy(_ accuracy: SeekAccuracy, outcome: SeekOutcome)
    /// A seek's target was moved into the seekable range (only when it really moved).
    func onSeekClamped(_ clamp: SeekClamp)
    /// A scrub session changed state.
    func onScrubStateChanged(_ state: ScrubState)
    /// A throttled scrub position, with how many updates it stands for.
    func onScrubPositionChanged(_ position: ScrubPosition)
    /// A frame step happened or was unavailable.
    func onFrameStep(_ result: FrameStepResult)
    /// A reload of the live playlist changed the current item's window: segments arrived or
    /// left, the live edge moved. `Player.liveSeekWindow` and `seekableRange` already say so.
    func onLiveWindowChanged(_ window: LiveSeekWindow)
    /// A reload of the live playlist failed; the previous window stays, and reloads go on.
    func onLiveWindowReloadFailed(_ error: MediaError)
}

extension SeekPrecisionListener {
    /// Does nothing.
    public func onSeekAccuracy(_ accuracy: SeekAccuracy, outcome: SeekOutcome) {}
    /// Does nothing.
    public func onSeekClamped(_ clamp: SeekClamp) {}
    /// Does nothing.
    public func onScrubStateChanged(_ state: ScrubState) {}
    /// Does nothing.
    public func onScrubPositionChanged(_ position: ScrubPosition) {}
    /// Does nothing.
    public func onFrameStep(_ result: FrameStepResult) {}
    /// Does nothing.
    public func onLiveWindowChanged(_ window: LiveSeekWindow) {}
    /// Does nothing.
    public func onLiveWindowReloadFailed(_ error: MediaError) {}
}

/// Follows the playhead: seek start and end, and time updates. `Player.setupSeekManager(delegate:)`
/// sets it, as the SDK does.
///
/// The SDK's requirements are here under the SDK's names, with `TimeInterval` seconds for
/// display: `onTimeUpdate(currentTime:duration:)` and `onSeekEnd(at:)`. The exact `MediaTime`
/// values come to `onTimeUpdate(currentMediaTime:durationMediaTime:)` and
/// `onSeekEnd(atMediaTime:)`, under names of their own, so that a delegate ported from the SDK
/// implements the SDK's requirement instead of adding an overload that nothing calls. The
/// player calls both forms of each event, the seconds form first.
///
/// Held weakly, called on the player's callback queue. Not `Sendable`, as a UI delegate is not:
/// the SDK's resume coordinator keeps mutable state and conforms as written.
public protocol SeekDelegate: AnyObject {
    /// A seek to `target` started.
    func onSeekStart(_ target: MediaTime)
    /// A seek ended with the playhead at `time` seconds (where it stayed, for interrupted
    /// seeks): the SDK's requirement. `onSeekEnd(atMediaTime:)` has the exact time.
    func onSeekEnd(at time: TimeInterval)
    /// A seek ended with the playhead at `time`, exact.
    func onSeekEnd(atMediaTime time: MediaTime)
    /// The playhead moved; seconds for display, as the SDK reports them (`duration` is NaN
    /// while the item's extent is unknown). `onTimeUpdate(currentMediaTime:durationMediaTime:)`
    /// has the exact times.
    func onTimeUpdate(currentTime: TimeInterval, duration: TimeInterval)
    /// The playhead moved; the exact times.
    func onTimeUpdate(currentMediaTime: MediaTime, durationMediaTime: MediaTime)
    /// Playback reached the end of the item and paused there (`currentTime` is the last frame,
    /// or the duration for audio-only media).
    func onPlaybackEnded()
}

extension SeekDelegate {
    /// Does nothing.
    public func onSeekStart(_ target: MediaTime) {}
    /// Does nothing.
    public func onSeekEnd(at time: TimeInterval) {}
    /// Does nothing.
    public func onSeekEnd(atMediaTime time: MediaTime) {}
    /// Does nothing.
    public func onTimeUpdate(currentTime: TimeInterval, duration: TimeInterval) {}
    /// Does nothing.
    public func onTimeUpdate(currentMediaTime: MediaTime, durationMediaTime: MediaTime) {}
    /// Does nothing.
    public func onPlaybackEnded() {}
}
