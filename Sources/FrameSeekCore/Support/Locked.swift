import Foundation

/// A value behind a lock: the one way mutable state is shared between threads in FrameSeek.
///
/// Built on `NSLock` rather than `Synchronization.Mutex`: on Linux (Swift 6.3) ThreadSanitizer
/// does not see `Mutex`'s lock and unlock and reports races on correct code, which would bury
/// a real race under false ones.
package final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// Safe because `value` is read and written only inside `withLock`, while `lock` is held, so no
// two threads touch it at once and every access happens-after the previous one. Only for a
// Sendable value: a non-Sendable one could leave `withLock` and be shared unprotected.
extension Locked: @unchecked Sendable where Value: Sendable {}
