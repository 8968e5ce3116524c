import Dispatch
import Foundation

/// One event a transition emits, in the order it emits them.
enum PlayerEmission: Sendable {
    case seekStart(MediaTime)
    case seekClamped(SeekClamp)
    case seekAccuracy(SeekAccuracy, SeekOutcome)
    case seekEnd(MediaTime)
    case timeUpdate(MediaTime, duration: MediaTime)
    case scrubState(ScrubState)
    case scrubPosition(ScrubPosition)
    case frameStep(FrameStepResult)
    case seekReply(Reply<SeekOutcome>, SeekOutcome)
    case stepReply(Reply<FrameStepReport>, FrameStepReport)
    case liveWindowChanged(LiveSeekWindow)
    case liveWindowReloadFailed(MediaError)
    /// Playback started (rate > 0) or stopped (0) with the playhead there.
    case playbackRate(Double, MediaTime)
    case playbackProgress(MediaTime, duration: MediaTime)
    case playbackEnded(MediaTime, duration: MediaTime)
    case itemLoaded(URL, MediaTime, duration: MediaTime)
    case itemEnding(URL, MediaTime, duration: MediaTime)
    case itemChanged(from: URL?, to: URL?)
    /// Work for the callback queue, after everything emitted before it.
    case callback(@Sendable () -> Void)
}

/// The player's one lock: `PlayerState` behind it, and the callback queue its events go to.
///
/// `apply` runs a transition and queues the events it returned before releasing the lock, so
/// two transitions on two threads emit in the order they took the lock, and a serial callback
/// queue keeps that order. Nothing else in the player takes a lock, so there is no lock order
/// to get wrong. A transition may queue a job on the engine's queue, which never blocks, and
/// never waits for one (`PlayerState` invariant 11).
final class PlayerStateMachine: Sendable {
    private let state = Locked(PlayerState())
    /// The queue events and completion handlers run on.
    let queue: DispatchQueue

    init(queue: DispatchQueue) { self.queue = queue }

    /// Runs one transition and emits its events, in order, under the lock.
    @discardableResult
    func apply<T>(_ transition: (inout PlayerState, inout [PlayerEmission]) -> T) -> T {
        state.withLock { s in
            var events: [PlayerEmission] = []
            let result = transition(&s, &events)
            emit(events, to: s.listeners.snapshot)
            return result
        }
    }

    /// Reads the state; emits nothing.
    func read<T>(_ body: (PlayerState) -> T) -> T {
        state.withLock { body($0) }
    }

    /// Changes the state where no event can follow (listener registration, settings).
    func update<T>(_ body: (inout PlayerState) -> T) -> T {
        state.withLock { body(&$0) }
    }

    private func emit(_ events: [PlayerEmission], to listeners: ListenerSnapshot) {
        guard !events.isEmpty else { return }
        // Everything for the host goes out in one block, so it keeps its order relative to
        // other transitions' blocks. It is queued before async callers resume, so a caller that
        // resumes and then drains the callback queue finds its own seek's events there.
        var forQueue: [PlayerEmission] = []
        var resumes: [() -> Void] = []
        for event in events {
            switch event {
            case .seekReply(.resume(let continuation), let outcome): resumes.append { continuation.resume(returning: outcome) }
            case .seekReply(.direct(let resume), let outcome): resumes.append { resume(outcome) }
            case .stepReply(.resume(let continuation), let report): resumes.append { continuation.resume(returning: report) }
            case .stepReply(.direct(let resume), let report): resumes.append { resume(report) }
            default: forQueue.append(event)
            }
        }
        if !forQueue.isEmpty {
            let batch = forQueue
            queue.async { for event in batch { listeners.deliver(event) } }
        }
        for resume in resumes { resume() }
    }
}

/// The listeners and the delegate, held weakly.
struct ListenerRegistry: Sendable {
    private var listeners: [WeakListener] = []
    private var delegate = WeakDelegate()
    private var playbackListeners: [WeakPlaybackListener] = []

    mutating func add(_ listener: any PlaybackListener) {
        playbackListeners.removeAll { $0.value == nil || $0.value === listener }
        playbackListeners.append(WeakPlaybackListener(value: listener))
    }

    mutating func remove(_ listener: any PlaybackListener) {
        playbackListeners.removeAll { $0.value == nil || $0.value === listener }
    }

