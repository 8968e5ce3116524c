// The index cache: on every fixture a second open reads the table it wrote, that table is the
// scan's, and landings from it have framemd5's pixels; an entry damaged at any byte, cut
// short, or copied from another file of the same size is never trusted: the open rebuilds the
// table from the media (equal to a fresh scan) and writes the entry again.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("The index cache", .ffmpegLog)
struct IndexCacheTests {
    private static func options(_ fixture: Fixture, cache: IndexCache?) -> FFmpegEngine.Options {
        var options = FFmpegEngine.Options(streamIndex: fixture.stream, threads: 1)
        options.indexCache = cache
        return options
    }

    private static func entryPath(_ outcome: IndexCache.Outcome?) -> String? {
        switch outcome {
        case .read(let path), .written(let path), .rejected(let path, _, _): path
        case .notWritten, .notNeeded, nil: nil
        }
    }

    /// Everything a table holds, for comparing two tables of one file.
    private static func same(_ a: FrameTable, _ b: FrameTable) -> Bool {
        a.frames == b.frames && a.randomAccessPoints == b.randomAccessPoints && a.source == b.source
            && a.missingData == b.missingData && a.streamIndex == b.streamIndex && a.originPTS == b.originPTS
            && a.timeBase == b.timeBase && a.keyframeIndices == b.keyframeIndices
    }

    @Test("A second open reads the entry the first wrote: the scan's table, and framemd5's pixels", arguments: FixtureCatalog.all)
    func secondOpenReadsTheEntry(_ fixture: Fixture) throws {
        let directory = try temporaryDirectory("index-cache")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = IndexCache(directory: directory.path)
        let first = try FFmpegEngine(path: fixture.path, options: Self.options(fixture, cache: cache))
        if first.frameTable.source == .sampleTable {
            // An MP4 opened from its sample table writes no entry, and opens the same way again.
            #expect(first.indexCacheOutcome == .notNeeded)
            let second = try FFmpegEngine(path: fixture.path, options: Self.options(fixture, cache: cache))
            #expect(second.frameTable.source == first.frameTable.source && Self.same(second.frameTable, first.frameTable))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
            return
        }
        guard case .written(let path) = first.indexCacheOutcome else {
            Issue.record("\(fixture.id): the first open did not write an entry: \(String(describing: first.indexCacheOutcome))")
            return
        }
        #expect(FileManager.default.fileExists(atPath: path))
        let second = try FFmpegEngine(path: fixture.path, options: Self.options(fixture, cache: cache))
        #expect(second.indexCacheOutcome == .read(path: path))
        #expect(Self.same(second.frameTable, first.frameTable), "\(fixture.id): the cached table differs")
        #expect(second.media.truncation == first.media.truncation)
        #expect(second.demuxerFlaggedFrames == first.demuxerFlaggedFrames)
        // Landings from the cached table: ffprobe's frames, framemd5's pixels.
        let oracle = try Oracle(fixture)
        guard fixture.isVideo, let md5s = oracle.md5s else { return }
        for k in Set([0, oracle.count / 3, oracle.count / 2 + 1, oracle.lastIndex]).sorted() {
            let landing = try second.seek(to: oracle.time(k), precision: .exact)
            #expect(landing.frame.index == k, "\(fixture.id): frame \(k)")
            #expect(try second.landedPicture()?.md5 == md5s[k], "\(fixture.id): frame \(k)'s pixels from the cached table")
        }
    }

    @Test("An entry with any byte changed, or cut short, is rejected, and the table is rebuilt from the media")
    func damagedEntriesAreRejected() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_vfr.s0"))
        let directory = try temporaryDirectory("index-cache-damage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = IndexCache(directory: directory.path)
        let scanned = try FFmpegEngine(path: fixture.path, options: Self.options(fixture, cache: cache))
        let path = try #require(Self.entryPath(scanned.indexCacheOutcome))
        let good = try #require(FileManager.default.contents(atPath: path))
        // Every byte of the header and a spread of the payload; each open must reject the entry,
        // rebuild the scan's table and write the entry back as it was.
        let positions = Array(0..<min(good.count, 200)) + Array(stride(from: 200, to: good.count, by: 37)) + [good.count - 1]
        var trusted: [Int] = []
        for position in positions {
            var damaged = good
            damaged[position] ^= 0x5A
            try damaged.write(to: URL(fileURLWithPath: path))
            let engine = try FFmpegEngine(path: fixture.path, options: Self.options(fixture, cache: cache))
            guard case .rejected(_, _, nil) = engine.indexCacheOutcome else { trusted.append(position); continue }
            #expect(Self.same(engine.frameTable, scanned.frameTable), "byte \(position): the rebuilt table differs")
            #expect(FileManager.default.contents(atPath: path) == good, "byte \(position): the entry was not written back")
        }
        #expect(trusted.isEmpty, "entries damaged at bytes \(trusted.prefix(10)) were not rejected")
        for length in [0, 5, 9, good.count / 2, good.count - 1] {
            try good.prefix(length).write(to: URL(fileURLWithPath: path))
            let engine = try FFmpegEngine(path: fixture.path, options: Self.options(fixture, cache: cache))
            #expect(
                engine.indexCacheOutcome.map { if case .rejected = $0 { true } else { false } } == true,
                "an entry cut to \(length) bytes: \(String(describing: engine.indexCacheOutcome))")
            #expect(Self.same(engine.frameTable, scanned.frameTable))
        }
    }

    @Test("An entry taken from another file of the same size is rejected")
    func entryOfAnotherFileIsRejected() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_mpegts_offset.s0"))
        let directory = try temporaryDirectory("index-cache-swap")
        defer { try? FileManager.default.removeItem(at: directory) }
        // B is A with its last 188-byte packet zeroed: the same size, another file.
        let a = directory.appendingPathComponent("a.ts"), b = directory.appendingPathComponent("b.ts")
        var bytes = try #require(FileManager.default.contents(atPath: fixture.path))
        try bytes.write(to: a)
        bytes.replaceSubrange((bytes.count - 188)..<bytes.count, with: [UInt8](repeating: 0, count: 188))
        try bytes.write(to: b)
        let cache = IndexCache(directory: directory.appendingPathComponent("cache").path)
        let fromA = try FFmpegEngine(path: a.path, options: Self.options(fixture, cache: cache))
        let fromB = try FFmpegEngine(path: b.path, options: Self.options(fixture, cache: cache))
        let entryA = try #require(Self.entryPath(fromA.indexCacheOutcome)), entryB = try #require(Self.entryPath(fromB.indexCacheOutcome))
        #expect(entryA != entryB)
        // A's entry where B's belongs.
        try FileManager.default.removeItem(atPath: entryB)
        try FileManager.default.copyItem(atPath: entryA, toPath: entryB)
        let again = try FFmpegEngine(path: b.path, options: Self.options(fixture, cache: cache))
        guard case .rejected(_, let reason, nil) = again.indexCacheOutcome else {
            Issue.record("A's entry was trusted for B: \(String(describing: again.indexCacheOutcome))")
            return
        }
        #expect(reason.contains("another file"), "\(reason)")
        #expect(Self.same(again.frameTable, fromB.frameTable))
    }
}
