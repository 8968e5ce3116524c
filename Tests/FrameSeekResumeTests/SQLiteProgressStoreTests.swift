import Foundation
import FrameSeekCore
@testable import FrameSeekResume
import FrameSeekTestSupport
import Testing

@Suite("SQLiteProgressStore: saves, loads and removes exactly, in WAL mode")
struct SQLiteProgressStoreTests {
    @Test("1001/30000 and other exact rationals come back exact, non-numeric durations keep their kind")
    func exactRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteProgressStore(path: directory.file("progress.sqlite"))
        let updated = Date(timeIntervalSince1970: 1_700_000_000.25)
        let cases: [(String, MediaTime, MediaTime)] = [
            ("ntsc", MediaTime(value: 1001, timescale: 30000), MediaTime(value: 3_603_600, timescale: 30000)),
            ("large", MediaTime(value: 1 << 50, timescale: 90000), MediaTime(value: Int64.max, timescale: Int32.max)),
            ("negative", MediaTime(value: -1, timescale: 3), MediaTime(value: 7, timescale: 1)),
            ("live", MediaTime(value: 5, timescale: 2), .indefinite),
            ("unbounded", .zero, .positiveInfinity),
            ("odd", .negativeInfinity, .invalid)
        ]
        for (key, position, duration) in cases {
            try store.save(SavedProgress(key: key, position: position, duration: duration, updated: updated))
        }
        for (key, position, duration) in cases {
            let loaded = try #require(try store.load(key: key))
            #expect(loaded.key == key)
            // Field by field, not just ==: 2/60000 would equal 1/30000 but is not what was saved.
            #expect(loaded.position.value == position.value && loaded.position.timescale == position.timescale)
            #expect(loaded.position.kind == position.kind)
            #expect(loaded.duration.value == duration.value && loaded.duration.timescale == duration.timescale)
            #expect(loaded.duration.kind == duration.kind)
            #expect(abs(loaded.updated.timeIntervalSince(updated)) < 1e-6)
        }
    }

    @Test("A save replaces the key's row; other keys are untouched")
    func upsertReplaces() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteProgressStore(path: directory.file("progress.sqlite"))
        let duration = MediaTime(value: 600, timescale: 1)
        try store.save(SavedProgress(key: "a", position: MediaTime(value: 1, timescale: 1), duration: duration))
        try store.save(SavedProgress(key: "b", position: MediaTime(value: 2, timescale: 1), duration: duration))
        try store.save(
            SavedProgress(
                key: "a", position: MediaTime(value: 1001, timescale: 24000),
                duration: MediaTime(value: 601, timescale: 1)))
        let a = try #require(try store.load(key: "a"))
        #expect(a.position == MediaTime(value: 1001, timescale: 24000))
        #expect(a.duration == MediaTime(value: 601, timescale: 1))
        #expect(try store.load(key: "b")?.position == MediaTime(value: 2, timescale: 1))
        let connection = try SQLiteConnection(path: store.path)
        #expect(try connection.query("SELECT count(*) FROM progress") == [[.integer(2)]])
    }

    @Test("remove forgets a key, and removing a missing key or loading one is not an error")
    func remove() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteProgressStore(path: directory.file("progress.sqlite"))
        try store.save(SavedProgress(key: "a", position: .zero, duration: .indefinite))
        try store.remove(key: "a")
        #expect(try store.load(key: "a") == nil)
        try store.remove(key: "never saved")
        #expect(try store.load(key: "never saved") == nil)
    }

    @Test("The database is in WAL mode, at schema version 1, with a -wal file while open")
    func walMode() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteProgressStore(path: directory.file("progress.sqlite"))
        try store.save(SavedProgress(key: "a", position: .zero, duration: .zero))
        #expect(FileManager.default.fileExists(atPath: store.path + "-wal"))
        // WAL is a property of the file: a second connection that sets nothing reads it back.
        let connection = try SQLiteConnection(path: store.path)
        #expect(try connection.query("PRAGMA journal_mode") == [[.text("wal")]])
        #expect(try connection.query("PRAGMA user_version") == [[.integer(1)]])
        #expect(store.recoveryWarning == nil)
    }

    @Test("A second store on the same file, and a store reopened after the first is gone, see committed saves")
    func reopenSeesSaves() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("nested/deeper/progress.sqlite")
        let position = MediaTime(value: 1001, timescale: 30000)
        do {
            let first = try SQLiteProgressStore(path: path)
            try first.save(SavedProgress(key: "movie", position: position, duration: .positiveInfinity))
            let second = try SQLiteProgressStore(path: path)
            #expect(try second.load(key: "movie")?.position == position)
        }
        let reopened = try SQLiteProgressStore(path: path)
        #expect(try reopened.load(key: "movie")?.position == position)
        #expect(reopened.recoveryWarning == nil)
    }

    @Test("Eight tasks saving and loading through one store at once")
    func concurrentCalls() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteProgressStore(path: directory.file("progress.sqlite"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for n in 1...50 {
                        try store.save(
                            SavedProgress(
                                key: "task-\(task)", position: MediaTime(value: Int64(n), timescale: 25),
                                duration: .indefinite))
                        _ = try store.load(key: "task-\((task + 1) % 8)")
                    }
                }
            }
            try await group.waitForAll()
        }
        for task in 0..<8 {
            #expect(try store.load(key: "task-\(task)")?.position == MediaTime(value: 50, timescale: 25))
        }
    }

    @Test("defaultPath: XDG_DATA_HOME when absolute, else ~/.local/share")
    func defaultPath() {
        #expect(
            SQLiteProgressStore.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
                == "/data/frameseek/progress.sqlite")
        #expect(
            SQLiteProgressStore.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"])
                == "/home/u/.local/share/frameseek/progress.sqlite")
        #expect(
            SQLiteProgressStore.defaultPath(environment: ["HOME": "/home/u"])
                == "/home/u/.local/share/frameseek/progress.sqlite")
        #expect(SQLiteProgressStore.defaultPath.hasSuffix("/frameseek/progress.sqlite"))
    }

    @Test("defaultKey differs between two fixtures and is the same for one file reopened, through a symlink")
    func defaultKey() throws {
        let first = Repository.fixture("media/h264_anamorphic_sar64x45.mp4")
        let second = Repository.fixture("media/bear_vp9.webm")
        let key = SQLiteProgressStore.defaultKey(forFileAt: first)
        #expect(key.hasPrefix("file:"))
        #expect(key != SQLiteProgressStore.defaultKey(forFileAt: second))
        #expect(key == SQLiteProgressStore.defaultKey(forFileAt: first))
        let directory = try TemporaryDirectory()
        let link = directory.file("link.mp4")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: first)
        #expect(SQLiteProgressStore.defaultKey(forFileAt: link) == key)
        // A file replaced by other content of the same size at the same path gets a new key.
        let copy = directory.file("copy.mp4")
        try FileManager.default.copyItem(atPath: first, toPath: copy)
        let before = SQLiteProgressStore.defaultKey(forFileAt: copy)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: copy)
        #expect(SQLiteProgressStore.defaultKey(forFileAt: copy) != before)
        #expect(SQLiteProgressStore.defaultKey(forFileAt: directory.file("missing.mp4")).hasPrefix("path:/"))
    }
}

