// Tests that spend their time waiting (on an origin's injected faults and the retries' backoff,
// a stall, a deadline, a clock) run on threads of their own. Swift Testing runs every test on
// Swift's shared pool, one thread a core: a synchronous test blocked for 45 s in a read holds
// one of a 2-core machine's two threads for those 45 s, and the suite waits with it.

import Foundation
import FrameSeekCore
import Testing

/// Runs each test case on threads of its own, outside the shared pool, so that the time it
/// spends blocked does not keep other tests from running. For synchronous tests that mostly
/// wait: a test that mostly decodes gains nothing from it and only adds to the load, and an
/// async one starts a thread at each resumption.
///
/// At most `limit` such cases run at once; the others wait for a turn suspended, holding no
/// thread. Unbounded, the pool would start every one of them at once (some 70 cases, each with
/// an origin and a `frameseek` of its own) and the timing each one checks would be the load's.
///
/// The case stays one task, so `#expect`, `#require` and task-local values work as anywhere else.
/// Add it to a test or a suite: `@Test("…", .ownThread)`.
package struct OwnThreadTrait: CaseScopingTrait {
    /// How many cases run outside the pool at once.
    static let limit = 4
    private static let turns = Turns(limit)

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await Self.turns.take()
        defer { Self.turns.give() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

/// At most a number of holders at once; the rest wait in order, suspended.
private final class Turns: Sendable {
    private let state: Locked<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    init(_ count: Int) { state = Locked((count, [])) }

    func take() async {
        await withCheckedContinuation { continuation in
            let taken = state.withLock { s in
                guard s.free > 0 else {
                    s.waiting.append(continuation)
                    return false
                }
                s.free -= 1
                return true
            }
            if taken { continuation.resume() }
        }
    }

    func give() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard !s.waiting.isEmpty else {
                s.free += 1
                return nil
            }
            return s.waiting.removeFirst()
        }
        next?.resume()
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test case on threads of its own, outside the pool every other test shares.
    package static var ownThread: Self { Self() }
}

/// A task executor that runs each job on a new thread: a job that blocks holds only that thread.
/// A test case's task runs its synchronous body as one job, and one more after each suspension.
package final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()
    /// The key each of its threads holds in its thread dictionary, by which a test sees where
    /// it runs.
    private static let marker = "frameseek.own-thread"

    /// Whether the calling thread is one of this executor's.
    package static var isCurrentThread: Bool { Thread.current.threadDictionary[marker] != nil }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread {
            Thread.current.threadDictionary[Self.marker] = true
            job.runSynchronously(on: executor)
        }
        // The size of the main thread's stack: a debug build's frames are large, and a test
        // body that decodes runs as deep here as on the pool.
        thread.stackSize = 8 << 20
        thread.start()
    }
}
