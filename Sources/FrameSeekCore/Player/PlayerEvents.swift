import Dispatch

/// Delivers listener and delegate events on the host's queue, in the order they happened.
///
/// Listeners are held weakly. Events are enqueued while the registry's lock is held, so two
/// threads emitting at once still enqueue in one order; on a serial queue that order is kept.
final class PlayerEvents: Sendable {
    private struct WeakListener: Sendable {
        weak var value: (any SeekPrecisionListener)?
    }

    private struct WeakDelegate: Sendable {
        weak var value: (any SeekDelegate)?
    }

    private struct Registry {
        var listeners: [WeakListener] = []
        weak var delegate: (any SeekDelegate)?
    }

    let queue: DispatchQueue
    private let registry = Locked(Registry())

    init(queue: DispatchQueue) { self.queue = queue }

    func add(_ listener: any SeekPrecisionListener) {
        registry.withLock { r in
            r.listeners.removeAll { $0.value == nil || $0.value === listener }
            r.listeners.append(WeakListener(value: listener))
        }
    }

    func remove(_ listener: any SeekPrecisionListener) {
        registry.withLock { r in r.listeners.removeAll { $0.value == nil || $0.value === listener } }
    }

    var delegate: (any SeekDelegate)? {
        get { registry.withLock { $0.delegate } }
        set { registry.withLock { $0.delegate = newValue } }
    }

    /// Calls `event` on every listener still alive, on the callback queue.
    func toListeners(_ event: @escaping @Sendable (any SeekPrecisionListener) -> Void) {
        registry.withLock { r in
            r.listeners.removeAll { $0.value == nil }
            let weakOnes = r.listeners
            queue.async {
                // Read the weak references only now: a listener released meanwhile gets nothing.
                for box in weakOnes { if let listener = box.value { event(listener) } }
            }
        }
    }

    /// Calls `event` on the delegate if it is still alive, on the callback queue.
    func toDelegate(_ event: @escaping @Sendable (any SeekDelegate) -> Void) {
        registry.withLock { r in
            let box = WeakDelegate(value: r.delegate)
            queue.async { if let delegate = box.value { event(delegate) } }
        }
    }

    /// Runs `work` on the callback queue, after every event enqueued before it.
    func deliver(_ work: @escaping @Sendable () -> Void) {
        registry.withLock { _ in queue.async(execute: work) }
    }
}
