// `landing merge` refuses results files whose counts cannot be: negative, not whole numbers,
// not adding up to the manifests, more moved landings than entries, counts that disagree with
// the file's own entry lines, or an exit code the counts do not give. Each is exit 2 with one
// line naming the file and the field. The files are genuine results of a check, edited one
// field at a time; the unedited file merges to exit 0, so each refusal is the edit's doing.

import Foundation
import FrameSeek
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// One edit of a results file's summary line, and the field the refusal must name.
struct SummaryTamper: Sendable, CustomTestStringConvertible {
    let edits: [String: String]
    let field: String

    var testDescription: String { edits.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }

    /// Edits as JSON fragments, so a test can set numbers, strings and nulls alike.
    static let all: [SummaryTamper] = [
        SummaryTamper(edits: ["passed": "-1", "failed": "2"], field: "passed"),
        SummaryTamper(edits: ["errors": "-5"], field: "errors"),
        SummaryTamper(edits: ["entries": "-3"], field: "entries"),
        SummaryTamper(edits: ["mismatches": "-1"], field: "mismatches"),
        SummaryTamper(edits: ["passed": "\"1\""], field: "passed"),
        SummaryTamper(edits: ["passed": "1.5"], field: "passed"),
        SummaryTamper(edits: ["passed": "true"], field: "passed"),
        SummaryTamper(edits: ["manifests": "2"], field: "manifests"),
        SummaryTamper(edits: ["passed": "0"], field: "manifests"),
        SummaryTamper(edits: ["catalog_lines": "0", "manifests": "0", "passed": "0"], field: "catalog_lines"),
        SummaryTamper(edits: ["mismatches": "1"], field: "mismatches"),
        SummaryTamper(edits: ["entries": "99"], field: "entries"),
        SummaryTamper(edits: ["entries": "1", "mismatches": "2", "failed": "1", "passed": "0"], field: "mismatches"),
        SummaryTamper(edits: ["exit_code": "1"], field: "exit_code"),
        SummaryTamper(edits: ["shard": "\"7/3\""], field: "shard"),
        SummaryTamper(edits: ["command": "\"delete\""], field: "command"),
        SummaryTamper(edits: ["errors": "9223372036854775807", "manifests": "1"], field: "manifests")
    ]
}

@Suite("CLI: landing merge refuses counts that cannot be", .ffmpegLog)
struct CLILandingMergeTests {
    /// A genuine results file of a check of one manifest of 3 entries, in `folder`.
    private func genuineResults(in folder: URL) throws -> String {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let media = folder.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: media)
        let manifest = folder.appendingPathComponent("clip.landing.json").path
        let results = folder.appendingPathComponent("results.jsonl").path
        let root = ["--root", folder.path]
        try #require(frameseek(["landing", "record", media, "-n", "3", "-o", manifest]).code == .success)
        let checked = frameseek(["landing", "check", manifest, "--results", results] + root)
        try #require(checked.code == .success, "\(checked.err)")
        return results
    }

    @Test("Each impossible summary is refused with exit 2 and one line naming the file and the field", arguments: SummaryTamper.all)
    func tampered(_ tamper: SummaryTamper) throws {
        let folder = try temporaryDirectory("landing-merge-tamper")
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = try genuineResults(in: folder)
        #expect(frameseek(["landing", "merge", results]).code == .success)

        var lines = try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(!lines.isEmpty)
        let last = lines.removeLast()
        var summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        try #require(summary["type"] as? String == "summary" && summary["manifests"] as? Int == 1 && summary["entries"] as? Int == 3)
        for (key, fragment) in tamper.edits {
            summary[key] = try JSONSerialization.jsonObject(with: Data(fragment.utf8), options: [.fragmentsAllowed])
        }
        let edited = String(decoding: try JSONSerialization.data(withJSONObject: summary), as: UTF8.self)
        try (lines + [edited]).joined(separator: "\n").appending("\n").write(toFile: results, atomically: true, encoding: .utf8)

        let merged = frameseek(["landing", "merge", results])
        #expect(merged.code == .usageOrInput, "\(tamper.testDescription): \(merged.out)")
        #expect(merged.err.count == 1, "\(merged.err)")
        #expect(merged.err.first?.contains("\(results): summary field \"\(tamper.field)\"") == true, "\(merged.err)")
        #expect(merged.out.isEmpty)
    }

    @Test("A results file that is a FIFO is refused without blocking")
    func fifoResults() throws {
        let folder = try temporaryDirectory("landing-merge-fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("shard-0.jsonl").path
        try #require(mkfifo(fifo, 0o644) == 0)
        let run = try boundedFrameseek(["landing", "merge", fifo], in: folder)
        #expect(run.status == 2 && run.took < refusalBound, "\(run.took)")
        #expect(run.stderr.count == 1 && run.stderr[0].contains("\(fifo): the results file is a FIFO"), "\(run.stderr)")
    }
}