@Suite("SQLiteProgressStore.defaultKey for any modification time a file can have")
struct DefaultKeyModificationTimeTests {
    /// Sets the modification time of `path` to `seconds` and `nanoseconds` exactly.
    static func setModificationTime(_ path: String, seconds: Int, nanoseconds: Int) throws {
        let times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        try #require(utimensat(AT_FDCWD, path, times, 0) == 0, "utimensat: \(String(cString: strerror(errno)))")
    }

    @Test(
        "A file's key ends in its modification time, in nanoseconds while they fit, as seconds and nine digits past 2262",
        arguments: [
            (1_700_000_000, 500_000_007, "1700000000500000007"),
            // 2300-01-01T00:00:00Z: 1.04e19 ns, past Int64.max (2262-04-11).
            (10_413_792_000, 0, "10413792000.000000000"),
            (10_413_792_000, 1, "10413792000.000000001")
        ])
    func keyOfFileModifiedAt(seconds: Int, nanoseconds: Int, expected: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("media.mp4")
        try Data("media".utf8).write(to: URL(fileURLWithPath: path))
        try Self.setModificationTime(path, seconds: seconds, nanoseconds: nanoseconds)
        let key = SQLiteProgressStore.defaultKey(forFileAt: path)
        #expect(key.hasPrefix("file:/") && key.hasSuffix("/media.mp4:5:" + expected))
        #expect(SQLiteProgressStore.defaultKey(forFileAt: path) == key)
    }

    @Test(
        "Times whose nanoseconds overflow, either way, are seconds and nine digits",
        arguments: [
            (9_223_372_036, 854_775_807, "9223372036854775807"),
            (9_223_372_036, 854_775_808, "9223372036.854775808"),
            (Int.max, 999_999_999, "\(Int.max).999999999"),
            (-9_223_372_036, 0, "-9223372036000000000"),
            (-9_223_372_037, 145_224_192, "-9223372037.145224192"),
            (Int.min, 0, "\(Int.min).000000000")
        ])
    func overflowingTimes(seconds: Int, nanoseconds: Int, expected: String) {
        #expect(SQLiteProgressStore.modificationTime(timespec(tv_sec: seconds, tv_nsec: nanoseconds)) == expected)
    }
}
