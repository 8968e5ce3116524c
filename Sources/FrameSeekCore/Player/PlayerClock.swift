/// The monotonic clock the player throttles scrub events by. Injectable, so tests advance
/// time by hand instead of sleeping.
public protocol PlayerClock: Sendable {
    /// Monotonic time since an arbitrary origin.
    func now() -> Duration
}

/// The real monotonic clock.
public struct ContinuousPlayerClock: PlayerClock {
    private let origin = ContinuousClock.now
    /// The real clock.
    public init() {}
    /// Time since this clock was made.
    public func now() -> Duration { ContinuousClock.now - origin }
}

/// A clock that moves only when told to: for tests.
package final class ManualPlayerClock: PlayerClock {
    private let current = Locked<Duration>(.zero)
    /// A clock at zero.
    package init() {}
    /// The time the clock was last set to.
    package func now() -> Duration { current.withLock { $0 } }
    /// Moves the clock forward.
    package func advance(by duration: Duration) { current.withLock { $0 += duration } }
}
