// The index cache's key and bounds: an edit that keeps the modification time changes the key;
// the folder is kept under its size limit by evicting the entries least recently used; a
// temporary file a dead writer left is removed; a relative XDG_CACHE_HOME is ignored.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("The index cache: key, size limit, leftovers, location", .ffmpegLog)
struct IndexCacheBoundsTests {
    private static func open(_ path: String, stream: Int, cache: IndexCache) throws -> IndexCache.Outcome? {
        var options = FFmpegEngine.Options(streamIndex: stream, threads: 1)
        options.indexCache = cache
        return try FFmpegEngine(path: path, options: options).indexCacheOutcome
    }

    private static func writtenPath(_ outcome: IndexCache.Outcome?) -> String? {
        if case .written(let path) = outcome { path } else { nil }
    }

    private static func modificationTime(_ path: String) -> timespec {
        var status = stat()
        _ = stat(path, &status)
        return status.st_mtim
    }

    private static func size(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : -1
    }

    @Test("An edit in the middle of the file, with its modification time put back (touch -r), is a new key")
    func editKeepingModificationTime() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_mpegts_offset.s0"))
        let directory = try temporaryDirectory("index-cache-ctime")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The fixture and 3 MiB of MPEG-TS null packets (PID 0x1FFF, which demuxers skip): a
        // middle beyond the first and last MiB the key hashes.
        let file = directory.appendingPathComponent("padded.ts").path
        var bytes = try #require(FileManager.default.contents(atPath: fixture.path))
        let mediaLength = bytes.count
        let nullPacket = [0x47, 0x1F, 0xFF, 0x10] + [UInt8](repeating: 0xFF, count: 184)
        for _ in 0..<(3 << 20) / 188 { bytes.append(contentsOf: nullPacket) }
        try bytes.write(to: URL(fileURLWithPath: file))
        let cache = IndexCache(directory: directory.appendingPathComponent("cache").path)
        let first = try #require(Self.writtenPath(try Self.open(file, stream: fixture.stream, cache: cache)))
        #expect(try Self.open(file, stream: fixture.stream, cache: cache) == .read(path: first))

        let modified = Self.modificationTime(file)
        let middle = mediaLength + 188 * ((bytes.count - mediaLength) / 188 / 2) + 100
        #expect(middle > 1 << 20 && middle < bytes.count - (1 << 20))
        let handle = try #require(FileHandle(forUpdatingAtPath: file))
        try handle.seek(toOffset: UInt64(middle))
        try handle.write(contentsOf: [0x00])
        try handle.close()
        var times = [modified, modified]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        let restored = Self.modificationTime(file)
        #expect(restored.tv_sec == modified.tv_sec && restored.tv_nsec == modified.tv_nsec)

