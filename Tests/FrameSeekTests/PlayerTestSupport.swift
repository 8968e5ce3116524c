// What the Player tests share: a recording listener/delegate, a seek-counting engine that wraps
// the real FFmpeg engine, a callback queue that knows whether it is the current queue, and
// bounded waits that turn a deadlock into a test failure instead of a hung run.
//
// Nothing here sleeps to let something happen: waits end when the awaited event arrives, and
// their timeout is only a deadlock guard.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Synchronization
import Testing

/// A value behind a lock ThreadSanitizer understands.
///
/// Not `Synchronization.Mutex`: with Swift 6.3.1 on Linux, TSan does not see Mutex's lock and
/// unlock, and reports every mutation inside `withLock` from two threads as a "Swift access
/// race" (a false positive; a ten-line program shows it). `NSLock` goes through
/// `pthread_mutex`, which TSan intercepts, so the tests' own state stays out of its reports.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched between `lock.lock()` and `lock.unlock()`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A bounded wait ran out: something that should have happened did not (a deadlock or a lost
/// callback).
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// The generous bound on every wait: far longer than any seek on the fixtures takes, even
/// under ThreadSanitizer.
let deadlockGuard: Duration = .seconds(60)

/// Runs `body` in a task of its own and returns its value, or throws `TimedOut` after
/// `timeout`. A body that never ends (a deadlock) is left behind rather than awaited, so the
/// test fails instead of hanging.
func withDeadline<T: Sendable>(_ what: String, timeout: Duration = deadlockGuard,
                               _ body: @escaping @Sendable () async -> T) async throws -> T {
    let slot = ContinuationSlot<T>()
    return try await withCheckedThrowingContinuation { continuation in
        slot.fill(continuation)
        let work = Task {
            let value = await body()
            slot.take()?.resume(returning: value)
        }
        Task {
            try? await Task.sleep(for: timeout)
            if let pending = slot.take() {
                work.cancel()
                pending.resume(throwing: TimedOut(what: what))
            }
        }
    }
}

/// A continuation that whoever comes first takes.
final class ContinuationSlot<T: Sendable>: Sendable {
    private let slot = Locked<CheckedContinuation<T, any Error>?>(nil)
    func fill(_ continuation: CheckedContinuation<T, any Error>) { slot.withLock { $0 = continuation } }
    func take() -> CheckedContinuation<T, any Error>? { slot.withLock { $0.take() } }
}

/// A serial callback queue that can tell whether code runs on it.
final class TestQueue: @unchecked Sendable {
    // @unchecked: both members are immutable and thread-safe (a dispatch queue and the key
    // object that identifies it).
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Int>()

    init(_ label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    /// True when the caller runs on this queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }

    /// Returns once every block enqueued before this call has run.
    func drain() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
    }
}

/// One event as a listener, a delegate or a completion handler saw it.
enum PlayerEvent: Sendable, Equatable {
    case seekStart(MediaTime)
    case clamped(SeekClamp)
    case accuracy(SeekOutcome)
    case seekEnd(MediaTime)
    case timeUpdate(MediaTime)
    case scrubState(ScrubState)
    case scrubPosition(ScrubPosition)
    case frameStep(FrameStepResult)
    case completion(String)

    var isSeekStart: Bool { if case .seekStart = self { true } else { false } }
    var isClamp: Bool { if case .clamped = self { true } else { false } }
    var isAccuracy: Bool { if case .accuracy = self { true } else { false } }
    var scrubState: ScrubState? { if case .scrubState(let s) = self { s } else { nil } }
    var scrubPosition: ScrubPosition? { if case .scrubPosition(let p) = self { p } else { nil } }

    /// The event's kind, for checking an order without the payloads.
    var kind: String {
        switch self {
        case .seekStart: "start"
        case .clamped: "clamped"
        case .accuracy: "accuracy"
        case .seekEnd: "end"
        case .timeUpdate: "time"
        case .scrubState(let s): "scrub.\(s.rawValue)"
        case .scrubPosition: "position"
        case .frameStep: "step"
        case .completion(let name): "completion.\(name)"
        }
    }
}

/// Events in arrival order, each with whether it ran on the expected queue, and waits for a
/// condition on them.
final class EventLog: Sendable {
    struct Entry: Sendable {
        let event: PlayerEvent
        let onExpectedQueue: Bool
    }

