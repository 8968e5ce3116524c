// What the Player tests share, in both test targets (the real engine's and the fake engine's):
// a recording listener/delegate, a callback queue that knows whether it is the current queue,
// and bounded waits that turn a deadlock into a test failure instead of a hung run.
//
// Nothing here sleeps to let something happen: waits end when the awaited event arrives, and
// their timeout is only a deadlock guard.

import Dispatch
import Foundation
import FrameSeekCore

/// A bounded wait ran out: something that should have happened did not (a deadlock or a lost
/// callback).
package struct TimedOut: Error, CustomStringConvertible {
    package let what: String
    package var description: String { "timed out waiting for \(what)" }
}

/// The generous bound on every wait: far longer than any seek on the fixtures takes, even
/// under ThreadSanitizer. 3 minutes, not 1: a ThreadSanitizer run on a loaded 2-core machine
/// once stalled every test for over a minute at once, and a guard that trips on a slow machine
/// reports a deadlock that is not there.
package let deadlockGuard: Duration = .seconds(180)

/// A wait's bound, counted in time the waiting task got to run. Between two of its checks at
/// most `stallAllowance` counts: a longer gap is the machine stalling the task (the test run's
/// threads all blocked in other tests' child processes), which is not the awaited work's delay.
/// A guard on wall time alone tripped when a stall outlasted it: the waiter woke past its
/// deadline and gave up before the work it waited for, stalled as long, had run once.
package struct WaitBudget {
    package static let stallAllowance: Duration = .milliseconds(100)
    private let clock = ContinuousClock()
    private let limit: Duration
    private var waited: Duration = .zero
    private var lastCheck: ContinuousClock.Instant

    package init(_ limit: Duration) {
        self.limit = limit
        lastCheck = clock.now
    }

    /// Counts the time since the last check; true once the bound is spent.
    package mutating func isSpent() -> Bool {
        let now = clock.now
        waited += min(now - lastCheck, Self.stallAllowance)
        lastCheck = now
        return waited > limit
    }

    /// Sleeps until `limit` is spent, counted as `isSpent()` counts, or until `isWaiting` no
    /// longer holds: a timer for a wait that something else may end first.
    static func sleep(_ limit: Duration, while isWaiting: () -> Bool) async {
        var budget = WaitBudget(limit)
        while isWaiting(), !budget.isSpent(), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
    }
}

/// Runs `body` in a task of its own and returns its value, or throws `TimedOut` after
/// `timeout`. A body that never ends (a deadlock) is left behind rather than awaited, so the
/// test fails instead of hanging.
package func withDeadline<T: Sendable>(
    _ what: String, timeout: Duration = deadlockGuard,
    _ body: @escaping @Sendable () async -> T
) async throws -> T {
    let slot = ContinuationSlot<T>()
    return try await withCheckedThrowingContinuation { continuation in
        slot.fill(continuation)
        let work = Task {
            let value = await body()
            slot.take()?.resume(returning: value)
        }
        Task {
            await WaitBudget.sleep(timeout) { slot.isFilled }
            if let pending = slot.take() {
                work.cancel()
                pending.resume(throwing: TimedOut(what: what))
            }
        }
    }
}

/// A continuation that whoever comes first takes.
package final class ContinuationSlot<T: Sendable>: Sendable {
    package init() {}
    private let slot = Locked<CheckedContinuation<T, any Error>?>(nil)
    package func fill(_ continuation: CheckedContinuation<T, any Error>) { slot.withLock { $0 = continuation } }
    package func take() -> CheckedContinuation<T, any Error>? { slot.withLock { $0.take() } }
    /// Whether the continuation is there for the taking.
    package var isFilled: Bool { slot.withLock { $0 != nil } }
}

/// A serial callback queue that can tell whether code runs on it.
package final class TestQueue: @unchecked Sendable {
    // @unchecked: both members are immutable and thread-safe (a dispatch queue and the key
    // object that identifies it).
    package let queue: DispatchQueue
    private let key = DispatchSpecificKey<Int>()

    package init(_ label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    /// True when the caller runs on this queue.
    package var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }

    /// Returns once every block enqueued before this call has run.
    package func drain() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
    }
}

