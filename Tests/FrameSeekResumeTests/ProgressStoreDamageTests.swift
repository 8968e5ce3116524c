import Foundation
import FrameSeekCore
@testable import FrameSeekResume
import FrameSeekTestSupport
import Testing

@Suite("SQLiteProgressStore on damaged and unusable files: recovered with a warning or a clean error")
struct ProgressStoreDamageTests {
    /// A store at `path` that has saved `count` keys long enough to fill several pages, closed
    /// (the last connection's close checkpoints the WAL into the file).
    static func makeRealStore(at path: String, count: Int) throws {
        let store = try SQLiteProgressStore(path: path)
        for n in 0..<count {
            try store.save(
                SavedProgress(
                    key: "/media/some/long/path/to/a/file-number-\(n).mp4",
                    position: MediaTime(value: Int64(n), timescale: 30000), duration: .indefinite))
        }
    }

    /// Checks a recovered store: the warning names the file and where it went, the damaged
    /// bytes are there, and the new store works.
    static func expectRecovered(_ store: SQLiteProgressStore, damaged: Data, in directory: TemporaryDirectory) throws {
        let warning = try #require(store.recoveryWarning)
        #expect(warning.contains(store.path))
        let aside = try #require(
            try directory.names().first { $0.hasPrefix("progress.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
        #expect(warning.contains(aside))
        #expect(FileManager.default.contents(atPath: directory.file(aside)) == damaged)
        #expect(try store.load(key: "anything") == nil)
        try store.save(SavedProgress(key: "after", position: MediaTime(value: 1001, timescale: 30000), duration: .zero))
        #expect(try store.load(key: "after")?.position == MediaTime(value: 1001, timescale: 30000))
        // The next open finds a healthy store and has nothing to say.
        #expect(try SQLiteProgressStore(path: store.path).recoveryWarning == nil)
    }

    @Test("A file of random bytes is moved aside and a new store created, with a warning")
    func randomBytes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("progress.sqlite")
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let store = try SQLiteProgressStore(path: path)
        try Self.expectRecovered(store, damaged: bytes, in: directory)
    }

    /// Writes a real store of 400 keys, closes it, damages its bytes with `damage`, and checks
    /// that opening it again recovers.
    static func expectRecovery(afterDamaging damage: (Data) -> Data) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("progress.sqlite")
        try makeRealStore(at: path, count: 400)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let whole = try #require(FileManager.default.contents(atPath: path))
        #expect(whole.count > 16 * 1024)
        let damaged = damage(whole)
        try damaged.write(to: URL(fileURLWithPath: path))
        try expectRecovered(try SQLiteProgressStore(path: path), damaged: damaged, in: directory)
    }

    @Test(
        "A real store truncated (to half, to 2%) is found at open, moved aside and recreated",
        arguments: [0.5, 0.02])
    func truncated(fraction: Double) throws {
        try Self.expectRecovery { whole in whole.prefix(Int(Double(whole.count) * fraction)) }
    }

    @Test("A real store with pages overwritten in the middle is found by quick_check and recovered")
    func overwrittenPages() throws {
        try Self.expectRecovery { whole in
            var bytes = whole
            // Pages 2 and 3 (4096 bytes each): b-tree pages of the table, past the file header.
            for offset in 4096..<(3 * 4096) { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 2_654_435_761 >> 13) }
            return bytes
        }
    }

    @Test("A directory at the path is a ProgressStoreError naming it, and is left alone")
    func directoryAtPath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("progress.sqlite")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let error = try #require(throws: ProgressStoreError.self) { try SQLiteProgressStore(path: path) }
        #expect(error.path == path)
        #expect(error.cause.contains("directory"))
        #expect(try directory.names() == ["progress.sqlite"])
    }

    @Test("A parent that is a regular file is a ProgressStoreError naming the path")
    func parentIsAFile() throws {
        let directory = try TemporaryDirectory()
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: directory.file("parent")))
        let path = directory.file("parent/progress.sqlite")
        let error = try #require(throws: ProgressStoreError.self) { try SQLiteProgressStore(path: path) }
        #expect(error.path == path)
        #expect(error.description.hasPrefix(path + ": "))
    }

    @Test("A store written by a newer schema is an error and is not moved aside")
    func newerSchema() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("progress.sqlite")
        try Self.makeRealStore(at: path, count: 1)
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.query("PRAGMA user_version = 7")
        }
        let error = try #require(throws: ProgressStoreError.self) { try SQLiteProgressStore(path: path) }
        #expect(error.path == path)
        #expect(error.cause.contains("newer"))
        #expect(!(try directory.names().contains { $0.contains("corrupt") }))
    }
}
