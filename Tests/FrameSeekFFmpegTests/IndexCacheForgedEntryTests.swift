// Index cache entries forged by someone who can write the cache folder: well formed, with
// checksums that hold, but for another stream, another time base, another codec, or another
// file's table under this file's key. Each is rejected by the check against the stream it is
// opened for, the table is rebuilt from the media, and landings have framemd5's pixels.

import Foundation
import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

/// An entry's bytes split where its key ends: the header (magic, format, key) and the payload.
/// Whatever the payload is changed to, `bytes` gives it the length and SHA-256 that match, so
/// the entry is as well formed as one FrameSeek wrote.
struct ForgeableEntry {
    var header: [UInt8]
    var payload: [UInt8]

    /// Offsets in the payload of the fields `IndexCacheFile` writes first (8-byte little-endian).
    enum Field: Int, CaseIterable, CustomTestStringConvertible {
        case streamIndex = 1
        case mediaType = 9
        case codecID = 17
        case timeBaseNumerator = 25
        case timeBaseDenominator = 33
        case originPTS = 41
        var testDescription: String { "\(self)" }
    }

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        try #require(bytes.count > 17)
        let keyLength = Int(Self.integer(bytes, at: 9))
        let headerEnd = 17 + keyLength
        try #require(keyLength > 0 && headerEnd + 40 <= bytes.count)
        header = Array(bytes[..<headerEnd])
        payload = Array(bytes[(headerEnd + 40)...])
    }

    /// The key text the header holds.
    var key: String { String(decoding: header[17...], as: UTF8.self) }

    var bytes: Data {
        var length = Int64(payload.count).littleEndian
        let lengthBytes = withUnsafeBytes(of: &length) { Array($0) }
        return Data(header + lengthBytes + (SHA256Digest.digest(of: payload) ?? []) + payload)
    }

    subscript(field: Field) -> Int64 {
        get { Self.integer(payload, at: field.rawValue) }
        set {
            var value = newValue.littleEndian
            withUnsafeBytes(of: &value) { payload.replaceSubrange(field.rawValue..<(field.rawValue + 8), with: $0) }
        }
    }

    private static func integer(_ bytes: [UInt8], at offset: Int) -> Int64 {
        Int64(bitPattern: bytes[offset..<(offset + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
}

@Suite("The index cache: forged entries with valid checksums", .ffmpegLog)
struct IndexCacheForgedEntryTests {
    static let target = "h264_mpegts_offset.s0"

    private static func options(_ fixture: Fixture, cache: IndexCache) -> FFmpegEngine.Options {
        var options = FFmpegEngine.Options(streamIndex: fixture.stream, threads: 1)
        options.indexCache = cache
        return options
    }

    /// Opens `fixture` with `cache` holding `forged` where its entry belongs, and expects the
    /// entry rejected for a reason that says `because`, the entry written again as `good`, the
    /// table the scan's and landings on framemd5's pixels.
    private static func expectRejected(
        _ forged: Data, at entry: String, good: Data, fixture: Fixture, cache: IndexCache, because: String
    ) throws {
        try forged.write(to: URL(fileURLWithPath: entry))
        let engine = try FFmpegEngine(path: fixture.path, options: options(fixture, cache: cache))
        guard case .rejected(let path, let reason, nil) = engine.indexCacheOutcome else {
            Issue.record("the forged entry was trusted: \(String(describing: engine.indexCacheOutcome))")
            return
        }
        #expect(path == entry)
        #expect(reason.contains(because), "\(reason)")
        #expect(FileManager.default.contents(atPath: entry) == good, "the entry was not rebuilt")
        let oracle = try Oracle(fixture)
        let md5s = try #require(oracle.md5s)
        #expect(engine.frameTable.frames.count == oracle.count)
        for k in [0, oracle.count / 2, oracle.lastIndex] {
            let landing = try engine.seek(to: oracle.time(k), precision: .exact)
            #expect(landing.frame.index == k)
            #expect(try engine.landedPicture()?.md5 == md5s[k], "frame \(k)'s pixels")
        }
    }

    /// A cache in a folder of its own holding `fixture`'s entry; the entry's path and bytes.
    private static func cacheWithEntry(_ fixture: Fixture, label: String) throws -> (URL, IndexCache, String, Data) {
        let directory = try temporaryDirectory(label)
        let cache = IndexCache(directory: directory.path)
        let engine = try FFmpegEngine(path: fixture.path, options: options(fixture, cache: cache))
        let written: String? = if case .written(let entry) = engine.indexCacheOutcome { entry } else { nil }
        let entry = try #require(written, "\(fixture.id) wrote no entry: \(String(describing: engine.indexCacheOutcome))")
        return (directory, cache, entry, try #require(FileManager.default.contents(atPath: entry)))
    }

    @Test(
        "An entry whose stream, media type, codec, time base or origin is not the stream's is rejected",
        arguments: [
            (ForgeableEntry.Field.streamIndex, Int64.max, "stream"), (.streamIndex, 1, "stream"),
            (.mediaType, 1, "codec"), (.codecID, 173, "codec"), (.timeBaseNumerator, 2, "time base"),
            (.timeBaseDenominator, 1000, "time base"), (.originPTS, 0, "origin")
        ])
    func forgedField(_ field: ForgeableEntry.Field, value: Int64, because: String) throws {
        let fixture = try #require(FixtureCatalog.fixture(Self.target))
        let (directory, cache, entry, good) = try Self.cacheWithEntry(fixture, label: "index-cache-forged")
        defer { try? FileManager.default.removeItem(at: directory) }
        var forged = try ForgeableEntry(good)
        #expect(forged.bytes == good, "the forger does not reproduce the entry")
        #expect(forged[field] != value, "\(field) is \(value) already: nothing would be forged")
        forged[field] = value
        try Self.expectRejected(forged.bytes, at: entry, good: good, fixture: fixture, cache: cache, because: because)
    }

    @Test(
        "Another file's table under this file's key is rejected",
        arguments: [("h264_ts_cut_midgop.s0", "origin"), ("hevc_cra_start.s0", "codec"), ("h264_vfr.s0", "time base")])
    func anotherFilesTable(_ otherID: String, because: String) throws {
        let fixture = try #require(FixtureCatalog.fixture(Self.target))
        let other = try #require(FixtureCatalog.fixture(otherID))
        let (directory, cache, entry, good) = try Self.cacheWithEntry(fixture, label: "index-cache-other")
        defer { try? FileManager.default.removeItem(at: directory) }
        let otherEngine = try FFmpegEngine(path: other.path, options: Self.options(other, cache: cache))
        guard case .written(let otherEntry) = otherEngine.indexCacheOutcome else {
            Issue.record("\(otherID) wrote no entry")
            return
        }
        var forged = try ForgeableEntry(try #require(FileManager.default.contents(atPath: otherEntry)))
        forged.header = try ForgeableEntry(good).header
        try Self.expectRejected(forged.bytes, at: entry, good: good, fixture: fixture, cache: cache, because: because)
    }

    @Test("A table with more frames than the container states is rejected; one with as many is not")
    func frameCountLimit() throws {
        let fixture = try #require(FixtureCatalog.fixture(Self.target))
        let (directory, _, _, good) = try Self.cacheWithEntry(fixture, label: "index-cache-count")
        defer { try? FileManager.default.removeItem(at: directory) }
        let forgeable = try ForgeableEntry(good)
        guard case .success(let entry) = IndexCacheFile.decode(good, key: forgeable.key) else {
            Issue.record("the good entry does not decode")
            return
        }
        let table = entry.result.table
        func facts(limit: Int?) -> IndexCache.StreamFacts {
            IndexCache.StreamFacts(
                index: table.streamIndex, mediaType: entry.mediaType, codecID: entry.codecID, timeBase: table.timeBase,
                originPTS: table.originPTS, frameCountLimit: limit)
        }
        let count = try Oracle(fixture).count
        #expect(table.frames.count == count)
        #expect(facts(limit: nil).mismatch(of: entry) == nil)
        #expect(facts(limit: count).mismatch(of: entry) == nil)
        #expect(facts(limit: count - 1).mismatch(of: entry)?.contains("more than the \(count - 1)") == true)
    }

    @Test("An entry whose frames break after the first is rejected there: a 16 MiB entry costs the open no more than its bytes")
    func framesBreakingEarly() throws {
        let fixture = try #require(FixtureCatalog.fixture(Self.target))
        let folder = try TemporaryDirectory()
        let frameseek = Repository.builtExecutable("frameseek")
        // `env` runs it with the cache folder set, in this process's environment otherwise.
        let withCache = ["/usr/bin/env", "XDG_CACHE_HOME=\(folder.file("cache"))", frameseek]
        try runTool(withCache + ["index", fixture.path])
        let entries = try FileManager.default.subpathsOfDirectory(atPath: folder.file("cache")).filter { $0.hasSuffix(".fsidx") }
        let entry = folder.file("cache/" + (try #require(entries.first)))
        var forged = try ForgeableEntry(try #require(FileManager.default.contents(atPath: entry)))
        // One frame of duration 2^31, which holds the table in whole entries (96 bytes a frame),
        // then 16 MiB of varints too long to read, under a frame count they could hold at 4
        // bytes a frame: a loop that went on past the break built 4 million frames (860 MB).
        let frames: [UInt8] = [0x00, 0x80, 0x80, 0x80, 0x80, 0x10, 0x00, 0x01] + [UInt8](repeating: 0xFF, count: 16 << 20)
        var count = Int64(frames.count / 4).littleEndian
        forged.payload = Array(forged.payload[..<49]) + withUnsafeBytes(of: &count) { Array($0) } + frames
        try forged.bytes.write(to: URL(fileURLWithPath: entry))
        let run = try runBounded(withCache + ["probe", fixture.path], bound: .seconds(120))
        #expect(run.exitStatus == 0 && run.stdout.contains("cache rebuilt"), "\(run.stdout) \(run.errorLines)")
        #expect(run.errorLines.contains { $0.contains("its table breaks the table's rules") }, "\(run.errorLines)")
        #expect(run.peakResidentBytes < 160 << 20, "peak RSS \(run.peakResidentBytes >> 20) MiB")
    }
}
