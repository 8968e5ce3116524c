import Dispatch
import Foundation

/// The precision-seek API: load media, seek with an explicit precision, read back where the
/// seek really landed; step frames; scrub.
///
/// Every method may be called from any thread or task. The engine runs on a serial queue of
/// its own (FFmpeg state is touched from that one place); listener and delegate events
/// arrive on `callbackQueue` (main by default), in order.
public final class Player: Sendable {
    let host = EngineHost()
    let events: PlayerEvents
    let clock: any PlayerClock
    private let engineFactory: PlaybackEngineFactory
    let state = Locked(PlayerState())

    /// The scrub session of this player: many position updates, one seek.
    public let scrubSession: ScrubSession

    /// A player whose engines `engineFactory` makes. `import FrameSeek` adds `Player()`,
    /// which uses the FFmpeg engine.
    public init(engineFactory: @escaping PlaybackEngineFactory, callbackQueue: DispatchQueue = .main,
                clock: any PlayerClock = ContinuousPlayerClock()) {
        self.engineFactory = engineFactory
        self.events = PlayerEvents(queue: callbackQueue)
        self.clock = clock
        self.scrubSession = ScrubSession(events: events, clock: clock)
        scrubSession.attach(to: self)
    }

    /// Opens `url` and makes it the current item; the playhead goes to the start.
    ///
    /// Seeks still landing on the previous item are cancelled.
    public func load(_ url: URL) async throws(MediaError) {
        cancelPendingSeeks()
        try await host.load(url, with: engineFactory) { item in
            self.state.withLock { s in
                s.item = item
                s.currentTime = item.seekableRange?.lowerBound ?? .zero
                s.generation &+= 1
            }
        }
    }

    /// Cancels seeks in flight and unloads the media; later seeks report `notReady`.
    public func close() async {
        cancelPendingSeeks()
        state.withLock { s in
            s.item = nil
            s.currentTime = .zero
            s.generation &+= 1
        }
        await host.unload()
    }

    /// Stops the seek in flight, which completes with `interruption == .cancelled`; the
    /// playhead stays where it was.
    public func cancelPendingSeeks() {
        state.withLock { s in
            s.activeSeek?.flag.interrupt(.cancelled)
            s.activeSeek = nil
        }
        scrubSession.playerCancelledSeeks()
    }

    /// The time of the frame the playhead is on.
    public var currentTime: MediaTime { state.withLock { $0.currentTime } }

    /// The end of the last frame of the current item; `.indefinite` with nothing loaded.
    public var duration: MediaTime { state.withLock { $0.item?.duration ?? .indefinite } }

    /// `[first frame, end of the last frame)`, or nil while nothing is loaded.
    public var seekableRange: Range<MediaTime>? { state.withLock { $0.item?.seekableRange } }

    /// The current item's description, or nil.
    public var media: MediaDescription? { state.withLock { $0.item?.media } }

    /// The queue events and completion handlers run on.
    public var callbackQueue: DispatchQueue { events.queue }

    /// Starts delivering events to `listener`, held weakly.
    public func addSeekPrecisionListener(_ listener: any SeekPrecisionListener) { events.add(listener) }

    /// Stops delivering events to `listener`.
    public func removeSeekPrecisionListener(_ listener: any SeekPrecisionListener) { events.remove(listener) }

    /// The delegate that follows the playhead, held weakly.
    public var seekDelegate: (any SeekDelegate)? {
        get { events.delegate }
        set { events.delegate = newValue }
    }
}

/// What the player knows between calls, behind its lock.
struct PlayerState {
    var item: LoadedItem?
    var currentTime: MediaTime = .zero
    /// The seek that will move the playhead if it lands; older ones are superseded.
    var activeSeek: SeekTicket?
    /// Counts loads and closes, so work started on one item never moves the playhead of the next.
    var generation: UInt64 = 0
}

/// A registered seek: its request and the flag that interrupts it.
struct SeekTicket: Sendable {
    let target: MediaTime
    let precision: SeekPrecision
    let flag: SeekInterruptionFlag
    let start: ContinuousClock.Instant
}
