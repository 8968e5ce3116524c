import Dispatch

/// Runs the next playback tick after a delay: what drives headless playback.
///
/// Injectable, like `LiveReloadScheduler`, so tests decide when a tick happens (a manual
/// ticker fired by hand, with a `ManualPlayerClock`) instead of sleeping through real time.
/// The player schedules one tick at a time, each for when the next frame or time update comes
/// due; a tick that fires after `pause()`, `close()` or another `play()` finds its session
/// gone and does nothing, so a ticker never has to cancel anything.
public protocol PlaybackTicker: Sendable {
    /// Runs `tick` once, `delay` from now, on any thread.
    func schedule(after delay: MediaTime, _ tick: @escaping @Sendable () -> Void)
}

/// The real ticker: `DispatchQueue.asyncAfter` on a global queue.
public struct DispatchPlaybackTicker: PlaybackTicker {
    private let qos: DispatchQoS.QoSClass

    /// A ticker firing on the global queue of `qos` (user-interactive by default: ticks show frames).
    public init(qos: DispatchQoS.QoSClass = .userInteractive) {
        self.qos = qos
    }

    /// Runs `tick` after `delay`, kept within `0 ... 1 day` the way live reloads are.
    public func schedule(after delay: MediaTime, _ tick: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: qos).asyncAfter(
            deadline: .now() + DispatchLiveReloadScheduler.interval(delay),
            execute: tick)
    }
}
