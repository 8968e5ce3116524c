// Every file the command line reads whole has a limit: targets files, landing manifests,
// catalogs, results files and the manifests thumbnails merge into. Each test gives a sparse file
// one byte over the limit (it takes no disk) and runs the built `frameseek` as a process of its
// own: one line naming the file and the limit, exit 2, in seconds, and a peak resident set far
// below the file's size, which shows the file was refused from its size and not read.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("CLI: files read whole are bounded")
struct CLIBoundedInputTests {
    /// A sparse file of `bytes` bytes at `name` in `folder`.
    private static func sparse(_ name: String, bytes: UInt64, in folder: TemporaryDirectory) throws -> String {
        let path = folder.file(name)
        try #require(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: bytes)
        try handle.close()
        return path
    }

    @Test(
        "A file one byte over its limit is one line naming it and the limit, exit 2, never read",
        arguments: [
            ("targets.txt", 16, "the targets file"), ("clip.landing.json", 256, ""), ("catalog.jsonl", 16, "the catalog"),
            ("shard-0.jsonl", 256, "the results file"), ("master.m3u8", 16, "")
        ])
    func overTheLimit(name: String, mebibytes: UInt64, what: String) throws {
        let folder = try TemporaryDirectory()
        let media = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0")).path
        let file = try Self.sparse(name, bytes: mebibytes << 20 + 1, in: folder)
        let arguments: [String] =
            switch name {
            case "targets.txt": ["bench", media, "--workload", "random", "--targets", file]
            case "clip.landing.json": ["landing", "check", file]
            case "catalog.jsonl": ["landing", "check", "--catalog", file]
            case "shard-0.jsonl": ["landing", "merge", file]
            default: ["thumbnails", media, "--out", folder.file("thumbnails"), "--hls", "--merge-into", file]
            }
        let run = try runBounded([Repository.builtExecutable("frameseek")] + arguments, in: folder.path, bound: refusalBound)
        #expect(run.exitStatus == 2 && !run.timedOut, "\(name): \(run.errorLines)")
        let expected = "\(file): \(what.isEmpty ? "" : what + " ")is larger than \(mebibytes) MiB, the limit for it"
        #expect(run.errorLines.count == 1 && run.errorLines[0].contains(expected), "\(run.errorLines)")
        #expect(run.peakResidentBytes < 128 << 20, "\(name): peak RSS \(run.peakResidentBytes >> 20) MiB")
    }

    @Test("A targets file that is not UTF-8 is refused as such, not read with replacement characters")
    func targetsNotUTF8() throws {
        let folder = try TemporaryDirectory()
        let media = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0")).path
        let targets = folder.file("targets.txt")
        try Data([0x31, 0x2E, 0x35, 0x0A, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: targets))
        let run = try boundedFrameseek(
            ["bench", media, "--workload", "random", "--targets", targets], in: URL(fileURLWithPath: folder.path), bound: refusalBound)
        #expect(run.status == 2)
        #expect(run.stderr.count == 1 && run.stderr[0].contains("\(targets): the targets file is not UTF-8 text"), "\(run.stderr)")
    }
}
