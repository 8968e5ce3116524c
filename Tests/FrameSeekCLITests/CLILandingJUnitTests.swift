// Landing checks as CI reads them: entries expected to move, JUnit XML (read back by
// junitparser, Debian's python3-junitparser), the JUnit of shards merged into the file one
// unsharded run writes, and GitHub Actions annotations from the real executable.

import Foundation
import FrameSeek
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// Three manifests of 4 entries on one fixture, in a catalog: `a` lands as recorded; `b` has
/// entry 1's MD5 edited, so it moves; `c` has entry 0's MD5 edited and expected to move (an
/// expected failure), and entry 2 expected to move though it does not (an unexpected pass).
private struct LandingCatalog {
    let folder: URL
    let catalog: String
    var root: [String] { ["--root", folder.path] }
    func manifest(_ name: String) -> String { folder.appendingPathComponent("\(name).landing.json").path }

    init(_ label: String) throws {
        folder = try temporaryDirectory(label)
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let media = folder.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: media)
        catalog = folder.appendingPathComponent("catalog.jsonl").path
        for name in ["a", "b", "c"] {
            let recorded = frameseek(["landing", "record", media, "-n", "4", "--seed", "5", "-o", manifest(name)])
            try #require(recorded.code == .success, "\(recorded.err)")
        }
        try edit("b") { entries in entries[1]["md5"] = String(repeating: "0", count: 32) }
        try edit("c") { entries in
            entries[0]["md5"] = String(repeating: "0", count: 32)
            entries[0]["expected"] = "moved"
            entries[0]["reason"] = "the encoder's new deblocking <changed> the picture & its MD5"
            entries[2]["expected"] = "moved"
        }
        try ["a", "b", "c"].map { #"{"manifest": "\#($0).landing.json"}"# }.joined(separator: "\n")
            .write(toFile: catalog, atomically: true, encoding: .utf8)
    }

    func edit(_ name: String, _ change: (inout [[String: Any]]) -> Void) throws {
        let url = URL(fileURLWithPath: manifest(name))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var entries = try #require(json["entries"] as? [[String: Any]])
        change(&entries)
        json["entries"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: url)
    }
}

@Suite("CLI: landing checks in CI: expected failures, JUnit, shards, annotations", .ffmpegLog)
struct CLILandingJUnitTests {
    @Test("An expected failure passes and is reported as one; an unexpected pass fails and is reported loudly")
    func expectedFailures() throws {
        let catalog = try LandingCatalog("landing-expected")
        defer { try? FileManager.default.removeItem(at: catalog.folder) }
        let junit = catalog.folder.appendingPathComponent("c.xml").path
        let checked = frameseek(["landing", "check", catalog.manifest("c"), "--junit", junit] + catalog.root)
        #expect(checked.code == .failedCheck, "the unexpected pass fails the check: \(checked.out)")
        #expect(checked.out.contains { $0.hasPrefix("expected failure: ") && $0.contains("entry 0") && $0.contains("deblocking") })
        #expect(checked.out.contains { $0.hasPrefix("UNEXPECTED PASS: ") && $0.contains("entry 2") })
        let parsed = try ParsedJUnit.read(junit)
        let suite = try #require(parsed.suites.first)
        #expect(suite.tests == 4 && suite.skipped == 1 && suite.failures == 1 && suite.errors == 0)
        #expect(suite.cases[0].results == ["Skipped"] && suite.cases[2].results == ["Failure"])
        #expect(suite.cases[0].messages.first??.contains("expected failure") == true)
        #expect(suite.cases[1].results.isEmpty && suite.cases[3].results.isEmpty)
        let json = frameseek(["landing", "check", catalog.manifest("c"), "--json"] + catalog.root)
        let statuses = json.out.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .filter { $0["type"] as? String == "entry" }.map { $0["status"] as? String ?? "" }
        #expect(statuses == ["expected_failure", "match", "unexpected_pass", "match"])
        // With the stale expectation removed, the expected failure alone passes the check.
        try catalog.edit("c") { entries in entries[2]["expected"] = nil }
        let fixed = frameseek(["landing", "check", catalog.manifest("c")] + catalog.root)
        #expect(fixed.code == .success, "\(fixed.out)")
        #expect(fixed.out.last?.contains("1 passed") == true && fixed.out.contains { $0.contains("1 expected to move") })
    }

