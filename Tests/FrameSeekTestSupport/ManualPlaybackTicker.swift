// The playback ticker for tests: ticks run only when the test fires them, after it has moved a
// ManualPlayerClock, so a test decides exactly when each tick reads the clock, and never sleeps.

import Foundation
import FrameSeekCore

/// A playback `PlayerScheduler` that keeps every scheduled tick until the test fires it.
package final class ManualPlaybackTicker: PlayerScheduler {
    private let pending = Locked<[@Sendable () -> Void]>([])
    private let delays = Locked<[MediaTime]>([])

    package init() {}

    package func schedule(after delay: MediaTime, _ tick: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(tick) }
        delays.withLock { $0.append(delay) }
    }

    /// Every delay asked for so far, in order.
    package var requestedDelays: [MediaTime] { delays.withLock { $0 } }

    /// How many ticks wait to be fired.
    package var pendingCount: Int { pending.withLock(\.count) }

    /// Runs every tick scheduled so far (each queues its work on the engine's queue and returns);
    /// ticks those schedule wait for the next call.
    package func fireAll() {
        let due = pending.withLock { p in
            defer { p.removeAll() }; return p
        }
        due.forEach { $0() }
    }
}

/// Every playback event a `PlaybackListener` heard, as text, in order: "loaded 1", "ending 2.5",
/// "changed a->b", "rate 1.0 @0", "progress 0.1", "seekEnd 2", "ended 1".
package final class PlaybackRecorder: PlaybackListener, SeekDelegate, Sendable {
    private let lines = Locked<[String]>([])
    private let times = Locked<[MediaTime]>([])
    private let updates = Locked<[MediaTime]>([])

    package init() {}

    package var events: [String] { lines.withLock { $0 } }
    /// Every playhead the listener heard: loads, progress, seeks, pauses, ends.
    package var heardTimes: [MediaTime] { times.withLock { $0 } }
    /// The `onTimeUpdate` times.
    package var timeUpdates: [MediaTime] { updates.withLock { $0 } }

    private func add(_ line: String, _ time: MediaTime?) {
        lines.withLock { $0.append(line) }
        if let time { times.withLock { $0.append(time) } }
    }

    package func onItemLoaded(_ url: URL, at time: MediaTime, duration: MediaTime) {
        add("loaded \(url.lastPathComponent) @\(time.seconds)", time)
    }
    package func onItemEnding(_ url: URL, at time: MediaTime, duration: MediaTime) {
        add("ending \(url.lastPathComponent) @\(time.seconds)", time)
    }
    package func onItemChanged(from old: URL?, to new: URL?) {
        add("changed \(old?.lastPathComponent ?? "-")->\(new?.lastPathComponent ?? "-")", nil)
    }
    package func onPlaybackRateChanged(_ rate: Double, at time: MediaTime) { add("rate \(rate) @\(time.seconds)", time) }
    package func onPlaybackProgress(currentTime: MediaTime, duration: MediaTime) { add("progress", currentTime) }
    package func onSeekEnded(at time: MediaTime) { add("seekEnd @\(time.seconds)", time) }
    package func onPlaybackEnded(at time: MediaTime, duration: MediaTime) { add("ended @\(time.seconds)", time) }
    package func onTimeUpdate(currentMediaTime currentTime: MediaTime, durationMediaTime duration: MediaTime) {
        updates.withLock { $0.append(currentTime) }
    }
    package func onPlaybackEnded() { lines.withLock { $0.append("delegate.ended") } }
}

/// An `InMemoryProgressStore` that counts and logs what was asked of it.
package final class CountingProgressStore: ProgressStore {
    package let inner = InMemoryProgressStore()
    private let log = Locked<[String]>([])
    private let saved = Locked<[SavedProgress]>([])

    package init() {}

    package func load(key: String) -> SavedProgress? { inner.load(key: key) }
    package func save(_ progress: SavedProgress) {
        saved.withLock { $0.append(progress) }
        log.withLock { $0.append("save \(progress.key) \(progress.position.seconds)") }
        inner.save(progress)
    }
    package func remove(key: String) {
        log.withLock { $0.append("remove \(key)") }
        inner.remove(key: key)
    }

    /// Every save, in order.
    package var saves: [SavedProgress] { saved.withLock { $0 } }
    /// Every call that wrote, as text.
    package var calls: [String] { log.withLock { $0 } }
}
