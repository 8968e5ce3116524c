import Foundation
import FrameSeekCore

/// The default `ProgressStore`: one SQLite database file, one row per media key.
///
/// - WAL journal with `synchronous=NORMAL`: a save is one short write transaction that never
///   blocks readers. A committed save is in the WAL file, in the kernel's page cache, before
///   `save` returns, so killing the process (even with SIGKILL) loses nothing committed; the
///   next open replays the WAL. What NORMAL gives up against FULL is durability across a power
///   loss or kernel crash, where the last few saves may roll back (the database stays
///   consistent); for playback positions that is a few seconds of progress, not worth an
///   fsync on every save.
/// - A busy timeout: several processes (two players, a player and a tool) may write the same
///   file; a writer waits for the other's lock instead of failing.
/// - Upserts (`INSERT … ON CONFLICT(key) DO UPDATE`) inside `BEGIN IMMEDIATE`.
/// - Positions keep their exact rational `value`/`timescale`, so 1001/30000 comes back as
///   1001/30000, never as a rounded `Double`.
///
/// Damage: when the file is not a database or is corrupt (at open, under `PRAGMA quick_check`,
/// or later in any call), or holds a schema other than exactly the store's own, it and its
/// `-wal`/`-shm` are renamed to `PATH.corrupt-<timestamp>` and a fresh database is created in
/// its place; ``recoveryWarning`` then says so. Saved positions are conveniences, so losing
/// them beats refusing to play. Anything else (a directory at the path, permissions, a full
/// disk, a schema from a newer FrameSeek, a statement stopped for running too long) is a
/// `ProgressStoreError` naming the file, and the file is left alone.
///
/// Several processes: every call holds `PATH.lock` shared, and recovery holds it exclusive
/// (see `StoreLock`, which also says why this cannot deadlock), so no database is moved aside
/// while another process is inside a call on it. Each call first compares the file its
/// connection has open with the file at the path (device and inode); when recovery in another
/// process moved the database aside, the call reopens the one now at the path, so a save that
/// returned is in the store the path names, never in a file moved aside. The lock files stay
/// next to the database.
///
/// Safe to use from any thread: calls are serialized on one connection.
public final class SQLiteProgressStore: ProgressStore, @unchecked Sendable {
    // @unchecked Sendable is safe because the one piece of shared mutable state, the connection
    // (a non-Sendable class around a SQLite handle, which is why `Locked<State>` is not
    // Sendable by itself), is reached only inside `state.withLock`: every call runs under the
    // lock, and no method returns the connection or lets it out of the closure. `path` and
    // `busyTimeout` are immutable, and `lock` holds only file descriptors it never changes.

    /// The database file.
    public let path: String
    private let busyTimeout: Duration
    private let lock: StoreLock
    private let state: Locked<State>

    /// The connection, the file it has open and what recovery has said, changed together under
    /// the lock.
    private struct State {
        var connection: SQLiteConnection
        /// The file `connection` has open; nil when that is not known (its reopening failed),
        /// which the next call takes as moved.
        var identity: FileIdentity?
        var warning: String?
    }

    /// How long a call waits for the store lock: an exclusive lock waits out calls under way,
    /// each of which may wait `busyTimeout` for SQLite's own lock.
    private static func lockTimeout(_ busyTimeout: Duration) -> Duration { busyTimeout * 3 + .seconds(1) }

    /// The schema this version writes, in `PRAGMA user_version`.
    static let schemaVersion: Int64 = 1

    /// Set when a damaged file was moved aside and a fresh store created: names the file and
    /// where it went. nil while the store has needed no recovery.
    public var recoveryWarning: String? { state.withLock { $0.warning } }

