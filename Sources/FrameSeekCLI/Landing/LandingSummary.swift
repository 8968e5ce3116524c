import Foundation
import FrameSeek

/// The counts a `landing` run ends with, as its summary line and its exit code.
///
/// Each shard writes one; `landing merge` adds them up. The exit code follows from the counts
/// alone, so a merged summary exits as one process over the whole catalog would: 2 when any
/// media could not be read or was not the recorded file, else 1 when any landing moved, else 0.
struct LandingSummary: Sendable, Hashable {
    /// `record` or `check`.
    var command: String
    /// The shard that ran, nil for a run without `--shard`.
    var shard: Shard?
    /// Non-blank lines in the whole catalog (1 without a catalog): what the shards split.
    var catalogLines = 1
    /// Manifests recorded or checked (one per catalog line taken).
    var manifests = 0
    /// Manifests whose every entry landed as recorded (check) or that were written (record).
    var passed = 0
    /// Manifests with at least one entry that moved.
    var failed = 0
    /// Manifests whose media or manifest could not be read, or whose media is not the recorded file.
    var errors = 0
    /// Entries replayed or recorded, and those that moved.
    var entries = 0
    var mismatches = 0

    /// The documented exit code for these counts.
    var exitCode: CommandLineTool.ExitCode {
        if errors > 0 { return .usageOrInput }
        if failed > 0 { return .failedCheck }
        return .success
    }

    /// The summary line's JSON.
    var json: JSONValue {
        .object([
            ("type", .string("summary")), ("command", .string(command)), ("shard", .string(shard?.description)),
            ("catalog_lines", .integer(Int64(catalogLines))), ("manifests", .integer(Int64(manifests))),
            ("passed", .integer(Int64(passed))), ("failed", .integer(Int64(failed))), ("errors", .integer(Int64(errors))),
            ("entries", .integer(Int64(entries))), ("mismatches", .integer(Int64(mismatches))),
            ("exit_code", .integer(Int64(exitCode.rawValue)))
        ])
    }

    /// One line for a person.
    var text: String {
        var line = "\(command): \(manifests) manifest\(manifests == 1 ? "" : "s"), \(entries) entr\(entries == 1 ? "y" : "ies")"
        if command == "check" {
            line += "; \(passed) passed, \(failed) failed, \(mismatches) landing\(mismatches == 1 ? "" : "s") moved"
        } else {
            line += "; \(passed) written"
        }
        if errors > 0 { line += "; \(errors) unreadable or changed" }
        if let shard { line += " (shard \(shard) of a \(catalogLines)-line catalog)" }
        return line
    }

    /// Reads a summary line back, nil when `object` is not one.
    init?(json object: [String: Any]) {
        guard object["type"] as? String == "summary", let command = object["command"] as? String else { return nil }
        self.command = command
        shard = (object["shard"] as? String).flatMap { try? Shard(parsing: $0) }
        func count(_ key: String) -> Int { (object[key] as? Int) ?? 0 }
        catalogLines = count("catalog_lines")
        manifests = count("manifests")
        passed = count("passed")
        failed = count("failed")
        errors = count("errors")
        entries = count("entries")
        mismatches = count("mismatches")
    }

    init(command: String, shard: Shard?, catalogLines: Int) {
        self.command = command
        self.shard = shard
        self.catalogLines = catalogLines
    }

    /// Adds another run's counts.
    mutating func add(_ other: LandingSummary) {
        manifests += other.manifests
        passed += other.passed
        failed += other.failed
        errors += other.errors
        entries += other.entries
        mismatches += other.mismatches
    }
}

/// `landing merge`: the shards' results files read back and added up.
enum LandingMerge {
    /// Merges the summaries of `paths`, checking that together they are one whole catalog
    /// run: one command, one shard count, every shard exactly once, each finished.
    ///
    /// - Throws: `UsageError` naming the file when one cannot be read or has no summary line
    ///   (its shard did not finish), and when shards are missing, repeated or disagree.
    static func merge(_ paths: [String]) throws(UsageError) -> LandingSummary {
        var summaries: [(path: String, summary: LandingSummary)] = []
        for path in paths {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw UsageError(message: "\(path): cannot read the results file")
            }
            let found = text.split(whereSeparator: \.isNewline).compactMap { line -> LandingSummary? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                return LandingSummary(json: object)
            }
            guard found.count == 1, let summary = found.first else {
                throw UsageError(
                    message: found.isEmpty
                        ? "\(path): no summary line: the run that wrote it did not finish"
                        : "\(path): \(found.count) summary lines: give each shard's results file once, not files joined together")
            }
            summaries.append((path, summary))
        }
        guard let first = summaries.first?.summary else { throw UsageError(message: "missing RESULTS files") }
        var merged = LandingSummary(command: first.command, shard: nil, catalogLines: first.catalogLines)
        let shardCount = first.shard?.count ?? 1
        var seen: [Int: String] = [:]
        for (path, summary) in summaries {
            guard summary.command == first.command else {
                throw UsageError(message: "\(path): results of landing \(summary.command), the others are of landing \(first.command)")
            }
            let shard = summary.shard ?? .whole
            guard shard.count == shardCount, summary.catalogLines == first.catalogLines else {
                throw UsageError(
                    message:
                        "\(path): shard \(shard) of a \(summary.catalogLines)-line catalog does not belong with shard \(first.shard ?? .whole) of a \(first.catalogLines)-line catalog"
                )
            }
            if let other = seen[shard.index] {
                throw UsageError(message: "\(path): shard \(shard) is also in \(other)")
            }
            seen[shard.index] = path
            merged.add(summary)
        }
        let missing = (0..<shardCount).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            let names = missing.prefix(5).map { "\($0)/\(shardCount)" }.joined(separator: ", ")
            throw UsageError(
                message:
                    "results of shard\(missing.count == 1 ? "" : "s") \(names)\(missing.count > 5 ? ", …" : "") missing: a merge must cover the whole catalog"
            )
        }
        return merged
    }
}
