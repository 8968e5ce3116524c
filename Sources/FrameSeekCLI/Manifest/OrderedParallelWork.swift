import Dispatch
import FrameSeek

/// Runs independent jobs on several threads and hands their results back in job order.
///
/// Manifests and media files are independent (each job opens its own engine, and FFmpeg
/// contexts share nothing), so a catalog keeps both cores busy. Results are delivered as soon
/// as every job before them is done, so output stays in catalog order and a long run still
/// streams its lines.
enum OrderedParallelWork {
    /// Runs `work` on every element of `jobs` with up to `workers` threads. `deliver` receives
    /// each result in order, and `progress` the count of finished jobs; both are called on one
    /// thread at a time.
    static func run<Job: Sendable, Result: Sendable>(
        _ jobs: [Job], workers: Int,
        work: @Sendable @escaping (Job) -> Result,
        deliver: @Sendable @escaping (Int, Result) -> Void,
        progress: @Sendable @escaping (Int) -> Void = { _ in }
    ) {
        let state = Locked(OrderedWorkState<Result>())
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, jobs.count))) { _ in
            while true {
                let index: Int? = state.withLock { s in
                    guard s.nextJob < jobs.count else { return nil }
                    defer { s.nextJob += 1 }
                    return s.nextJob
                }
                guard let index else { return }
                let result = work(jobs[index])
                // Delivery happens under the lock: output lines from two threads must not
                // interleave, and order is the point.
                state.withLock { s in
                    s.waiting[index] = result
                    s.finished += 1
                    while let ready = s.waiting.removeValue(forKey: s.nextDelivery) {
                        deliver(s.nextDelivery, ready)
                        s.nextDelivery += 1
                    }
                    progress(s.finished)
                }
            }
        }
    }
}

/// What the threads of `OrderedParallelWork.run` share, behind its lock.
private struct OrderedWorkState<Result: Sendable>: Sendable {
    var nextJob = 0
    var nextDelivery = 0
    var finished = 0
    var waiting: [Int: Result] = [:]
}