    /// Opens the store at `path`, creating it and its parent directories when missing.
    ///
    /// - Parameters:
    ///   - path: The database file, usually ``defaultPath``.
    ///   - busyTimeout: How long a call waits while another connection (another process)
    ///     holds the write lock before failing.
    /// - Throws: `ProgressStoreError` naming `path` when the store cannot be opened or
    ///   created: a directory at the path, no permission, a parent that cannot be created, a
    ///   schema from a newer version. A damaged file is not an error: see ``recoveryWarning``.
    public init(path: String, busyTimeout: Duration = .seconds(5)) throws(ProgressStoreError) {
        self.path = path
        self.busyTimeout = busyTimeout
        try Self.prepareLocation(path)
        let lock = try StoreLock(databasePath: path)
        self.lock = lock
        let timeout = Self.lockTimeout(busyTimeout)
        let healthy = try lock.shared(within: timeout) { () throws(ProgressStoreError) -> State? in
            do throws(SQLiteError) {
                let connection = try Self.open(path, busyTimeout)
                return State(connection: connection, identity: FileIdentity(path: path), warning: nil)
            } catch  where error.meansDamage {
                return nil
            } catch {
                throw ProgressStoreError(path: path, cause: error.description)
            }
        }
        if let healthy {
            state = Locked(healthy)
        } else {
            state = Locked(
                try lock.exclusive(within: timeout) { () throws(ProgressStoreError) in try Self.openRecovering(path, busyTimeout) })
        }
    }

    /// The saved progress for `key`, nil when there is none.
    public func load(key: String) throws(ProgressStoreError) -> SavedProgress? {
        let rows = try run { connection throws(SQLiteError) in
            try connection.query(
                """
                SELECT position_value, position_timescale, duration_value, duration_timescale, updated
                FROM progress WHERE key = ?
                """, [.text(key)])
        }
        guard let row = rows.first else { return nil }
        guard row.count == 5, case .integer(let positionValue) = row[0], case .integer(let positionScale) = row[1],
            case .integer(let durationValue) = row[2], case .integer(let durationScale) = row[3]
        else {
            throw ProgressStoreError(path: path, cause: "the row for \(key) does not hold integer times")
        }
        let updated: Double
        switch row[4] {
        case .real(let seconds): updated = seconds
        case .integer(let seconds): updated = Double(seconds)
        default: throw ProgressStoreError(path: path, cause: "the row for \(key) has no update time")
        }
        return SavedProgress(
            key: key, position: Self.decode(positionValue, positionScale),
            duration: Self.decode(durationValue, durationScale),
            updated: Date(timeIntervalSince1970: updated))
    }

