// Every file the command line reads whole has a limit: targets files, landing manifests,
// catalogs, results files and the manifests thumbnails merge into. Each test gives a sparse file
// one byte over the limit (it takes no disk) and runs the built `frameseek` as a process of its
// own: one line naming the file and the limit, exit 2, in seconds, and a peak resident set far
// below the file's size, which shows the file was refused from its size and not read.

import Foundation
@testable import FrameSeekCLI
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

    @Test(
        "landing record with more than 100,000 landings (targets x precisions) is refused before a seek: one line, exit 2, no manifest",
        arguments: [(100_001, 1, false), (50_001, 2, false), (100_000, 2, true)])
    func tooManyLandings(targets: Int, precisions: Int, seeded: Bool) throws {
        let folder = try TemporaryDirectory()
        let media = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0")).path
        let manifest = folder.file("clip.landing.json")
        var arguments = ["landing", "record", media, "-o", manifest]
        if seeded {
            arguments += ["-n", String(targets), "--seed", "1"]
        } else {
            let file = folder.file("targets.txt")
            try String(repeating: "0.1\n", count: targets).write(toFile: file, atomically: true, encoding: .utf8)
            arguments += ["--targets", file]
        }
        arguments += Array(["exact", "previous-keyframe"].prefix(precisions).map { ["--precision", $0] }.joined())
        let run = try runBounded([Repository.builtExecutable("frameseek")] + arguments, in: folder.path, bound: refusalBound)
        #expect(run.exitStatus == 2 && !run.timedOut, "\(run.errorLines)")
        #expect(
            run.errorLines.count == 1
                && run.errorLines[0].contains("\(targets) targets at \(precisions) precisions; at most 100000 landings"),
            "\(run.errorLines)")
        #expect(!FileManager.default.fileExists(atPath: manifest))
    }

    @Test("results larger than a merge reads are refused and not written; results at the limit are written whole")
    func resultsOverTheLimit() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("shard-0.jsonl")
        let arguments = try CommandLineTool.arguments(["check", "--results", path], for: ManifestCommand.self)
        let lines = [#"{"a":1}"#, #"{"b":2}"#]
        #expect(throws: UsageError.self) { try ManifestCommand.writeResults(lines, arguments, limit: 15) }
        #expect(!FileManager.default.fileExists(atPath: path))
        try ManifestCommand.writeResults(lines, arguments, limit: 16)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"a\":1}\n{\"b\":2}\n")
        // The limit a run writes to is the one the merge reads with (the test above: 256 MiB).
        #expect(ShardedResults.maximumBytes == 256 << 20)
    }
}
