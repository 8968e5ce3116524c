import Dispatch

/// A non-Sendable value that lives on one serial dispatch queue: the way FrameSeek keeps
/// decoder state (an engine, a thumbnail generator) touched from one place, off the
/// cooperative thread pool, since decoding blocks for as long as a GOP takes.
package final class QueueConfined<Value>: @unchecked Sendable {
    // Safe because `value` is read and written only inside blocks running on `queue` (every
    // access goes through `perform`), so the non-Sendable value, and any C state behind it,
    // is only ever touched by one thread at a time.
    private var value: Value
    /// The queue the value lives on.
    package let queue: DispatchQueue

    /// Confines `value`, which no one else may keep, to a new serial queue.
    package init(_ value: sending Value, label: String) {
        self.value = value
        self.queue = DispatchQueue(label: label)
    }

    /// Queues `body` to run with the value, on its queue, and returns at once: blocks run in
    /// the order they were scheduled.
    package func schedule(_ body: @escaping @Sendable (inout Value) -> Void) {
        queue.async { body(&self.value) }
    }

    /// Runs `body` with the value, on its queue.
    package func perform<T: Sendable>(_ body: @escaping @Sendable (inout Value) -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body(&self.value)) }
        }
    }
}
