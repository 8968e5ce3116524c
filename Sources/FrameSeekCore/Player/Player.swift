import Dispatch
import Foundation

/// The precision-seek API: load media, seek with an explicit precision, read back where the
/// seek really landed; step frames; scrub.
///
/// Every method may be called from any thread or task. The player's state is one value behind
/// one lock (`PlayerState`, whose invariants are written at its top); each call is one
/// transition on it. The engine runs on a serial queue of its own (FFmpeg state is touched
/// from that one place); listener and delegate events arrive on `callbackQueue` (main by
/// default), in the order the transitions happened.
public final class Player: Sendable {
    let host = EngineHost()
    let machine: PlayerStateMachine
    let clock: any PlayerClock
    /// Times the reloads of live playlists.
    let reloadScheduler: any PlayerScheduler
    /// Times playback's ticks.
    let playbackScheduler: any PlayerScheduler
    private let engineFactory: PlaybackEngineFactory

    /// The scrub session behind `scrubSession`.
    let scrub: ScrubSession

    /// A player whose engines `engineFactory` makes. `import FrameSeek` adds `Player()`,
    /// which uses the FFmpeg engine. `reloadScheduler` times the reloads of live playlists
    /// (a real timer by default; tests pass one they advance by hand). `clock` measures
    /// playback and scrub throttling; `playbackScheduler` times playback's ticks (both
    /// injectable so tests play on a virtual clock).
    public init(
        engineFactory: @escaping PlaybackEngineFactory, callbackQueue: DispatchQueue = .main,
        clock: any PlayerClock = ContinuousPlayerClock(),
        reloadScheduler: any PlayerScheduler = DispatchPlayerScheduler(qos: .utility),
        playbackScheduler: any PlayerScheduler = DispatchPlayerScheduler(qos: .userInteractive)
    ) {
        self.engineFactory = engineFactory
        self.playbackScheduler = playbackScheduler
        self.machine = PlayerStateMachine(queue: callbackQueue)
        self.clock = clock
        self.reloadScheduler = reloadScheduler
        self.scrub = ScrubSession(machine: machine, host: host, clock: clock)
    }

    /// Opens `url` and makes it the current item; the playhead goes to the start.
    ///
    /// Seeks and steps of the previous item end at once (seeks as `cancelled`, steps as
    /// `noCurrentItem`); nothing of that item is heard after this call begins. Seeks issued
    /// while the file opens land on the new item. If opening fails, the previous item stays.
    ///
    /// When the engine is a live playlist (`LivePlaybackEngine`), `liveSeekWindow` is its window
    /// from here on, and the player reloads the playlist whenever the engine's `reloadDelay`
    /// says, until the item is closed or replaced or the playlist ends.
    ///
    /// `start`, or else what `startPositionProvider` gives, is where the first frame is: the
    /// engine lands there (exact) before the item is installed, so no other frame is ever
    /// shown or reported first. A start outside the item, or non-numeric, is ignored.
    /// Playback stops; call `play(rate:)` again on the new item.
    public func load(_ url: URL, startingAt start: MediaTime? = nil) async throws(MediaError) {
        _ = try await load(startingAt: start, choosing: { _, _ in (url, ()) })?.outcome.get()
    }

    /// What came of a load: its generation when its item was installed, nil when a later
    /// `load()` or `close()` overtook it (the item never became current), or the open's error.
    typealias LoadOutcome = Result<UInt64?, MediaError>

    /// Loads the URL `choose` picks, in the load's own transition, with whatever else it
    /// changes there (a playlist's move to its next item), so no other call comes between the
    /// choice and the load; nil (nothing loaded, nothing changed but what `choose` did) when it
    /// picks none. Returns what `choose` returned, and the load's outcome.
    func load<Choice: Sendable>(
        startingAt start: MediaTime? = nil,
        choosing choose: (inout PlayerState, inout [PlayerEmission]) -> (url: URL, choice: Choice)?
    ) async -> (url: URL, choice: Choice, outcome: LoadOutcome)? {
        let machine = self.machine, host = self.host
        // When the engine's open begins on its queue, which may be busy: RFC 8216 6.3.4 times the
        // first reload from when the playlist's load began.
        let scheduler = reloadScheduler, factory = engineFactory
        let started = Locked(MediaTime.zero)
        let timedFactory: PlaybackEngineFactory = { url throws(MediaError) in
            started.withLock { $0 = scheduler.now }
            return try factory(url)
        }
        let install = { @Sendable (url: URL, generation: UInt64, engine: any PlaybackEngine) -> Bool in
            let item = LoadedItem(engine, generation: generation)
            let landed = Self.land(engine, item, atStart: start ?? machine.read(\.startPositionProvider)?(url, item.duration))
            guard
                machine.apply({ s, events in
                    s.install(item, url: url, startingAt: landed, generation: generation, into: &events)
                })
            else { return false }
            self.scheduleReloads(
                of: item.identity, after: (engine as? any LivePlaybackEngine)?.reloadDelay, from: started.withLock { $0 })
            return true
        }
        // The open is queued in the load's own transition (invariant 11): a seek registered
        // after it runs after the open, on the new engine. A failed open is committed on the
        // engine's queue too, before anything queued behind it.
        return await withCheckedContinuation { continuation in
            machine.apply { s, events in
                guard let (url, choice) = choose(&s, &events) else { return continuation.resume(returning: nil) }
                let generation = s.beginLoad(into: &events)
                host.scheduleLoad(url, with: timedFactory, install: { install(url, generation, $0) }) { opened in
                    switch opened {
                    case .success(let installed):
                        continuation.resume(returning: (url, choice, .success(installed ? generation : nil)))
                    case .failure(let error):
                        machine.apply { s, events in s.loadFailed(generation: generation, into: &events) }
                        continuation.resume(returning: (url, choice, .failure(error)))
                    }
                }
            }
        }
    }

