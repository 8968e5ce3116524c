import Dispatch

/// Runs a live playlist's next reload after a delay: the player's only timer.
///
/// Injectable so that tests decide when a reload happens (advance a manual scheduler) instead
/// of sleeping through target durations. The player passes a block that queues the reload on
/// the engine's queue and checks there that the item is still the one the reload was meant
/// for; a scheduler only has to run it once, some time after `delay`.
public protocol LiveReloadScheduler: Sendable {
    /// Runs `work` once, `delay` from now, on any thread.
    func schedule(after delay: MediaTime, _ work: @escaping @Sendable () -> Void)
}

/// The real timer: `DispatchQueue.asyncAfter` on a global queue.
///
/// Nothing is cancelled on close: a reload that fires for an item no longer current finds
/// that out on the engine's queue and stops, which costs one check.
public struct DispatchLiveReloadScheduler: LiveReloadScheduler {
    /// The quality of service the timer fires at.
    private let qos: DispatchQoS.QoSClass

    /// A scheduler firing on the global queue of `qos`.
    public init(qos: DispatchQoS.QoSClass = .utility) {
        self.qos = qos
    }

    /// Runs `work` after `delay`, rounded to the nanosecond. A negative delay runs it at once;
    /// a non-numeric or longer than a day one after a day, so that a bad value from an engine
    /// can neither stop the reloads nor make them spin.
    public func schedule(after delay: MediaTime, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: qos).asyncAfter(deadline: .now() + Self.interval(delay), execute: work)
    }

    /// `delay` as a dispatch interval, kept within `0 ... 1 day`.
    static func interval(_ delay: MediaTime) -> DispatchTimeInterval {
        let day: Int64 = 86_400_000_000_000
        let nanoseconds = delay.convertScale(1_000_000_000)
        guard nanoseconds.isNumeric else { return .nanoseconds(delay == .negativeInfinity ? 0 : Int(day)) }
        return .nanoseconds(Int(min(max(nanoseconds.value, 0), day)))
    }
}
