// The `landing` command line: record then check on every video fixture, a manifest edited to
// expect another frame, a re-encoded file, a manifest from a newer schema, barcodes, and a
// catalog run as three shards in three processes whose merge equals the one-process run.
// The truth is the fixtures' oracles (ffprobe's frame table, ffmpeg's framemd5) and the
// frame number each synthetic fixture carries in its barcode band.

import Foundation
import FrameSeekCLI
import FrameSeek
import FrameSeekTestSupport
import Testing

private func objects(_ lines: [String]) -> [[String: Any]] {
    lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
}

private func manifestJSON(_ path: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
}

/// Runs the real `frameseek` executable, built beside the test bundle, in a process of its own.
private func frameseekProcess(_ arguments: [String]) throws -> Process {
    let tool = Repository.builtExecutable("frameseek")
    try #require(FileManager.default.isExecutableFile(atPath: tool), "frameseek not built at \(tool)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

@Suite("CLI: landing manifests", .ffmpegLog)
struct CLILandingTests {
    @Test(
        "record then check passes on every video fixture; entries agree with ffprobe's frames and ffmpeg's framemd5",
        arguments: FixtureCatalog.video)
    func recordThenCheck(_ fixture: Fixture) throws {
        let folder = try temporaryDirectory("landing-roundtrip")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.landing.json").path
        let recorded = frameseek([
            "landing", "record", fixture.path, "--stream", "\(fixture.stream)", "-n", "5", "--seed", "7",
            "--precision", "exact", "--precision", "previous-keyframe", "-o", manifest
        ])
        #expect(recorded.code == .success, "\(recorded.err)")
        let json = try manifestJSON(manifest)
        let entries = try #require(json["entries"] as? [[String: Any]])
        #expect(entries.count == 10, "5 targets at 2 precisions")
        let oracle = try Oracle(fixture)
        for entry in entries {
            let index = try #require(entry["frame_index"] as? Int)
            #expect(
                entry["pts"] as? Int64 == oracle.frames[index].pts || (entry["pts"] as? Int).map(Int64.init) == oracle.frames[index].pts)
            if let md5s = oracle.md5s, entry["damaged"] as? Bool == false { #expect(entry["md5"] as? String == md5s[index]) }
        }
        let checked = frameseek(["landing", "check", manifest, "--json"])
        #expect(checked.code == .success, "\(checked.out.suffix(2)) \(checked.err)")
        let lines = objects(checked.out)
        #expect(lines.filter { $0["type"] as? String == "entry" }.count == 10)
        #expect(lines.last?["type"] as? String == "summary" && lines.last?["exit_code"] as? Int == 0)
    }

    @Test(
        "record --barcode: every entry's barcode is its frame index plus the fixture's offset",
        arguments: FixtureCatalog.barcoded)
    func barcodes(_ fixture: Fixture) throws {
        let folder = try temporaryDirectory("landing-barcode")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.landing.json").path
        let recorded = frameseek([
            "landing", "record", fixture.path, "--stream", "\(fixture.stream)", "-n", "6", "--barcode", "-o", manifest
        ])
        #expect(recorded.code == .success, "\(recorded.err)")
        let entries = try #require(try manifestJSON(manifest)["entries"] as? [[String: Any]])
        for entry in entries where entry["damaged"] as? Bool == false {
            let index = try #require(entry["frame_index"] as? Int)
            #expect(entry["barcode"] as? Int == index + fixture.barcodeOffset, "\(fixture.name) frame \(index): \(entry)")
        }
        #expect(frameseek(["landing", "check", manifest]).code == .success)
    }

    @Test("A manifest edited to expect another frame fails with exit 1, says what moved and writes the diff picture")
    func editedManifest() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let oracle = try Oracle(fixture)
        let folder = try temporaryDirectory("landing-edited")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.landing.json").path
        #expect(frameseek(["landing", "record", fixture.path, "-n", "3", "-o", manifest]).code == .success)
        var json = try manifestJSON(manifest)
        var entries = try #require(json["entries"] as? [[String: Any]])
        let index = try #require(entries[0]["frame_index"] as? Int)
        let other = index == 0 ? 1 : index - 1
        entries[0]["frame_index"] = other
        entries[0]["md5"] = try #require(oracle.md5s)[other]
        json["entries"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifest))

        let diffs = folder.appendingPathComponent("diffs")
        let checked = frameseek(["landing", "check", manifest, "--json", "--diff-dir", diffs.path])
        #expect(checked.code == .failedCheck)
        let moved = objects(checked.out).filter { $0["status"] as? String == "moved" }
        #expect(moved.count == 1)
        let changes = try #require(moved.first?["changes"] as? [String])
        #expect(changes.contains("frame_index") && changes.contains("pixels"), "\(changes)")
        let png = try #require(moved.first?["diff_png"] as? String)
        let picture = try readPNG(png)
        let size = LandingDiffPicture.size(panelWidth: 320, panelHeight: 240)
        #expect(picture.width == size.width && picture.height == size.height)
    }

    @Test("A re-encoded file is refused with exit 2, and with --allow-changed-media reports what moved")
    func changedMedia() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let folder = try temporaryDirectory("landing-changed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = folder.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: media)
        let manifest = folder.appendingPathComponent("clip.landing.json").path
        #expect(frameseek(["landing", "record", media, "-n", "4", "--precision", "previous-keyframe", "-o", manifest]).code == .success)
        // Re-encoded with a GOP of 30 instead of 250: keyframes and pixels move.
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-i", fixture.path, "-c:v", "libx264", "-g", "30", "-crf", "35", media + ".new.mp4"
        ])
        try FileManager.default.removeItem(atPath: media)
        try FileManager.default.moveItem(atPath: media + ".new.mp4", toPath: media)

        // The copy is in a temporary folder, outside the current directory, the default root.
        let root = ["--root", folder.path]
        let refused = frameseek(["landing", "check", manifest] + root)
        #expect(refused.code == .usageOrInput)
        #expect(refused.err.count == 1 && refused.err[0].contains("SHA-256"), "\(refused.err)")
        let allowed = frameseek(["landing", "check", manifest, "--allow-changed-media", "--json"] + root)
        #expect(allowed.code == .failedCheck)
        let moved = objects(allowed.out).filter { $0["status"] as? String == "moved" }
        #expect(!moved.isEmpty)
        #expect(moved.allSatisfy { ($0["changes"] as? [String])?.isEmpty == false && $0["media_changed"] as? Bool == true })
    }

    @Test("A manifest from a newer schema is refused with exit 2, naming both versions")
    func newerSchema() throws {
        let fixture = try #require(FixtureCatalog.fixture("vp9_altref.s0"))
        let folder = try temporaryDirectory("landing-schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.landing.json").path
        #expect(frameseek(["landing", "record", fixture.path, "-n", "2", "-o", manifest]).code == .success)
        var json = try manifestJSON(manifest)
        json["schema_version"] = 99
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifest))
        let result = frameseek(["landing", "check", manifest])
        #expect(result.code == .usageOrInput)
        #expect(result.err.count == 1 && result.err[0].contains("99") && result.err[0].contains(manifest), "\(result.err)")
    }

    @Test("A catalog checked as 3 shards in 3 processes merges to the one-process run; a missing shard is refused")
    func shardsAndMerge() throws {
        let folder = try temporaryDirectory("landing-shards")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The catalog of media, written relative to its own folder.
        var mediaLines: [String] = []
        for (number, fixture) in FixtureCatalog.video.prefix(7).enumerated() {
            let name = "clip\(number)-" + URL(fileURLWithPath: fixture.path).lastPathComponent
            try FileManager.default.copyItem(atPath: fixture.path, toPath: folder.appendingPathComponent(name).path)
            mediaLines.append(#"{"media": "\#(name)"}"#)
        }
        let catalog = folder.appendingPathComponent("catalog.jsonl").path
        try mediaLines.joined(separator: "\n").write(toFile: catalog, atomically: true, encoding: .utf8)
        // The catalog and its media are in a temporary folder: the root of every run.
        let root = ["--root", folder.path]
        let recorded = frameseek(["landing", "record", "--catalog", catalog, "-n", "3"] + root)
        #expect(recorded.code == .success, "\(recorded.err)")

        // One process over the whole catalog, then three shard processes at once.
        let single = folder.appendingPathComponent("single.jsonl").path
        #expect(frameseek(["landing", "check", "--catalog", catalog, "--results", single, "--jobs", "1"] + root).code == .success)
        let shardResults = (0..<3).map { folder.appendingPathComponent("shard\($0).jsonl").path }
        let processes = try (0..<3).map { k in
            try frameseekProcess(["landing", "check", "--catalog", catalog, "--shard", "\(k)/3", "--results", shardResults[k]] + root)
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })

        let merged = frameseek(["landing", "merge"] + shardResults + ["--json"])
        #expect(merged.code == .success, "\(merged.err)")
        var mergedSummary = try #require(objects(merged.out).last)
        let singleLines = objects(try String(contentsOfFile: single, encoding: .utf8).split(separator: "\n").map(String.init))
        var singleSummary = try #require(singleLines.last)
        mergedSummary["shard"] = nil
        singleSummary["shard"] = nil
        #expect(NSDictionary(dictionary: mergedSummary).isEqual(to: singleSummary), "\(mergedSummary) vs \(singleSummary)")
        // The entries too: the shards' lines together are the single run's, each once.
        func entryLines(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init).filter {
                $0.contains(#""type":"entry""#)
            }
        }
        let shardEntries = try shardResults.flatMap(entryLines).sorted()
        #expect(shardEntries == (try entryLines(single)).sorted())
        #expect(!shardEntries.isEmpty)

        let partial = frameseek(["landing", "merge", shardResults[0], shardResults[2]])
        #expect(partial.code == .usageOrInput)
        #expect(partial.err.count == 1 && partial.err[0].contains("1/3"), "\(partial.err)")
        let repeated = frameseek(["landing", "merge", shardResults[0], shardResults[0], shardResults[1], shardResults[2]])
        #expect(repeated.code == .usageOrInput)
    }

    @Test(
        "Shard and catalog usage errors exit 2 with one line",
        arguments: [
            ["landing", "check", "--shard", "0/2", "x.json"],
            ["landing", "check", "--catalog", "/nonexistent/catalog.jsonl"],
            ["landing", "record", "--catalog", "/nonexistent/catalog.jsonl", "--shard", "3/3"],
            ["landing", "frobnicate"],
            ["landing", "merge"],
            ["landing", "record", "x.mp4"],
            ["landing", "check", "x.json", "--root", "/nonexistent/root"],
            ["landing", "check", "x.json", "--root", "/tmp", "--allow-outside-root"]
        ])
    func usageErrors(_ arguments: [String]) {
        let result = frameseek(arguments)
        #expect(result.code == .usageOrInput)
        #expect(result.err.count == 1, "\(result.err)")
    }
}
