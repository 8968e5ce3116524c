import Dispatch
import Foundation

/// Makes an engine for a URL: the FFmpeg engine in the `FrameSeek` module, anything that
/// implements `PlaybackEngine` in tests.
public typealias PlaybackEngineFactory = @Sendable (URL) throws(MediaError) -> any PlaybackEngine

/// The one place a player's engine is touched: the engine confined to a serial queue.
///
/// Queuing a job never blocks, so the player queues each one inside the transition that calls
/// for it, under the player's lock. The queue then runs jobs
/// in the order of their transitions (`PlayerState` invariant 11).
final class EngineHost: Sendable {
    private let confined = QueueConfined<(any PlaybackEngine)?>(nil, label: "frameseek.engine")

    /// The engine's queue (tests suspend it to hold seeks in flight).
    var queue: DispatchQueue { confined.queue }

    /// Queues `body` on the engine's queue (with nil when no engine is loaded) and returns.
    func schedule(_ body: @escaping @Sendable ((any PlaybackEngine)?) -> Void) {
        confined.schedule { engine in body(engine) }
    }

    /// Runs `body` on the engine's queue; nil when no engine is loaded.
    func perform<T: Sendable>(_ body: @escaping @Sendable (any PlaybackEngine) -> T) async -> T? {
        await confined.perform { engine in engine.map(body) }
    }

    /// Queues the open of `url` with `factory` on the engine's queue and returns; `opened`
    /// gets the outcome there. When `install` accepts the new engine it becomes current.
    /// `install` runs on the queue with the new engine (to read what the player keeps of it)
    /// before anything queued behind the load, so a seek queued behind the load sees the
    /// player's state for the new item, never the old one; it returns false when a later load
    /// or a close overtook this one, and the engine is then dropped. The outcome says whether
    /// the engine was installed: a load overtaken that way opened its file, but its item never
    /// became current, and the caller must not act as if it had (play it, report it).
    func scheduleLoad(
        _ url: URL, with factory: @escaping PlaybackEngineFactory,
        install: @escaping @Sendable (any PlaybackEngine) -> Bool,
        opened: @escaping @Sendable (Result<Bool, MediaError>) -> Void
    ) {
        confined.schedule { engine in
            do throws(MediaError) {
                let candidate = try factory(url)
                // Only an item the player accepted becomes the engine: a load overtaken by a
                // later load or a close must not leave its engine serving the item the player
                // kept (a later load that fails keeps the previous item, and its engine).
                guard install(candidate) else { return opened(.success(false)) }
                engine = candidate
                opened(.success(true))
            } catch {
                opened(.failure(error))
            }
        }
    }

    /// Queues dropping the engine (closing its files) on the engine's queue and returns;
    /// `done` runs there once it is dropped.
    func scheduleUnload(done: @escaping @Sendable () -> Void) {
        confined.schedule { engine in
            engine = nil
            done()
        }
    }
}

/// Which installed item, on which engine: what a live reload checks before it touches the
/// engine or the state, so that a reload started for one item never lands on another.
///
/// The generation alone would not do: after a failed `load()` the old item stays current under
/// a newer generation, and after two quick loads the engine on the queue can belong to a load
/// whose item was never installed. The engine's identity tells those apart.
struct ItemIdentity: Sendable, Hashable {
    /// The load generation the item was installed for.
    let generation: UInt64
    /// The engine object that serves it.
    let engine: ObjectIdentifier
}

/// What the player keeps of a loaded engine: enough to answer `duration`, `seekableRange`
/// and `liveSeekWindow` without touching the engine.
struct LoadedItem: Sendable {
    let identity: ItemIdentity
    let media: MediaDescription
    let seekableRange: Range<MediaTime>?
    /// The window as of the engine's latest load or reload, for a `LivePlaybackEngine`; nil
    /// for an ordinary file.
    let liveWindow: LiveSeekWindow?
    /// The engine's frames, so a synchronous step can say at once where it lands; nil for an
    /// engine that reads as needed (a playlist), whose steps the engine alone answers.
    let frameTable: FrameTable?

    /// What the player keeps of `engine`, installed for load `generation`. On the engine's
    /// queue. Reads nothing the engine's open did not: a playlist is ready after its manifest.
    init(_ engine: any PlaybackEngine, generation: UInt64) {
        identity = ItemIdentity(generation: generation, engine: ObjectIdentifier(engine))
        media = engine.media
        seekableRange = engine.seekableRange
        liveWindow = (engine as? any LivePlaybackEngine)?.liveSeekWindow
        frameTable = engine.indexedFrameTable
    }

    /// Where a step of `count` frames from frame `origin` lands, by the table, or why it
    /// cannot; nil without a table, when only the engine can tell.
    func stepDestination(
        from origin: Int?, _ direction: FrameStepDirection, count: Int
    ) -> Result<Int, FrameStepUnavailableReason>? {
        guard media.selectedStream.mediaType == .video else { return .failure(.audioOnly) }
        guard let frameTable else { return nil }
        guard let origin else { return .failure(direction == .forward ? .endOfStream : .startOfStream) }
        return frameTable.stepDestination(from: origin, direction, count: count).map(\.index)
    }

    /// The first frame's time, for clamping without the engine.
    var firstFrame: MediaTime? { frameTable?.frames.first?.time }
    /// The last frame's time, for clamping without the engine.
    var lastFrame: MediaTime? { frameTable?.frames.last?.time }

    /// The clamp the landing rules would apply to `target`.
    func clamp(for target: MediaTime) -> SeekClamp {
        guard let firstFrame, let lastFrame, let end = seekableRange?.upperBound else { return .seekableRangeUnknown }
        return SeekClamp.resolve(target, firstFrame: firstFrame, lastFrame: lastFrame, end: end).clamp
    }

    /// The stream's extent: the end of its last frame.
    var duration: MediaTime { seekableRange?.upperBound ?? .indefinite }
}