    private struct Waiter {
        let id: Int
        let isMet: @Sendable ([Entry]) -> Bool
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var entries: [Entry] = []
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Locked(State())
    /// The queue callbacks must run on; nil accepts any.
    let expectedQueue: TestQueue?

    init(expectedQueue: TestQueue? = nil) { self.expectedQueue = expectedQueue }

    func record(_ event: PlayerEvent) {
        let onQueue = expectedQueue?.isCurrent ?? true
        let ready = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
            s.entries.append(Entry(event: event, onExpectedQueue: onQueue))
            let entries = s.entries
            var met: [CheckedContinuation<Void, any Error>] = []
            s.waiters.removeAll { waiter in
                guard waiter.isMet(entries) else { return false }
                met.append(waiter.continuation)
                return true
            }
            return met
        }
        for continuation in ready { continuation.resume() }
    }

    var entries: [Entry] { state.withLock { $0.entries } }
    var events: [PlayerEvent] { entries.map(\.event) }
    /// True when every callback so far ran on the expected queue.
    var allOnExpectedQueue: Bool { entries.allSatisfy(\.onExpectedQueue) }

    /// Returns once `isMet` holds for the events recorded so far; throws `TimedOut` after
    /// `timeout`.
    func wait(for what: String, timeout: Duration = deadlockGuard,
              until isMet: @escaping @Sendable ([PlayerEvent]) -> Bool) async throws {
        let check: @Sendable ([Entry]) -> Bool = { isMet($0.map(\.event)) }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let id: Int? = state.withLock { s in
                if check(s.entries) { return nil }
                s.nextID += 1
                s.waiters.append(Waiter(id: s.nextID, isMet: check, continuation: continuation))
                return s.nextID
            }
            guard let id else { return continuation.resume() }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                let expired = self?.state.withLock { s -> Waiter? in
                    guard let i = s.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return s.waiters.remove(at: i)
                }
                expired?.continuation.resume(throwing: TimedOut(what: what))
            }
        }
    }
}

/// A listener and delegate that records everything into an `EventLog`.
final class Recorder: SeekPrecisionListener, SeekDelegate {
    let log: EventLog
    init(_ log: EventLog) { self.log = log }

    func onSeekAccuracy(_ accuracy: SeekAccuracy, outcome: SeekOutcome) { log.record(.accuracy(outcome)) }
    func onSeekClamped(_ clamp: SeekClamp) { log.record(.clamped(clamp)) }
    func onScrubStateChanged(_ state: ScrubState) { log.record(.scrubState(state)) }
    func onScrubPositionChanged(_ position: ScrubPosition) { log.record(.scrubPosition(position)) }
    func onFrameStep(_ result: FrameStepResult) { log.record(.frameStep(result)) }
    func onSeekStart(_ target: MediaTime) { log.record(.seekStart(target)) }
    func onSeekEnd(at time: MediaTime) { log.record(.seekEnd(time)) }
    func onTimeUpdate(currentTime: MediaTime, duration: MediaTime) { log.record(.timeUpdate(currentTime)) }
}

/// A player over the real FFmpeg engine, wrapped to count seeks, with a recording listener
/// and delegate on a queue of its own.
struct Harness {
    let player: Player
    let probe: EngineProbe
    let events: TestQueue
    let log: EventLog
    let recorder: Recorder
    let clock: ManualPlayerClock
    let engineSuspension: Suspension

    /// `hashingPictures`: the probe records the MD5 of each landed picture.
    init(_ label: String = #function, hashingPictures: Bool = false) {
        let probe = EngineProbe(hashesPictures: hashingPictures)
        let events = TestQueue("test.events.\(label)")
        let clock = ManualPlayerClock()
        player = Player(engineFactory: { (url: URL) throws(MediaError) -> any PlaybackEngine in
            CountingEngine(try FFmpegEngine(path: url.path), probe: probe)
        }, callbackQueue: events.queue, clock: clock)
        self.probe = probe
        self.events = events
        self.clock = clock
        engineSuspension = Suspension(player.host.queue)
        log = EventLog(expectedQueue: events)
        recorder = Recorder(log)
        player.addSeekPrecisionListener(recorder)
        player.seekDelegate = recorder
    }

