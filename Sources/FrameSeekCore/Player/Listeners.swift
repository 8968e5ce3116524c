/// Receives what the player learns about seeks, scrubs and steps. Every method has a no-op
/// default, so a listener implements only what it needs.
///
/// Held weakly: the player never keeps a listener alive, and a released listener receives
/// nothing. Methods run on the player's callback queue, in the order the events happened.
public protocol SeekPrecisionListener: AnyObject, Sendable {
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

/// Follows the playhead: seek start and end, and time updates.
///
/// Held weakly, called on the player's callback queue.
public protocol SeekDelegate: AnyObject, Sendable {
    /// A seek to `target` started.
    func onSeekStart(_ target: MediaTime)
    /// A seek ended with the playhead at `time` (where it stayed, for interrupted seeks).
    func onSeekEnd(at time: MediaTime)
    /// The playhead moved.
    func onTimeUpdate(currentTime: MediaTime, duration: MediaTime)
    /// Playback reached the end of the item and paused there (`currentTime` is the last frame,
    /// or the duration for audio-only media).
    func onPlaybackEnded()
}

extension SeekDelegate {
    /// Does nothing.
    public func onSeekStart(_ target: MediaTime) {}
    /// Does nothing.
    public func onSeekEnd(at time: MediaTime) {}
    /// Does nothing.
    public func onTimeUpdate(currentTime: MediaTime, duration: MediaTime) {}
    /// Does nothing.
    public func onPlaybackEnded() {}
}
