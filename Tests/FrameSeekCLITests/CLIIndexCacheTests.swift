// The index cache on the command line: `frameseek index` writes entries that later commands
// read; `--no-index-cache` leaves the cache alone; a damaged entry is one warning line, the
// command still answers from the media, and the next run reads the rewritten entry. Each test
// works on a copy of a fixture of its own, so no other test reads the entries it damages.

import Foundation
import FrameSeek
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("CLI: the index cache", .ffmpegLog)
struct CLIIndexCacheTests {
    /// A copy of `fixture` in a folder of its own, with a modification time of its own (a copy
    /// can keep the original's), so its key is its own and no other test reads its entry.
    private static func copy(_ relative: String) throws -> (URL, String) {
        let directory = try temporaryDirectory("cli-index-cache")
        let file = directory.appendingPathComponent((relative as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: Repository.fixture(relative), toPath: file)
        let unique = Date(timeIntervalSince1970: 1_000_000_000 + Double(UInt32.random(in: 0...UInt32.max)))
        try FileManager.default.setAttributes([.modificationDate: unique], ofItemAtPath: file)
        return (directory, file)
    }

    @Test("A playlist is not cached: its media are other files, which its own identity does not cover")
    func playlistsAreNotCached() throws {
        // Two copies of one playlist whose segments differ would share a key (CLIMissingSegmentTests
        // has such a pair): only formats that hold their own media are cached.
        let probed = frameseek(["probe", Repository.fixture("media/hls-ts-rollover/playlist.m3u8"), "--json"])
        #expect(probed.code == .success)
        #expect(Self.json(probed.out.first)["index_cache"] is NSNull, "\(probed.out)")
    }

    private static func json(_ line: String?) -> [String: Any] { line.flatMap { JSON.object($0) } ?? [:] }

    @Test("index writes the entry, then probe reads it; --no-index-cache reads nothing")
    func indexThenProbe() throws {
        let (directory, file) = try Self.copy("media/h264_vfr.mkv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let indexed = frameseek(["index", file, "--json"])
        #expect(indexed.code == .success && indexed.err.isEmpty, "\(indexed.err)")
        let entry = Self.json(indexed.out.first)
        #expect(entry["cache"] as? String == "written" && JSON.int(entry["frame_count"]) == 120, "\(entry)")
        let again = frameseek(["index", file, "--json"])
        #expect(Self.json(again.out.first)["cache"] as? String == "read")
        let probed = frameseek(["probe", file, "--json"])
        #expect(Self.json(probed.out.first)["index_cache"] as? String == "read")
        let uncached = frameseek(["probe", file, "--json", "--no-index-cache"])
        #expect(Self.json(uncached.out.first)["index_cache"] is NSNull, "\(uncached.out)")
        #expect(JSON.int(Self.json(uncached.out.first)["frame_count"]) == 120)
    }

    @Test("A damaged entry is one warning naming the file; the answer comes from the media, and the entry is rewritten")
    func damagedEntryWarns() throws {
        let (directory, file) = try Self.copy("media/h264_mpegts_offset.ts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try #require(Self.json(frameseek(["index", file, "--json"]).out.first)["entry"] as? String)
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        let seek = frameseek(["seek", file, "2.5", "--md5", "--json"])
        #expect(seek.code == .success)
        #expect(
            seek.err.count == 1 && seek.err[0].contains(file) && seek.err[0].contains("was not used")
                && seek.err[0].contains("checksum"), "\(seek.err)")
        let clean = frameseek(["seek", file, "2.5", "--md5", "--json"])
        #expect(clean.err.isEmpty, "the rewritten entry is read without a warning: \(clean.err)")
        let before = Self.json(seek.out.first), after = Self.json(clean.out.first)
        #expect(after["md5"] as? String == before["md5"] as? String && JSON.int(after["frame_index"]) == JSON.int(before["frame_index"]))
        #expect(before["md5"] is String)
    }

    /// `frameseek ARGUMENTS` as a process of its own, with its index cache in `cache`. An entry
    /// planted larger than the cache's limit makes every write beside it evict: in the folder the
    /// other tests share, their entries would go between their writes and their reads.
    private static func run(_ arguments: [String], cache: String) throws -> (status: Int32?, out: [String], err: [String]) {
        let run = try frameseekProcess(arguments, indexCacheIn: cache, bound: .seconds(60))
        return (run.exitStatus, run.stdout.split(whereSeparator: \.isNewline).map(String.init), run.errorLines)
    }

    @Test("An entry that is a FIFO or larger than the cache is one warning, never read; the entry is rewritten")
    func plantedEntryWarns() throws {
        for (label, cause) in [("fifo", "it is a FIFO, not a regular file"), ("huge", "it is larger than 512 MiB, the limit for it")] {
            let (directory, file) = try Self.copy("media/h264_mpegts_offset.ts")
            defer { try? FileManager.default.removeItem(at: directory) }
            let cache = directory.appendingPathComponent("cache").path
            let entry = try #require(Self.json(try Self.run(["index", file, "--json"], cache: cache).out.first)["entry"] as? String)
            let answer = try Self.run(["seek", file, "2.5", "--md5", "--json"], cache: cache)
            try FileManager.default.removeItem(atPath: entry)
            if label == "fifo" {
                // Opened as a cache file is opened elsewhere, it would block this process for ever.
                try #require(mkfifo(entry, 0o644) == 0)
            } else {
                // A sparse file one byte over the cache's default size, which a read would take whole.
                try #require(FileManager.default.createFile(atPath: entry, contents: nil))
                let handle = try #require(FileHandle(forWritingAtPath: entry))
                try handle.truncate(atOffset: 512 << 20 + 1)
                try handle.close()
            }
            let seek = try Self.run(["seek", file, "2.5", "--md5", "--json"], cache: cache)
            #expect(seek.status == 0)
            #expect(
                seek.err.count == 1 && seek.err[0].contains(file) && seek.err[0].contains("was not used")
                    && seek.err[0].contains(cause), "\(label): \(seek.err)")
            let landed = Self.json(seek.out.first), expected = Self.json(answer.out.first)
            #expect(
                landed["md5"] as? String == expected["md5"] as? String
                    && JSON.int(landed["frame_index"]) == JSON.int(expected["frame_index"])
                    && JSON.int(landed["landed_pts"]) == JSON.int(expected["landed_pts"]) && expected["md5"] is String,
                "\(label): the landing is the one the table from the media gives")
            #expect(FileKind(at: entry) == .regular && (FileKind.byteCount(at: entry) ?? 0) < 1 << 20, "\(label): rewritten")
            #expect(
                try Self.run(["seek", file, "2.5", "--md5", "--json"], cache: cache).err.isEmpty, "\(label): the rewritten entry is read")
        }
    }

    @Test("Another file's table under this file's key, checksum and all, is one warning; the landing is ffmpeg's frame")
    func anotherFilesTableWarns() throws {
        let (directory, file) = try Self.copy("media/h264_mpegts_offset.ts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (otherDirectory, other) = try Self.copy("media/h264_ts_cut_midgop.ts")
        defer { try? FileManager.default.removeItem(at: otherDirectory) }
        let entry = try #require(Self.json(frameseek(["index", file, "--json"]).out.first)["entry"] as? String)
        let otherEntry = try #require(Self.json(frameseek(["index", other, "--json"]).out.first)["entry"] as? String)
        // The header (magic, format, key) is this file's; the rest, with its own length and
        // checksum, the other's: an entry FrameSeek could have written, for the other file.
        let header = try #require(FileManager.default.contents(atPath: entry)),
            rest = try #require(FileManager.default.contents(atPath: otherEntry))
        func headerLength(_ bytes: Data) -> Int { 17 + Int(bytes[9..<17].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
        try (header.prefix(headerLength(header)) + rest.dropFirst(headerLength(rest))).write(to: URL(fileURLWithPath: entry))

        let seek = frameseek(["seek", file, "2.5", "--md5", "--json"])
        #expect(seek.code == .success)
        #expect(
            seek.err.count == 1 && seek.err[0].contains(file) && seek.err[0].contains("was not used") && seek.err[0].contains("origin"),
            "\(seek.err)")
        let landing = Self.json(seek.out.first)
        let oracle = try Oracle(try #require(FixtureCatalog.fixture("h264_mpegts_offset.s0")))
        let index = try #require(JSON.int(landing["frame_index"]))
        #expect(landing["md5"] as? String == oracle.md5s?[index], "frame \(index)")
    }

    @Test("index on several files goes on past one that fails, and exits 2")
    func indexGoesOn() throws {
        let (directory, file) = try Self.copy("media/h264_vfr.mkv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.mp4").path
        let run = frameseek(["index", missing, file])
        #expect(run.code == .usageOrInput)
        #expect(run.err.count == 1 && run.err[0].contains(missing), "\(run.err)")
        #expect(run.out.count == 1 && run.out[0].hasPrefix(file), "\(run.out)")
    }
}
