// Tests that spend their time waiting (on an origin's injected faults and the retries' backoff,
// a stall, a deadline, a clock) run on threads of their own. Swift Testing runs every test on
// Swift's shared pool, one thread a core: a synchronous test blocked for 45 s in a read holds
// one of a 2-core machine's two threads for those 45 s, and the suite waits with it.

import Foundation
import Testing

/// Runs each test case on threads of its own, outside the shared pool, so that the time it
/// spends blocked does not keep other tests from running. For tests that mostly wait; a test that
/// mostly decodes gains nothing from it and only adds to the load.
///
/// The case stays one task, so `#expect`, `#require` and task-local values work as anywhere else.
/// Add it to a test or a suite: `@Test("…", .ownThread)`.
package struct OwnThreadTrait: CaseScopingTrait {
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test case on threads of its own, outside the pool every other test shares.
    package static var ownThread: Self { Self() }
}

/// A task executor that runs each job on a new thread: a job that blocks holds only that thread.
/// A test case's task runs its synchronous body as one job, and one more after each suspension.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        // The size of the main thread's stack: a debug build's frames are large, and a test
        // body that decodes runs as deep here as on the pool.
        thread.stackSize = 8 << 20
        thread.start()
    }
}
