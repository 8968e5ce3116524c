import Foundation

/// Where a viewer left off in one media item: what a `ProgressStore` keeps per key.
public struct SavedProgress: Sendable, Hashable {
    /// The media item's key: the caller's identifier, or one derived from the file's identity.
    public var key: String
    /// The position to resume at, exact.
    public var position: MediaTime
    /// The item's duration when the position was saved, so a store can be read without
    /// opening the media.
    public var duration: MediaTime
    /// When the position was saved.
    public var updated: Date

    /// Creates a record.
    public init(key: String, position: MediaTime, duration: MediaTime, updated: Date = Date()) {
        self.key = key
        self.position = position
        self.duration = duration
        self.updated = updated
    }
}

/// Keeps playback positions per media item, across runs of the program.
///
/// Implementations are safe to call from any thread. Every failure is a `ProgressStoreError`;
/// a store never traps, whatever its file holds.
public protocol ProgressStore: Sendable {
    /// The saved progress for `key`, nil when there is none.
    func load(key: String) throws(ProgressStoreError) -> SavedProgress?
    /// Saves `progress`, replacing what `progress.key` had.
    func save(_ progress: SavedProgress) throws(ProgressStoreError)
    /// Forgets `key` (playback completed); nothing happens when it has nothing saved.
    func remove(key: String) throws(ProgressStoreError)
}

/// Why a progress store could not do what was asked.
public struct ProgressStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store's file, nil for stores that have none.
    public let path: String?
    /// What went wrong, in words (for SQLite, the function and `sqlite3_errmsg`).
    public let cause: String

    /// Creates an error.
    public init(path: String?, cause: String) {
        self.path = path
        self.cause = cause
    }

    /// One line: `PATH: cause`.
    public var description: String { path.map { "\($0): \(cause)" } ?? cause }
}

/// A store in memory, for tests and for apps that resume only within one run.
public final class InMemoryProgressStore: ProgressStore {
    private let records = Locked<[String: SavedProgress]>([:])

    /// An empty store.
    public init() {}

    /// The saved progress for `key`.
    public func load(key: String) -> SavedProgress? { records.withLock { $0[key] } }

    /// Saves `progress`.
    public func save(_ progress: SavedProgress) { records.withLock { $0[progress.key] = progress } }

    /// Forgets `key`.
    public func remove(key: String) { _ = records.withLock { $0.removeValue(forKey: key) } }
}
