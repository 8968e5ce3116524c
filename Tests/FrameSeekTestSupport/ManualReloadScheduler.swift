// The live reload timer for tests: nothing fires until the test advances it, so a test decides
// exactly when each reload of a live playlist happens, and never sleeps through a target duration.

import FrameSeekCore

/// A reload `PlayerScheduler` whose time moves only when the test says.
package final class ManualReloadScheduler: PlayerScheduler {
    private struct Pending {
        let due: MediaTime
        let order: Int
        let work: @Sendable () -> Void
    }

    private struct State {
        var now: MediaTime = .zero
        var pending: [Pending] = []
        var scheduled = 0
    }

    private let state = Locked(State())

    package init() {}

    package func schedule(after delay: MediaTime, _ work: @escaping @Sendable () -> Void) {
        state.withLock { s in
            s.scheduled += 1
            s.pending.append(Pending(due: s.now + delay, order: s.scheduled, work: work))
        }
    }

    /// The scheduler's own time, which moves only when a reload fires or the test advances it.
    package var now: MediaTime { state.withLock(\.now) }

    /// Moves time on by `duration` without running anything: the time a reload took.
    package func advance(by duration: MediaTime) { state.withLock { $0.now = $0.now + duration } }

    /// The delays still to run, from now, earliest first: what the player asked for.
    package var pendingDelays: [MediaTime] {
        state.withLock { s in s.pending.sorted { ($0.due, $0.order) < ($1.due, $1.order) }.map { $0.due - s.now } }
    }

    /// Every schedule call so far.
    package var scheduledCount: Int { state.withLock(\.scheduled) }

    /// Moves time to the earliest pending reload and runs it (which queues the reload on the
    /// engine's queue and returns). False when none is pending.
    @discardableResult
    package func fireNext() -> Bool {
        let next = state.withLock { s -> Pending? in
            guard
                let index = s.pending.indices.min(by: {
                    (s.pending[$0].due, s.pending[$0].order) < (s.pending[$1].due, s.pending[$1].order)
                })
            else { return nil }
            let next = s.pending.remove(at: index)
            s.now = max(s.now, next.due)
            return next
        }
        // Outside the lock: the work may schedule again.
        next?.work()
        return next != nil
    }
}