    /// Where a new item's playhead starts for `start`: the frame an exact seek lands on (video)
    /// or the time itself (audio-only); nil for the item's start. On the engine's queue.
    private static func land(_ engine: any PlaybackEngine, _ item: LoadedItem, atStart start: MediaTime?) -> MediaTime? {
        guard let start, start.isNumeric, let range = item.seekableRange, range.contains(start),
            start > range.lowerBound
        else { return nil }
        guard item.media.selectedStream.mediaType == .video else { return start }
        return (try? engine.seek(to: start, precision: .exact))?.frame.time
    }

    /// Where `load()` starts an item when the caller gives no position: called with the URL
    /// and the item's duration on the engine's queue, before anything is shown. A
    /// `ResumeTracker` sets it; nil starts every item at its beginning.
    public var startPositionProvider: StartPositionProvider? {
        get { machine.read(\.startPositionProvider) }
        set { machine.update { $0.startPositionProvider = newValue } }
    }

    /// The item whose end was announced last, and where it stopped; its `onItemEnding` may
    /// still wait on the callback queue.
    var lastEndedItem: EndedItem? { machine.read(\.lastEnded) }

    /// Starts delivering playback and item events to `listener`, held weakly.
    public func addPlaybackListener(_ listener: any PlaybackListener) {
        machine.update { $0.listeners.add(listener) }
    }

    /// Stops delivering playback and item events to `listener`.
    public func removePlaybackListener(_ listener: any PlaybackListener) {
        machine.update { $0.listeners.remove(listener) }
    }

    /// Ends every seek and step in flight and unloads the media; later seeks report `notReady`.
    ///
    /// Seeks in flight complete as `cancelled` and steps as `noCurrentItem` before this
    /// returns; no event of the closed item is emitted after it.
    public func close() async {
        // The unload is queued in the close's own transition (invariant 11): a load begun after
        // it opens after the unload, so its engine stays.
        let host = self.host
        await withCheckedContinuation { continuation in
            machine.apply { s, events in
                s.close(into: &events)
                host.scheduleUnload { continuation.resume() }
            }
        }
    }

    /// Stops the seek in flight, which completes with `interruption == .cancelled`; the
    /// playhead stays where it was.
    public func cancelPendingSeeks() {
        machine.apply { s, events in s.cancelSeeks(into: &events) }
    }

    /// The time of the frame the playhead is on.
    public var currentTime: MediaTime { machine.read(\.playhead) }

    /// The end of the last frame of the current item; `.indefinite` with nothing loaded.
    public var duration: MediaTime { machine.read(\.duration) }

    /// `[first frame, end of the last frame)`, or nil while nothing is loaded.
    public var seekableRange: Range<MediaTime>? { machine.read { $0.item?.seekableRange } }

    /// The current item's description, or nil.
    public var media: MediaDescription? { machine.read { $0.item?.media } }

    /// The queue events and completion handlers run on.
    public var callbackQueue: DispatchQueue { machine.queue }

    /// Starts delivering events to `listener`, held weakly.
    public func addSeekPrecisionListener(_ listener: any SeekPrecisionListener) {
        machine.update { $0.listeners.add(listener) }
    }

    /// Stops delivering events to `listener`.
    public func removeSeekPrecisionListener(_ listener: any SeekPrecisionListener) {
        machine.update { $0.listeners.remove(listener) }
    }

    /// The delegate that follows the playhead, held weakly. `setupSeekManager(delegate:)`
    /// sets it too.
    public var seekDelegate: (any SeekDelegate)? {
        get { machine.read { $0.listeners.seekDelegate } }
        set { machine.update { $0.listeners.seekDelegate = newValue } }
    }
}
