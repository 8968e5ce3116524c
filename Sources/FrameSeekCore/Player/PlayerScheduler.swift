import Dispatch

/// Runs a block once after a delay: the player's timer, for playback's ticks and for the
/// reloads of live playlists.
///
/// Injectable so that tests decide when a tick or a reload happens (a manual scheduler fired
/// by hand, with a `ManualPlayerClock`) instead of sleeping through real time or target
/// durations. The player schedules one block at a time for each use and never cancels one:
/// a block that fires after `pause()`, `close()`, another `play()` or a change of item finds,
/// on the engine's queue, that its session or item is gone, and does nothing. A scheduler
/// only has to run each block once, some time after `delay`.
public protocol PlayerScheduler: Sendable {
    /// Runs `work` once, `delay` from now, on any thread.
    func schedule(after delay: MediaTime, _ work: @escaping @Sendable () -> Void)

    /// The time on the scheduler's clock, which only moves forward: the player reads it when a
    /// load or a reload of a live playlist begins, so that the next reload is due a delay after
    /// that, not after the reload ended (RFC 8216 6.3.4). The default is the system's monotonic
    /// clock, which `schedule(after:_:)`'s delays must then be on; a scheduler of its own time
    /// gives that time.
    var now: MediaTime { get }
}

extension PlayerScheduler {
    /// The system's monotonic clock (`DispatchTime`), in nanoseconds.
    public var now: MediaTime {
        MediaTime(value: Int64(clamping: DispatchTime.now().uptimeNanoseconds), timescale: 1_000_000_000)
    }
}

/// The real timer: `DispatchQueue.asyncAfter` on a global queue.
public struct DispatchPlayerScheduler: PlayerScheduler {
    /// The quality of service the timer fires at.
    private let qos: DispatchQoS.QoSClass

    /// A scheduler firing on the global queue of `qos`: the player asks `.userInteractive`
    /// for playback (ticks show frames) and `.utility` for live reloads.
    public init(qos: DispatchQoS.QoSClass) {
        self.qos = qos
    }

    /// Runs `work` after `delay`, rounded to the nanosecond. A negative delay runs it at once;
    /// a non-numeric or longer than a day one after a day, so that a bad value from an engine
    /// can neither stop the ticks or reloads nor make them spin.
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