    /// Loads `fixture` and returns its oracle.
    @discardableResult
    func load(_ fixture: Fixture) async throws -> Oracle {
        try await player.load(URL(fileURLWithPath: fixture.path))
        return try Oracle(fixture)
    }

    /// A harness with gop250 loaded and, given `frame`, an exact seek to that frame's middle done.
    static func gop250(seekingTo frame: Int? = nil, hashingPictures: Bool = false,
                       _ label: String = #function) async throws -> (Harness, Oracle) {
        let h = Harness(label, hashingPictures: hashingPictures)
        let oracle = try await h.load(Fixtures.gop250)
        if let frame { _ = await h.player.seek(to: oracle.middle(frame), precision: .exact) }
        return (h, oracle)
    }

    /// Stops the engine's queue: seeks issued now register but do not run. Pair it with
    /// `defer { h.resumeEngine() }`: resuming twice is harmless, and a queue left suspended
    /// when a failed test releases the player would crash the whole test process.
    func suspendEngine() { engineSuspension.suspend() }
    func resumeEngine() { engineSuspension.resume() }

    /// Returns once everything enqueued on the engine's queue so far has run.
    func drainEngine() async { _ = await player.host.perform { _ in 0 } }

    /// Returns once every event emitted so far has been delivered.
    func drainEvents() async { await events.drain() }

    /// Returns once the engine's queue, then the callback queue, has run everything so far.
    func settle() async {
        await drainEngine()
        await drainEvents()
    }

    /// Events since `mark` (an earlier `log.events.count`).
    func events(since mark: Int) -> [PlayerEvent] { Array(log.events.dropFirst(mark)) }
}

/// Suspends a dispatch queue at most once and resumes it at most once per suspension.
final class Suspension: @unchecked Sendable {
    // @unchecked: `queue` is immutable and thread-safe; `suspended` sits behind the mutex.
    private let queue: DispatchQueue
    private let suspended = Locked(false)

    init(_ queue: DispatchQueue) { self.queue = queue }

    func suspend() {
        let wasSuspended = suspended.withLock { s in defer { s = true }; return s }
        if !wasSuspended { queue.suspend() }
    }

    func resume() {
        let wasSuspended = suspended.withLock { s in defer { s = false }; return s }
        if wasSuspended { queue.resume() }
    }
}

/// Outcomes keyed by the number of the seek that produced them, with a wait for a count.
final class OutcomeBox<Value: Sendable>: Sendable {
    private let values = Locked<[Int: Value]>([:])
    let log = EventLog()

    func put(_ key: Int, _ value: Value) {
        values.withLock { $0[key] = value }
        log.record(.completion("\(key)"))
    }

    var all: [Int: Value] { values.withLock { $0 } }

    func wait(forCount count: Int, timeout: Duration = deadlockGuard) async throws -> [Int: Value] {
        try await log.wait(for: "\(count) completions", timeout: timeout) { $0.count >= count }
        return all
    }
}

enum Fixtures {
    /// H.264 with B-frames, closed GOP of 250 (IDR at 0 and 250), 360 frames at 30000/1001.
    static var gop250: Fixture { get throws { try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0")) } }
    /// AAC only.
    static var audio: Fixture { get throws { try #require(FixtureCatalog.fixture("aac_sine.s0")) } }
}

extension SeekOutcome {
    /// "landed 12", "superseded" ...: for messages.
    var summary: String { interruption.map(\.rawValue) ?? "landed \(frameIndex ?? -1)" }
}

extension MediaError {
    /// The frame count the FFmpeg engine names when a seek was interrupted ("... after N frames").
    var framesBeforeInterruption: Int? {
        guard reason == .interrupted, let range = detail.range(of: #"after (\d+) frames"#, options: .regularExpression)
        else { return nil }
        return Int(detail[range].split(separator: " ")[1])
    }
}

/// Returns once `condition` holds, yielding between checks; throws `TimedOut` after `timeout`.
/// For states that no event announces (the synchronous part of an async call having run).
func waitUntil(_ what: String, timeout: Duration = deadlockGuard, _ condition: () -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
        if clock.now > deadline { throw TimedOut(what: what) }
        await Task.yield()
    }
}

/// Seconds as an exact `MediaTime`.
func seconds(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1) }