        let after = try Self.open(file, stream: fixture.stream, cache: cache)
        let second = try #require(Self.writtenPath(after), "the edited file read the old entry: \(String(describing: after))")
        #expect(second != first)
    }

    @Test("Past its size limit the cache evicts the least recently used entries, keeping one just read and one just written")
    func leastRecentlyUsedEviction() throws {
        let ids = ["h264_vfr.s0", "hevc_opengop.s0", "vp9_altref.s0"]
        let fixtures = try ids.map { try #require(FixtureCatalog.fixture($0)) }
        let directory = try temporaryDirectory("index-cache-lru")
        defer { try? FileManager.default.removeItem(at: directory) }
        let unbounded = IndexCache(directory: directory.path, sizeLimitBytes: .max)
        let a = try #require(Self.writtenPath(try Self.open(fixtures[0].path, stream: fixtures[0].stream, cache: unbounded)))
        // File times tick at the kernel's clock (a few ms): apart, each use has a time of its own.
        Thread.sleep(forTimeInterval: 0.05)
        let b = try #require(Self.writtenPath(try Self.open(fixtures[1].path, stream: fixtures[1].stream, cache: unbounded)))
        Thread.sleep(forTimeInterval: 0.05)
        // A is read again: now B is the least recently used.
        #expect(try Self.open(fixtures[0].path, stream: fixtures[0].stream, cache: unbounded) == .read(path: a))
        Thread.sleep(forTimeInterval: 0.05)

        // C's entry, written elsewhere first for its size.
        let scratch = IndexCache(directory: directory.appendingPathComponent("scratch").path, sizeLimitBytes: .max)
        let sizeC = Self.size(try #require(Self.writtenPath(try Self.open(fixtures[2].path, stream: fixtures[2].stream, cache: scratch))))
        try FileManager.default.removeItem(atPath: scratch.directory)
        let sizeA = Self.size(a), sizeB = Self.size(b)
        #expect(sizeA > 0 && sizeB > 0 && sizeC > 0)
        // Room for A and C, not for B as well.
        let bounded = IndexCache(directory: directory.path, sizeLimitBytes: sizeA + sizeC)
        let c = try #require(Self.writtenPath(try Self.open(fixtures[2].path, stream: fixtures[2].stream, cache: bounded)))
        #expect(FileManager.default.fileExists(atPath: a), "the entry just read was evicted")
        #expect(FileManager.default.fileExists(atPath: c), "the entry just written was evicted")
        #expect(!FileManager.default.fileExists(atPath: b), "the least recently used entry was kept")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .reduce(Int64(0)) { $0 + Self.size(directory.appendingPathComponent($1).path) }
        #expect(left <= bounded.sizeLimitBytes)
    }

    @Test("A write removes temporary files left by writers that died, and leaves a recent one alone")
    func staleTemporaryFiles() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_vfr.s0"))
        let directory = try temporaryDirectory("index-cache-tmp")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stale = directory.appendingPathComponent("0123.fsidx.99999.\(UUID().uuidString).tmp").path
        let recent = directory.appendingPathComponent("4567.fsidx.99999.\(UUID().uuidString).tmp").path
        try Data("half an entry".utf8).write(to: URL(fileURLWithPath: stale))
        try Data("being written".utf8).write(to: URL(fileURLWithPath: recent))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: stale)
        let cache = IndexCache(directory: directory.path)
        #expect(Self.writtenPath(try Self.open(fixture.path, stream: fixture.stream, cache: cache)) != nil)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: recent))
    }

    @Test("XDG_CACHE_HOME is used when absolute; relative or empty, it is ignored for $HOME/.cache")
    func cacheHome() {
        let home = "/home/viewer"
        #expect(
            IndexCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/var/cache/me", "HOME": home])
                == "/var/cache/me/frameseek/index")
        for ignored in ["relative/cache", ".cache", "", "~/cache"] {
            #expect(
                IndexCache.defaultDirectory(environment: ["XDG_CACHE_HOME": ignored, "HOME": home])
                    == "/home/viewer/.cache/frameseek/index", "XDG_CACHE_HOME=\(ignored)")
        }
        #expect(IndexCache.defaultDirectory(environment: ["HOME": home]) == "/home/viewer/.cache/frameseek/index")
    }

    @Test("The size limit: 512 MiB unless FRAMESEEK_INDEX_CACHE_MB says otherwise; a value that is not a size is ignored")
    func sizeLimitSetting() {
        let mebibyte: Int64 = 1 << 20
        #expect(IndexCache.defaultSizeLimitBytes(environment: [:]) == 512 * mebibyte)
        #expect(IndexCache.defaultSizeLimitBytes(environment: ["FRAMESEEK_INDEX_CACHE_MB": "64"]) == 64 * mebibyte)
        #expect(IndexCache.defaultSizeLimitBytes(environment: ["FRAMESEEK_INDEX_CACHE_MB": "0"]) == 0)
        for ignored in ["-1", "lots", "1.5", ""] {
            #expect(IndexCache.defaultSizeLimitBytes(environment: ["FRAMESEEK_INDEX_CACHE_MB": ignored]) == 512 * mebibyte)
        }
        #expect(IndexCache.defaultSizeLimitBytes(environment: ["FRAMESEEK_INDEX_CACHE_MB": "\(Int64.max)"]) == .max)
    }
}