    mutating func add(_ listener: any SeekPrecisionListener) {
        listeners.removeAll { $0.value == nil || $0.value === listener }
        listeners.append(WeakListener(value: listener))
    }

    mutating func remove(_ listener: any SeekPrecisionListener) {
        listeners.removeAll { $0.value == nil || $0.value === listener }
    }

    var seekDelegate: (any SeekDelegate)? {
        get { delegate.value }
        set { delegate = WeakDelegate(value: newValue) }
    }

    /// The weak references as they stand; they are read only when an event is delivered, so a
    /// listener released meanwhile gets nothing.
    var snapshot: ListenerSnapshot {
        ListenerSnapshot(listeners: listeners, delegate: delegate, playbackListeners: playbackListeners)
    }
}

// The three boxes below are `@unchecked Sendable` because the protocols they hold are not
// `Sendable` (a host's UI object conforms as written). Safe because the player only stores,
// compares (`===`) and drops the references off the callback queue; it calls a listener's
// methods only in `ListenerSnapshot.deliver`, which runs on the callback queue alone, the one
// place the host has agreed to be called, as a UI delegate is called on the main queue.

private struct WeakListener: @unchecked Sendable {
    weak var value: (any SeekPrecisionListener)?
}

private struct WeakPlaybackListener: @unchecked Sendable {
    weak var value: (any PlaybackListener)?
}

private struct WeakDelegate: @unchecked Sendable {
    weak var value: (any SeekDelegate)?
}

/// The listeners one block of events goes to.
struct ListenerSnapshot: Sendable {
    fileprivate let listeners: [WeakListener]
    fileprivate let delegate: WeakDelegate
    fileprivate let playbackListeners: [WeakPlaybackListener]

    /// Calls the event's method on whoever is still alive. On the callback queue.
    func deliver(_ event: PlayerEmission) {
        switch event {
        case .seekStart(let target): delegate.value?.onSeekStart(target)
        case .seekClamped(let clamp): each { $0.onSeekClamped(clamp) }
        case .seekAccuracy(let accuracy, let outcome): each { $0.onSeekAccuracy(accuracy, outcome: outcome) }
        case .seekEnd(let time):
            if let delegate = delegate.value {
                delegate.onSeekEnd(at: time.seconds)
                delegate.onSeekEnd(atMediaTime: time)
            }
            eachPlayback { $0.onSeekEnded(at: time) }
        case .timeUpdate(let time, let duration):
            if let delegate = delegate.value {
                delegate.onTimeUpdate(currentTime: time.seconds, duration: duration.seconds)
                delegate.onTimeUpdate(currentMediaTime: time, durationMediaTime: duration)
            }
        case .scrubState(let state): each { $0.onScrubStateChanged(state) }
        case .scrubPosition(let position): each { $0.onScrubPositionChanged(position) }
        case .frameStep(let result): each { $0.onFrameStep(result) }
        case .seekReply(.callback(let completion), let outcome): completion(outcome)
        case .stepReply(.callback(let completion), let report): completion(report)
        case .liveWindowChanged(let window): each { $0.onLiveWindowChanged(window) }
        case .liveWindowReloadFailed(let error): each { $0.onLiveWindowReloadFailed(error) }
        case .callback(let work): work()
        case .playbackRate(let rate, let time): eachPlayback { $0.onPlaybackRateChanged(rate, at: time) }
        case .playbackProgress(let time, let duration):
            eachPlayback { $0.onPlaybackProgress(currentTime: time, duration: duration) }
        case .playbackEnded(let time, let duration):
            delegate.value?.onPlaybackEnded()
            eachPlayback { $0.onPlaybackEnded(at: time, duration: duration) }
        case .itemLoaded(let url, let time, let duration): eachPlayback { $0.onItemLoaded(url, at: time, duration: duration) }
        case .itemEnding(let url, let time, let duration): eachPlayback { $0.onItemEnding(url, at: time, duration: duration) }
        case .itemChanged(let old, let new): eachPlayback { $0.onItemChanged(from: old, to: new) }
        case .seekReply(.resume, _), .stepReply(.resume, _), .seekReply(.direct, _), .stepReply(.direct, _):
            break  // resumed when emitted
        }
    }

    private func each(_ body: (any SeekPrecisionListener) -> Void) {
        for box in listeners { if let listener = box.value { body(listener) } }
    }

    private func eachPlayback(_ body: (any PlaybackListener) -> Void) {
        for box in playbackListeners { if let listener = box.value { body(listener) } }
    }
}
