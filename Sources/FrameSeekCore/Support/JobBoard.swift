import Foundation

/// The jobs of one run split between decoders, and their results: the calling thread and
/// helper decoders on queues of their own each take the next job, one at a time and in order,
/// and results wait here until the caller takes them in job order.
///
/// Thumbnails (one keyframe per job) and batch landings (one GOP run per job) share it: both
/// are work whose jobs are independent and whose results must come back in order.
package final class JobBoard<Job: Sendable, Success: Sendable, Failure: Error>: @unchecked Sendable {
    // Safe because every `var` below is read and written only while `condition` is locked, and
    // `jobs` is never written after init. Jobs and results are Sendable values.
    private let condition = NSCondition()
    private let jobs: [Job]
    private var nextJob = 0
    /// No job at or after this index is handed out: set past a failed job (no result after it
    /// is wanted) and to 0 when the caller stops.
    private var stopAt = Int.max
    private var results: [Int: Result<Success, Failure>] = [:]
    private var runningHelpers = 0
    /// Jobs the helpers made (all but the caller's, decoder 0).
    private var madeByHelpers = 0
    /// Whether the last job is the caller's alone: so that the caller's decoder ends the run
    /// standing where a run on one decoder would.
    private let lastJobForCaller: Bool

    /// A board handing out `jobs` in order; with `lastJobForCaller`, helpers never take the last.
    package init(jobs: [Job], lastJobForCaller: Bool = false) {
        self.jobs = jobs
        self.lastJobForCaller = lastJobForCaller
    }

    /// The next job and its index, or nil when none is left for a helper (`byHelper`) or the caller.
    package func take(byHelper: Bool = true) -> (Int, Job)? {
        condition.lock()
        defer { condition.unlock() }
        let end = byHelper && lastJobForCaller ? jobs.count - 1 : jobs.count
        guard nextJob < min(end, stopAt) else { return nil }
        defer { nextJob += 1 }
        return (nextJob, jobs[nextJob])
    }

    /// Posts job `index`'s result, made by decoder `decoder` (0 is the caller).
    package func finish(_ index: Int, _ result: Result<Success, Failure>, by decoder: Int) {
        condition.lock()
        results[index] = result
        if decoder != 0 { madeByHelpers += 1 }
        if case .failure = result { stopAt = min(stopAt, index + 1) }
        condition.broadcast()
        condition.unlock()
    }

    /// Job `index`'s result, removed from the board. While it is not made, the caller makes
    /// the next job itself with `make` rather than wait, when `callerDecodes` (it is a decoder
    /// too); with none left to take, it waits for the helper making it, and makes it itself
    /// when no helper is left that could (none could open the media).
    package func result(
        of index: Int, callerDecodes: Bool = true,
        makingJobsWith make: (Int, Job) -> Result<Success, Failure>
    ) -> Result<Success, Failure> {
        while true {
            if let made = removeResult(index) { return made }
            if callerDecodes, let (taken, job) = take(byHelper: false) {
                finish(taken, make(taken, job), by: 0)
                continue
            }
            if let made = waitForResult(index) { return made }
            if let (taken, job) = take(byHelper: false) { finish(taken, make(taken, job), by: 0) }
        }
    }

    /// Job `index`'s result, removed from the board, or nil when it is not made yet.
    private func removeResult(_ index: Int) -> Result<Success, Failure>? {
        condition.lock()
        defer { condition.unlock() }
        return results.removeValue(forKey: index)
    }

    /// Waits for job `index`'s result and removes it; nil when no helper is left running and
    /// none has taken the job, so only the caller can make it.
    private func waitForResult(_ index: Int) -> Result<Success, Failure>? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let made = results.removeValue(forKey: index) { return made }
            // Nobody will make it: no helper is left, or it is the caller's own last job.
            if nextJob <= index && (runningHelpers == 0 || (lastJobForCaller && index == jobs.count - 1)) { return nil }
            condition.wait()
        }
    }

    /// Sets `helper` taking jobs on its queue, after whatever is queued there first (its
    /// opening), and making each with `make`, until none is left. A helper whose decoder is nil
    /// there (it could not open the media) takes none, and the others do its share.
    package func start<Decoder>(
        _ helper: QueueConfined<Decoder?>,
        making make: @escaping @Sendable (Decoder, Job) -> Result<Success, Failure>
    ) {
        helperStarted()
        helper.schedule { decoder in
            while let decoder, let (index, job) = self.take() { self.finish(index, make(decoder, job), by: 1) }
            // Only now, with the helper's last job posted, may the run return.
            self.helperExited()
        }
    }

    /// Counts a helper started on a queue of its own.
    private func helperStarted() {
        condition.lock()
        runningHelpers += 1
        condition.unlock()
    }

    /// Counts a helper gone: it takes no more jobs, and its decoder is idle.
    private func helperExited() {
        condition.lock()
        runningHelpers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Hands out no more jobs and waits until every helper has finished the job it holds, so
    /// nothing decodes after the run returns. Returns how many jobs the helpers made.
    package func stopAndWaitForHelpers() -> Int {
        condition.lock()
        defer { condition.unlock() }
        stopAt = 0
        while runningHelpers > 0 { condition.wait() }
        return madeByHelpers
    }
}