/// One event as a listener, a delegate or a completion handler saw it.
package enum PlayerEvent: Sendable, Equatable {
    case seekStart(MediaTime)
    case clamped(SeekClamp)
    case accuracy(SeekOutcome)
    case seekEnd(MediaTime)
    case timeUpdate(MediaTime)
    case scrubState(ScrubState)
    case scrubPosition(ScrubPosition)
    case frameStep(FrameStepResult)
    case completion(String)

    package var isSeekStart: Bool { if case .seekStart = self { true } else { false } }
    package var isClamp: Bool { if case .clamped = self { true } else { false } }
    package var isAccuracy: Bool { if case .accuracy = self { true } else { false } }
    package var scrubState: ScrubState? { if case .scrubState(let s) = self { s } else { nil } }
    package var scrubPosition: ScrubPosition? { if case .scrubPosition(let p) = self { p } else { nil } }

    /// The event's kind, for checking an order without the payloads.
    package var kind: String {
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
package final class EventLog: Sendable {
    package struct Entry: Sendable {
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
    package let expectedQueue: TestQueue?

    package init(expectedQueue: TestQueue? = nil) { self.expectedQueue = expectedQueue }

    package func record(_ event: PlayerEvent) {
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

    package var entries: [Entry] { state.withLock { $0.entries } }
    package var events: [PlayerEvent] { entries.map(\.event) }
    /// True when every callback so far ran on the expected queue.
    package var allOnExpectedQueue: Bool { entries.allSatisfy(\.onExpectedQueue) }

    /// Returns once `isMet` holds for the events recorded so far; throws `TimedOut` after
    /// `timeout`.
    package func wait(
        for what: String, timeout: Duration = deadlockGuard,
        until isMet: @escaping @Sendable ([PlayerEvent]) -> Bool
    ) async throws {
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
                await WaitBudget.sleep(timeout) { self?.state.withLock { s in s.waiters.contains { $0.id == id } } ?? false }
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
package final class Recorder: SeekPrecisionListener, SeekDelegate, Sendable {
    package let log: EventLog
    package init(_ log: EventLog) { self.log = log }

    package func onSeekAccuracy(_ accuracy: SeekAccuracy, outcome: SeekOutcome) { log.record(.accuracy(outcome)) }
    package func onSeekClamped(_ clamp: SeekClamp) { log.record(.clamped(clamp)) }
    package func onScrubStateChanged(_ state: ScrubState) { log.record(.scrubState(state)) }
    package func onScrubPositionChanged(_ position: ScrubPosition) { log.record(.scrubPosition(position)) }
    package func onFrameStep(_ result: FrameStepResult) { log.record(.frameStep(result)) }
    package func onSeekStart(_ target: MediaTime) { log.record(.seekStart(target)) }
    package func onSeekEnd(atMediaTime time: MediaTime) { log.record(.seekEnd(time)) }
    package func onTimeUpdate(currentMediaTime currentTime: MediaTime, durationMediaTime duration: MediaTime) {
        log.record(.timeUpdate(currentTime))
    }
}

/// Suspends a dispatch queue at most once and resumes it at most once per suspension.
package final class Suspension: @unchecked Sendable {
    // @unchecked: `queue` is immutable and thread-safe; `suspended` sits behind the mutex.
    private let queue: DispatchQueue
    private let suspended = Locked(false)

    package init(_ queue: DispatchQueue) { self.queue = queue }

    package func suspend() {
        let wasSuspended = suspended.withLock { s in
            defer { s = true }; return s
        }
        if !wasSuspended { queue.suspend() }
    }

    package func resume() {
        let wasSuspended = suspended.withLock { s in
            defer { s = false }; return s
        }
        if wasSuspended { queue.resume() }
    }
}

/// Outcomes keyed by the number of the seek that produced them, with a wait for a count.
package final class OutcomeBox<Value: Sendable>: Sendable {
    package init() {}
    private let values = Locked<[Int: Value]>([:])
    package let log = EventLog()

    package func put(_ key: Int, _ value: Value) {
        values.withLock { $0[key] = value }
        log.record(.completion("\(key)"))
    }

    package var all: [Int: Value] { values.withLock { $0 } }

    package func wait(forCount count: Int, timeout: Duration = deadlockGuard) async throws -> [Int: Value] {
        try await log.wait(for: "\(count) completions", timeout: timeout) { $0.count >= count }
        return all
    }
}

extension SeekOutcome {
    /// "landed 12", "superseded" ...: for messages.
    package var summary: String { interruption.map(\.rawValue) ?? "landed \(frameIndex ?? -1)" }
}

/// Returns once `condition` holds, checking every millisecond; throws `TimedOut` after `timeout`
/// (`WaitBudget`).
/// For states that no event announces (the synchronous part of an async call having run).
package func waitUntil(_ what: String, timeout: Duration = deadlockGuard, _ condition: () -> Bool) async throws {
    var budget = WaitBudget(timeout)
    while !condition() {
        if budget.isSpent() { throw TimedOut(what: what) }
        // A sleep rather than a yield: the awaited work may need this thread, and a spinning
        // waiter takes a core from the other tests.
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// Seconds as an exact `MediaTime`.
package func seconds(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1) }