    @Test("landing merge --junit of two shards is byte for byte the JUnit of one unsharded run")
    func shardedJUnit() throws {
        let catalog = try LandingCatalog("landing-junit-shards")
        defer { try? FileManager.default.removeItem(at: catalog.folder) }
        func path(_ name: String) -> String { catalog.folder.appendingPathComponent(name).path }
        let whole = frameseek(
            ["landing", "check", "--catalog", catalog.catalog, "--junit", path("whole.xml"), "--jobs", "1"] + catalog.root)
        #expect(whole.code == .failedCheck)
        for k in 0..<2 {
            let shard = frameseek(
                [
                    "landing", "check", "--catalog", catalog.catalog, "--shard", "\(k)/2", "--results", path("shard\(k).jsonl"),
                    "--junit", path("shard\(k).xml")
                ] + catalog.root)
            #expect(shard.code == .failedCheck, "shard \(k): \(shard.out)")
        }
        let merged = frameseek(["landing", "merge", path("shard0.jsonl"), path("shard1.jsonl"), "--junit", path("merged.xml")])
        #expect(merged.code == .failedCheck, "\(merged.err)")
        let wholeBytes = try Data(contentsOf: URL(fileURLWithPath: path("whole.xml")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("merged.xml"))) == wholeBytes)
        let parsed = try ParsedJUnit.read(path("merged.xml"))
        #expect(parsed.suites.map(\.name) == ["a", "b", "c"].map(catalog.manifest))
        #expect(parsed.suites.map(\.tests) == [4, 4, 4])
        #expect(parsed.suites.map(\.failures) == [0, 1, 1] && parsed.suites.map(\.skipped) == [0, 0, 1])
        // Each shard's own file is JUnit too, with its share of the suites.
        #expect(try ParsedJUnit.read(path("shard0.xml")).suites.map(\.name) == [catalog.manifest("a"), catalog.manifest("c")])
        // A manifest that cannot be read is a suite with one error.
        try "not json".write(toFile: catalog.manifest("b"), atomically: true, encoding: .utf8)
        let broken = frameseek(["landing", "check", "--catalog", catalog.catalog, "--junit", path("broken.xml")] + catalog.root)
        #expect(broken.code == .usageOrInput)
        let errors = try ParsedJUnit.read(path("broken.xml")).suites.map(\.errors)
        #expect(errors == [0, 1, 0])
    }

    @Test("With GITHUB_ACTIONS=true each failing entry is an ::error annotation on the manifest; without it, none")
    func annotations() throws {
        let catalog = try LandingCatalog("landing-annotations")
        defer { try? FileManager.default.removeItem(at: catalog.folder) }
        let tool = Repository.builtExecutable("frameseek")
        try #require(FileManager.default.isExecutableFile(atPath: tool), "frameseek not built at \(tool)")
        var environment = ProcessInfo.processInfo.environment
        environment["GITHUB_ACTIONS"] = "true"
        let arguments = [tool, "landing", "check", catalog.manifest("b"), catalog.manifest("c")] + catalog.root
        let annotated = try runTool(arguments, environment: environment, requiringSuccess: false)
            .split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(annotated.count == 2, "\(annotated)")
        #expect(
            annotated.first?.hasPrefix("::error file=\(catalog.manifest("b").replacingOccurrences(of: ":", with: "%3A")),title=entry 1")
                == true)
        #expect(annotated.last?.contains("UNEXPECTED PASS") == true)
        environment["GITHUB_ACTIONS"] = nil
        let plain = try runTool(arguments, environment: environment, requiringSuccess: false)
        #expect(!plain.contains("::error"))
    }
}
