internal import CSQLite
import Foundation

/// A failed SQLite call: the function (or statement) that failed, its extended result code and
/// what `sqlite3_errmsg` said at that moment.
struct SQLiteError: Error, CustomStringConvertible {
    /// The sqlite3 function, with the SQL it ran when there is some.
    let function: String
    /// The extended result code (`sqlite3_extended_result_codes` is on).
    let code: Int32
    /// `sqlite3_errmsg` right after the failure, or `sqlite3_errstr` when there was no handle.
    let message: String

    /// Whether the file is damaged or not a database at all: the failures recovery answers by
    /// moving the file aside. Everything else (busy, read-only, no space, a directory) is
    /// reported, because moving the file would not fix it and could lose a good store.
    var meansDamage: Bool {
        let primary = code & 0xff
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }

    /// `function: message (code N)`.
    var description: String { "\(function): \(message) (code \(code))" }
}

/// A value bound to a statement or read from a row.
enum SQLiteValue: Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}

/// One SQLite connection: the only type in FrameSeek that calls SQLite's C API.
///
/// Not thread-safe on its own: opened with `SQLITE_OPEN_NOMUTEX` because its owner serializes
/// every call (a lock around the whole call also keeps `sqlite3_errmsg` paired with the failure
/// it describes, which SQLite's own per-call mutex would not). Prepared statements are cached
/// by their SQL and finalized when the connection closes.
///
/// Each statement may run at most ``instructionBudget`` virtual-machine instructions: the file
/// may come from anyone, and a view or trigger in it can make one statement run forever (a
/// recursive CTE with no end) while the caller holds the store lock. An interrupted statement
/// fails with SQLITE_INTERRUPT.
final class SQLiteConnection {
    /// nil once closed.
    private var handle: OpaquePointer?
    /// Prepared statements by SQL text, so each save and load reuses its compiled statement.
    private var statements: [String: OpaquePointer] = [:]
    /// Progress-handler calls during the statement now running, each after
    /// `instructionsPerCheck` instructions.
    private var checksThisStatement = 0

    /// The instructions one statement may run. The store's own statements (an indexed lookup,
    /// an upsert, creating one table) run tens to hundreds; a recursive CTE runs about 17 a
    /// row, so this stops one after some 600,000 rows, a fraction of a second.
    static let instructionBudget = 10_000_000
    private static let instructionsPerCheck: Int32 = 1000

    /// Opens (creating when missing) the database at `path` for reading and writing.
    init(path: String) throws(SQLiteError) {
        var db: OpaquePointer?
        let result = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard result == SQLITE_OK, let db else {
            // sqlite3_open_v2 hands back a handle even on failure (only for its error message),
            // which must still be closed.
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_close_v2(db)
            throw SQLiteError(function: "sqlite3_open_v2", code: result, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        // Unretained: the handler lives as long as the handle, which `close` (run by deinit at
        // the latest) closes.
        sqlite3_progress_handler(
            db, Self.instructionsPerCheck,
            { context in
                guard let context else { return 0 }
                let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
                connection.checksThisStatement += 1
                let allowed = SQLiteConnection.instructionBudget / Int(SQLiteConnection.instructionsPerCheck)
                return connection.checksThisStatement > allowed ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { close() }

    /// Finalizes the cached statements and closes the handle; later calls fail with
    /// SQLITE_MISUSE. Idempotent.
    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Closes a connection whose database was moved aside (renamed) while it was open, leaving
    /// every file alone. SQLite's last connection to a database deletes its `-wal` and `-shm` on
    /// close, by name: after the rename those names are the new database's, in use by other
    /// connections. A persistent WAL is never deleted by name (nor its `-shm`).
    func closeLeavingFiles() {
        if let handle {
            var persist: Int32 = 1
            _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        }
        close()
    }

    /// How long a call waits for another connection's lock before failing with SQLITE_BUSY.
    func setBusyTimeout(_ timeout: Duration) throws(SQLiteError) {
        let db = try openHandle("sqlite3_busy_timeout")
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        let clamped = Int32(clamping: max(0, milliseconds))
        try check(sqlite3_busy_timeout(db, clamped), "sqlite3_busy_timeout", db)
    }

    /// Runs `sql` with `bindings` (`?` parameters, in order) and returns every row.
    @discardableResult
    func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let db = try openHandle("sqlite3_prepare_v2")
        // Preparing can read the schema, which runs instructions too.
        checksThisStatement = 0
        let statement = try prepared(sql, db)
        // Reset even after a failure, so the cached statement holds no lock and no old bindings.
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .integer(let number): result = sqlite3_bind_int64(statement, index, number)
            case .real(let number): result = sqlite3_bind_double(statement, index, number)
            case .text(let text): result = sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .null: result = sqlite3_bind_null(statement, index)
            }
            try check(result, "sqlite3_bind (\(sql))", db)
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { return rows }
            guard result == SQLITE_ROW else { throw failure(result, "sqlite3_step (\(sql))", db) }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`, rolling back when it throws.
    ///
    /// IMMEDIATE takes the write lock before anything is read, so a store another process is
    /// writing is waited out by the busy timeout; a deferred transaction that reads and then
    /// writes can instead fail with SQLITE_BUSY_SNAPSHOT in WAL mode without waiting at all.
    func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try query("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try query("COMMIT")
            return result
        } catch {
            // The first error is the one worth reporting; a failed rollback (the connection
            // already rolled back on its own, say) adds nothing to it.
            _ = try? query("ROLLBACK")
            throw error
        }
    }

    // MARK: - C details

    /// SQLITE_TRANSIENT: SQLite copies bound text, because Swift's bridged C string lives only
    /// for the duration of the call. The C macro is a cast of -1 Swift does not import.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    private func openHandle(_ function: String) throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(function: function, code: SQLITE_MISUSE, message: "the connection is closed")
        }
        return handle
    }

    private func prepared(_ sql: String, _ db: OpaquePointer) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw failure(result, "sqlite3_prepare_v2 (\(sql))", db)
        }
        statements[sql] = statement
        return statement
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return sqlite3_column_text(statement, index).map { .text(String(cString: $0)) } ?? .null
        default: return .null
        }
    }

    private func check(_ result: Int32, _ function: String, _ db: OpaquePointer) throws(SQLiteError) {
        if result != SQLITE_OK { throw failure(result, function, db) }
    }

    private func failure(_ result: Int32, _ function: String, _ db: OpaquePointer) -> SQLiteError {
        if result == SQLITE_INTERRUPT {
            return SQLiteError(
                function: function, code: result,
                message: "stopped after \(Self.instructionBudget) SQLite instructions, far more than the store's "
                    + "statements need (a view or trigger FrameSeek did not write)")
        }
        return SQLiteError(function: function, code: result, message: String(cString: sqlite3_errmsg(db)))
    }
}