    /// Saves `progress`, replacing what `progress.key` had, and returns once it is committed.
    public func save(_ progress: SavedProgress) throws(ProgressStoreError) {
        let position = Self.encode(progress.position)
        let duration = Self.encode(progress.duration)
        _ = try run { connection throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) in
                try connection.query(
                    """
                    INSERT INTO progress (key, position_value, position_timescale, duration_value, duration_timescale, updated)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET
                        position_value = excluded.position_value, position_timescale = excluded.position_timescale,
                        duration_value = excluded.duration_value, duration_timescale = excluded.duration_timescale,
                        updated = excluded.updated
                    """,
                    [
                        .text(progress.key), .integer(position.value), .integer(position.timescale),
                        .integer(duration.value), .integer(duration.timescale),
                        .real(progress.updated.timeIntervalSince1970)
                    ])
            }
        }
    }

    /// Forgets `key`; nothing happens when it has nothing saved.
    public func remove(key: String) throws(ProgressStoreError) {
        _ = try run { connection throws(SQLiteError) in
            try connection.query("DELETE FROM progress WHERE key = ?", [.text(key)])
        }
    }

    // MARK: - Opening and recovery

    /// Creates the parent directories and refuses a directory at the path, which SQLite would
    /// otherwise report only as a vague "unable to open" (and which recovery must never move).
    private static func prepareLocation(_ path: String) throws(ProgressStoreError) {
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw ProgressStoreError(path: path, cause: "cannot create the directory \(parent): \(error.localizedDescription)")
            }
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ProgressStoreError(path: path, cause: "is a directory, not a database file")
        }
    }

    /// Opens and checks the database and brings its schema up to date.
    /// `PRAGMA journal_mode=WAL`, made again while it fails with SQLITE_BUSY, for up to
    /// `timeout`. The switch to WAL needs the file to itself, and SQLite answers BUSY at once,
    /// without the busy handler, when waiting could deadlock: two processes opening a new store
    /// together each hold a read lock while asking for the write lock (seen as "database is
    /// locked" from one of two writers started at once).
    private static func journalModeWAL(
        _ connection: SQLiteConnection, waitingUpTo timeout: Duration
    ) throws(SQLiteError)
        -> [[SQLiteValue]]
    {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pause = Duration.milliseconds(5)
        while true {
            do {
                return try connection.query("PRAGMA journal_mode=WAL")
            } catch  where error.code & 0xff == 5 /* SQLITE_BUSY */ && clock.now + pause < deadline {
                Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18 + Double(pause.components.seconds))
                pause = min(pause * 2, .milliseconds(100))
            }
        }
    }

    private static func open(_ path: String, _ busyTimeout: Duration) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        // First, so that everything after it, schema setup included, waits for other writers.
        try connection.setBusyTimeout(busyTimeout)
        // Functions not marked safe for schemas (an extension's, say) stay out of the file's
        // views and triggers.
        try connection.query("PRAGMA trusted_schema=OFF")
        // sqlite3_open_v2 reads nothing; a file of random bytes fails here with SQLITE_NOTADB.
        // quick_check also walks every page, so a truncated or overwritten database is found
        // now rather than by a save in the middle of playback. Stores are small (one row per
        // media item), so this costs milliseconds.
        let check = try connection.query("PRAGMA quick_check")
        if check != [[.text("ok")]] {
            let problems = check.prefix(3).compactMap { row -> String? in
                if case .text(let line) = row.first { return line }
                return nil
            }
            throw SQLiteError(
                function: "PRAGMA quick_check", code: 11 /* SQLITE_CORRUPT */,
                message: problems.joined(separator: "; "))
        }
        let mode = try journalModeWAL(connection, waitingUpTo: busyTimeout)
        guard mode == [[.text("wal")]] else {
            throw SQLiteError(
                function: "PRAGMA journal_mode=WAL", code: 1 /* SQLITE_ERROR */,
                message: "the journal mode stayed \(mode.first?.first.map { "\($0)" } ?? "unknown")")
        }
        try connection.query("PRAGMA synchronous=NORMAL")
        try connection.transaction { () throws(SQLiteError) in
            guard case .integer(let version) = try connection.query("PRAGMA user_version").first?.first else {
                throw SQLiteError(function: "PRAGMA user_version", code: 1, message: "no version returned")
            }
            if version > schemaVersion {
                throw SQLiteError(
                    function: "PRAGMA user_version", code: 1,
                    message: "schema version \(version) was written by a newer FrameSeek (this one knows \(schemaVersion))")
            }
            try checkSchema(connection)
            if version < schemaVersion { try connection.query("PRAGMA user_version = \(schemaVersion)") }
        }
        return connection
    }

    /// The table this version creates, as SQLite keeps it in `sqlite_master`.
    private static let progressTableSQL = """
        CREATE TABLE progress (
            key TEXT PRIMARY KEY NOT NULL,
            position_value INTEGER NOT NULL, position_timescale INTEGER NOT NULL,
            duration_value INTEGER NOT NULL, duration_timescale INTEGER NOT NULL,
            updated REAL NOT NULL)
        """

    /// Creates the table in an empty database, and otherwise checks that the schema is exactly
    /// the one this version creates: the table and its primary-key index, nothing else but
    /// SQLite's own statistics tables.
    ///
    /// Anything more is a file FrameSeek did not write, and damage: a view named `progress`
    /// or a trigger on it runs the file's own SQL on every load or save (one that never ends,
    /// say), and a different table or constraints would make the store's statements mean
    /// something else.
    private static func checkSchema(_ connection: SQLiteConnection) throws(SQLiteError) {
        let objects = try connection.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
        if objects.isEmpty {
            try connection.query(progressTableSQL)
            return
        }
        let expected: [[SQLiteValue]] = [
            [.text("index"), .text("sqlite_autoindex_progress_1"), .text("progress"), .null],
            [.text("table"), .text("progress"), .text("progress"), collapsingWhitespace(.text(progressTableSQL))]
        ]
        // `ANALYZE` and `PRAGMA optimize` (a database browser runs them) add SQLite's statistics
        // tables: plain data the query planner reads, which runs nothing.
        let statistics = objects.filter { row in
            guard row.count >= 2, case .text("table") = row[0], case .text(let name) = row[1] else { return false }
            return name.hasPrefix("sqlite_stat")
        }
        let found = objects.filter { !statistics.contains($0) }.map { $0.map(collapsingWhitespace) }
        if found == expected { return }
        // "view progress": the type and name of each object.
        let describe = { (objects: [[SQLiteValue]]) in
            objects.map { row in
                row.prefix(2).map { value in if case .text(let text) = value { text } else { "?" } }.joined(separator: " ")
            }
            .joined(separator: ", ")
        }
        let unexpected = found.filter { !expected.contains($0) }
        let missing = expected.filter { !found.contains($0) }
        throw SQLiteError(
            function: "the store's schema", code: 11 /* SQLITE_CORRUPT */,
            message: "not exactly the one FrameSeek creates; unexpected: \(describe(unexpected)); missing: \(describe(missing))")
    }

    /// `value` with each run of whitespace in text made one space, so that reflowing the
    /// statement that created a table leaves stores written before it valid.
    private static func collapsingWhitespace(_ value: SQLiteValue) -> SQLiteValue {
        guard case .text(let text) = value else { return value }
        return .text(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }

    /// Opens the database at `path`, moving it aside first when it is damaged, under the
    /// exclusive store lock. Another process may have replaced a damaged file already; its
    /// replacement then opens as it is.
    private static func openRecovering(_ path: String, _ busyTimeout: Duration) throws(ProgressStoreError) -> State {
        do throws(SQLiteError) {
            let connection = try open(path, busyTimeout)
            return State(connection: connection, identity: FileIdentity(path: path), warning: nil)
        } catch  where error.meansDamage {
            let warning = try moveAside(path, because: error)
            let connection = try reopenAfterRecovery(path, busyTimeout)
            return State(connection: connection, identity: FileIdentity(path: path), warning: warning)
        } catch {
            throw ProgressStoreError(path: path, cause: error.description)
        }
    }

    /// Opens the fresh database that replaces a moved-aside one.
    private static func reopenAfterRecovery(
        _ path: String, _ busyTimeout: Duration
    ) throws(ProgressStoreError)
        -> SQLiteConnection
    {
        do throws(SQLiteError) {
            return try open(path, busyTimeout)
        } catch {
            throw ProgressStoreError(path: path, cause: "a damaged store was moved aside, but a new one failed: \(error)")
        }
    }

    /// Renames the damaged file and its `-wal` and `-shm` to `PATH.corrupt-<timestamp>…` and
    /// returns the warning that says so.
    ///
    /// The WAL must go with the file: left behind, SQLite could replay its frames onto the new
    /// database. Renaming keeps the damaged data for anyone who wants to look at it.
    private static func moveAside(_ path: String, because damage: SQLiteError) throws(ProgressStoreError) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        var target = "\(path).corrupt-\(formatter.string(from: Date()))"
        var attempt = 1
        while FileManager.default.fileExists(atPath: target) {
            attempt += 1
            target = "\(path).corrupt-\(formatter.string(from: Date()))-\(attempt)"
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            if rename(path + suffix, target + suffix) != 0 {
                let reason = String(cString: strerror(errno))
                throw ProgressStoreError(
                    path: path, cause: "damaged (\(damage)) and cannot be moved aside to \(target + suffix): \(reason)")
            }
        }
        return "The progress store \(path) was damaged (\(damage)); it was moved to \(target) and a new, empty store created."
    }

    /// Runs `body` on the connection under the lock. A damaged database found by the call
    /// (another process or the disk broke it after we opened it) is moved aside and the call
    /// is run once more on a fresh store.
    private func run<Result>(_ body: (SQLiteConnection) throws(SQLiteError) -> Result) throws(ProgressStoreError) -> Result {
        // Locked.withLock rethrows untyped errors; a Result keeps the error's type across it.
        let outcome = state.withLock { state -> Swift.Result<Result, ProgressStoreError> in
            do throws(ProgressStoreError) {
                return .success(try run(body, on: &state))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// `run` under the instance's lock: `body` under the shared store lock, on the database
    /// the path names; after recovery, under the exclusive store lock, once more.
    private func run<Result>(
        _ body: (SQLiteConnection) throws(SQLiteError) -> Result, on state: inout State
    ) throws(ProgressStoreError) -> Result {
        let timeout = Self.lockTimeout(busyTimeout)
        let first = try lock.shared(within: timeout) { () throws(ProgressStoreError) -> Swift.Result<Result, SQLiteError> in
            do throws(SQLiteError) {
                try followMove(&state)
                return .success(try body(state.connection))
            } catch  where error.meansDamage {
                return .failure(error)
            } catch {
                throw ProgressStoreError(path: path, cause: error.description)
            }
        }
        let damage: SQLiteError
        switch first {
        case .success(let result): return result
        case .failure(let error): damage = error
        }
        try lock.exclusive(within: timeout) { () throws(ProgressStoreError) in
            if let identity = state.identity, FileIdentity(path: path) == identity {
                // Still the file this call found damaged. Closed first, so that no handle of
                // ours still points at the moved files.
                state.connection.close()
                state.warning = try Self.moveAside(path, because: damage)
                state.connection = try Self.reopenAfterRecovery(path, busyTimeout)
                state.identity = FileIdentity(path: path)
            } else {
                // Another process moved it aside first: open what it put in its place.
                state.connection.closeLeavingFiles()
                let reopened = try Self.openRecovering(path, busyTimeout)
                state.connection = reopened.connection
                state.identity = reopened.identity
                state.warning = reopened.warning ?? state.warning
            }
        }
        return try lock.shared(within: timeout) { () throws(ProgressStoreError) -> Result in
            do throws(SQLiteError) {
                try followMove(&state)
                return try body(state.connection)
            } catch {
                throw ProgressStoreError(path: path, cause: error.description)
            }
        }
    }

    /// Under the shared store lock: when the path no longer names the file the connection has
    /// open (another process moved it aside), opens the database the path names now.
    private func followMove(_ state: inout State) throws(SQLiteError) {
        if let identity = state.identity, FileIdentity(path: path) == identity { return }
        state.connection.closeLeavingFiles()
        state.identity = nil
        state.connection = try Self.open(path, busyTimeout)
        state.identity = FileIdentity(path: path)
    }

    // MARK: - Times in columns

    /// Codes for the non-numeric kinds, stored as the value with a timescale of 0 (a timescale
    /// no numeric time has), so an indefinite live duration comes back indefinite.
    private static let kindCodes: [(MediaTime, Int64)] = [
        (.invalid, 0), (.positiveInfinity, 1), (.negativeInfinity, -1), (.indefinite, 2)
    ]

    private static func encode(_ time: MediaTime) -> (value: Int64, timescale: Int64) {
        if time.kind == .numeric { return (time.value, Int64(time.timescale)) }
        return (kindCodes.first { $0.0.kind == time.kind }?.1 ?? 0, 0)
    }

    /// The time a row holds; anything out of range (another program wrote the row) is
    /// `.invalid`, never a trap.
    private static func decode(_ value: Int64, _ timescale: Int64) -> MediaTime {
        if timescale == 0 { return kindCodes.first { $0.1 == value }?.0 ?? .invalid }
        guard let scale = Int32(exactly: timescale), scale > 0 else { return .invalid }
        return MediaTime(value: value, timescale: scale)
    }
}
