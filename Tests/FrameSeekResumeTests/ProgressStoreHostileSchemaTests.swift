import Foundation
import FrameSeekCore
@testable import FrameSeekResume
import FrameSeekTestSupport
import Testing

/// Store files whose schema runs SQL of its own: a view or trigger that never finishes would
/// hang a load or save (and `frameseek play --resume` with it) while the store lock is held.
@Suite("SQLiteProgressStore on files with a hostile schema: moved aside, and no statement runs unbounded")
struct ProgressStoreHostileSchemaTests {
    /// A recursive CTE that counts up forever.
    static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"

    /// How each file is made hostile, run on a database of schema version 1.
    enum Hostility: String, CaseIterable, CustomTestStringConvertible {
        case endlessView, triggerOnTable, otherTableDefinition

        var testDescription: String { rawValue }

        /// The objects the recovery warning names as not the store's.
        var unexpected: String {
            switch self {
            case .endlessView: "view progress"
            case .triggerOnTable: "trigger slow"
            case .otherTableDefinition: "table progress"
            }
        }

        /// The statement that makes the file hostile.
        var sql: String {
            switch self {
            case .endlessView:
                """
                CREATE VIEW progress (
                    key, position_value, position_timescale, duration_value, duration_timescale, updated)
                AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
                SELECT 'k' || x, 0, 1, 0, 1, 0.0 FROM c
                """
            case .triggerOnTable:
                // Four copies of 400 rows joined: 2.6e10 rows, no end in practice.
                """
                CREATE TRIGGER slow BEFORE INSERT ON progress BEGIN
                    SELECT count(*) FROM progress a, progress b, progress c, progress d;
                END
                """
            case .otherTableDefinition:
                """
                CREATE TABLE progress (
                    key TEXT PRIMARY KEY NOT NULL,
                    position_value INTEGER NOT NULL, position_timescale INTEGER NOT NULL,
                    duration_value INTEGER NOT NULL, duration_timescale INTEGER NOT NULL,
                    updated REAL NOT NULL CHECK (updated > 0))
                """
            }
        }

        /// Writes the hostile file at `path`: `sql` on a new file, or, for a trigger, on a
        /// real store of 400 keys.
        func make(at path: String) throws {
            if self == .triggerOnTable { try ProgressStoreDamageTests.makeRealStore(at: path, count: 400) }
            let connection = try SQLiteConnection(path: path)
            // WAL, as the store would make it on opening, so that the file moved aside holds
            // the very bytes written here.
            try connection.query("PRAGMA journal_mode=WAL")
            try connection.query("PRAGMA user_version = 1")
            try connection.query(sql)
        }
    }

    @Test("A schema other than the store's own is damage: moved aside at open, with a warning", arguments: Hostility.allCases)
    func hostileSchemaMovedAside(hostility: Hostility) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("progress.sqlite")
        try hostility.make(at: path)
        let hostile = try #require(FileManager.default.contents(atPath: path))
        let store = try SQLiteProgressStore(path: path)
        #expect(store.recoveryWarning?.contains("not exactly the one FrameSeek creates; unexpected: \(hostility.unexpected)") == true)
        try ProgressStoreDamageTests.expectRecovered(store, damaged: hostile, in: directory)
    }

    @Test("A statement that runs past the instruction budget is interrupted, and the connection still works")
    func statementInterrupted() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("scratch.sqlite"))
        // Twenty million rows: far past the budget, yet short enough to finish without it.
        let error = try #require(throws: SQLiteError.self) {
            try connection.query(
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000000) SELECT count(*) FROM c")
        }
        #expect(error.code == 9 /* SQLITE_INTERRUPT */)
        #expect(!error.meansDamage)
        #expect(try connection.query("SELECT count(*) FROM (\(Self.endless) LIMIT 1000)") == [[.integer(1000)]])
    }

    /// A store opened on a sound file, then `sql` run on the file by another connection.
    static func storeChangedAfterOpen(_ sql: String, in directory: TemporaryDirectory) throws -> SQLiteProgressStore {
        let path = directory.file("progress.sqlite")
        let store = try SQLiteProgressStore(path: path)
        for n in 0..<400 {
            try store.save(SavedProgress(key: "key-\(n)", position: MediaTime(value: Int64(n), timescale: 1), duration: .zero))
        }
        try SQLiteConnection(path: path).query(sql)
        return store
    }

    @Test("A store a database browser analyzed (SQLite's statistics tables) opens as it is, with its positions")
    func analyzedStoreIsKept() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.storeChangedAfterOpen("ANALYZE", in: directory)
        let reopened = try SQLiteProgressStore(path: store.path)
        #expect(reopened.recoveryWarning == nil, "\(reopened.recoveryWarning ?? "")")
        #expect(try reopened.load(key: "key-7")?.position == MediaTime(value: 7, timescale: 1))
    }

    @Test("A trigger added while the store is open makes a save fail with the store's error, not hang")
    func triggerAddedAfterOpen() throws {
        let directory = try TemporaryDirectory()
        // 400³ rows: over a hundred million instructions, most of a second without the budget.
        let store = try Self.storeChangedAfterOpen(
            "CREATE TRIGGER slow BEFORE INSERT ON progress BEGIN SELECT count(*) FROM progress a, progress b, progress c; END",
            in: directory)
        let error = try #require(throws: ProgressStoreError.self) {
            try store.save(SavedProgress(key: "new", position: .zero, duration: .zero))
        }
        #expect(error.path == store.path)
        #expect(error.cause.contains("stopped after"))
        // Rolled back, not moved aside, and the store lock is free for the next call.
        #expect(store.recoveryWarning == nil)
        #expect(try store.load(key: "new") == nil)
        #expect(try store.load(key: "key-7")?.position == MediaTime(value: 7, timescale: 1))
    }

    @Test("A function not marked safe for schemas does not run from a trigger in the file")
    func untrustedSchemaFunctions() throws {
        let directory = try TemporaryDirectory()
        // fts5_source_id is harmless, but like every function an extension registers without
        // SQLITE_INNOCUOUS, it runs from a trigger only while the schema is trusted.
        let store = try Self.storeChangedAfterOpen(
            "CREATE TRIGGER unsafe BEFORE INSERT ON progress BEGIN SELECT fts5_source_id(); END", in: directory)
        let error = try #require(throws: ProgressStoreError.self) {
            try store.save(SavedProgress(key: "new", position: .zero, duration: .zero))
        }
        #expect(error.cause.contains("unsafe use of fts5_source_id"))
    }
}
