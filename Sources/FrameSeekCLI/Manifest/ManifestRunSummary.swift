import Foundation
import FrameSeek

/// The counts a `landing` run ends with, as its summary line and its exit code.
///
/// Each shard writes one; `landing merge` adds them up. The exit code follows from the counts
/// alone, so a merged summary exits as one process over the whole catalog would: 2 when any
/// media could not be read or was not the recorded file, else 1 when any landing moved, else 0.
struct ManifestRunSummary: Sendable, Hashable {
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

    /// Reads a summary line back, nil when `object` is not one (its `type` is not `summary`).
    ///
    /// Results files travel between machines and may be edited on the way, so every field is
    /// checked before any is added up: a count that is missing, not a whole number or
    /// negative, and counts that cannot go together (`invariantProblem()`), are refused.
    ///
    /// - Throws: `UsageError` naming `file` and the field.
    init?(json object: [String: Any], file: String) throws(UsageError) {
        guard object["type"] as? String == "summary" else { return nil }
        let fields = try SummaryFields(object, file: file, commands: ["record", "check"])
        let count = fields.count
        (command, shard) = (fields.command, fields.shard)
        catalogLines = try count("catalog_lines")
        manifests = try count("manifests")
        passed = try count("passed")
        failed = try count("failed")
        errors = try count("errors")
        entries = try count("entries")
        mismatches = try count("mismatches")
        if let problem = invariantProblem() { throw fields.refuse(problem.field, problem.cause) }
        let exitCode = try count("exit_code")
        guard exitCode == self.exitCode.rawValue else {
            throw fields.refuse("exit_code", "is \(exitCode), but the counts give \(self.exitCode.rawValue)")
        }
    }

    /// The first field whose count cannot be, given the others, with why; nil when all can be.
    ///
    /// What a run writes always holds: it takes the catalog lines its shard owns, one manifest
    /// each; each manifest passed, failed or could not be read; a failed manifest has at least
    /// one moved entry, and only a failed one has any; `record` fails and moves nothing.
    func invariantProblem() -> (field: String, cause: String)? {
        guard catalogLines >= 1 else { return ("catalog_lines", "is 0: every run takes at least one line") }
        let owned = (shard ?? .whole).lineCount(of: catalogLines)
        guard manifests == owned else {
            return ("manifests", "is \(manifests), but shard \(shard ?? .whole) of a \(catalogLines)-line catalog takes \(owned) lines")
        }
        let (partial, overflowA) = passed.addingReportingOverflow(failed)
        let (outcomes, overflowB) = partial.addingReportingOverflow(errors)
        guard !overflowA && !overflowB && outcomes == manifests else {
            return ("manifests", "is \(manifests), but passed + failed + errors is not")
        }
        guard mismatches <= entries else { return ("mismatches", "is \(mismatches), more than the \(entries) entries") }
        if command == "record" {
            guard failed == 0 else { return ("failed", "is \(failed): a record run fails no manifest") }
            guard mismatches == 0 else { return ("mismatches", "is \(mismatches): a record run moves no landing") }
        }
        guard mismatches >= failed, (failed == 0) == (mismatches == 0) else {
            return ("mismatches", "is \(mismatches), which \(failed) failed manifests cannot have")
        }
        return nil
    }

    init(command: String, shard: Shard?, catalogLines: Int) {
        self.command = command
        self.shard = shard
        self.catalogLines = catalogLines
    }

    /// Adds another run's counts, nil when a sum overflows (only counts that were tampered
    /// with can be that large).
    func adding(_ other: ManifestRunSummary) -> ManifestRunSummary? {
        var sum = self
        for field in [\ManifestRunSummary.manifests, \.passed, \.failed, \.errors, \.entries, \.mismatches] {
            let (total, overflow) = self[keyPath: field].addingReportingOverflow(other[keyPath: field])
            if overflow { return nil }
            sum[keyPath: field] = total
        }
        return sum
    }
}

extension ManifestRunSummary: ShardRunSummary {
    var commandName: String { "landing \(command)" }
    func sameRun(as other: ManifestRunSummary) -> Bool { command == other.command }
    func merged() -> ManifestRunSummary { ManifestRunSummary(command: command, shard: nil, catalogLines: catalogLines) }
    func disagreement(with lines: [[String: Any]]) -> (field: String, cause: String)? {
        var tally = ResultLines()
        for line in lines { tally.add(line) }
        return tally.disagreement(with: self)
    }
}

/// What a results file's lines other than its summary add up to, to hold its summary against.
///
/// `check` writes one `entry` line per entry replayed (`status` `moved` or `unexpected_pass`
/// for each entry that fails) and
/// one `error` line per manifest not checked; `record` writes one `recorded` line per manifest
/// written, with its `entries`, and one `error` line per media not recorded.
private struct ResultLines {
    var entryLines = 0
    var movedLines = 0
    var errorLines = 0
    var recordedLines = 0
    var recordedEntries = 0
    /// Whether a `recorded` line's `entries` was not a whole number, or the sum overflowed.
    var recordedEntriesUnknown = false

    mutating func add(_ object: [String: Any]) {
        switch object["type"] as? String {
        case "entry":
            entryLines += 1
            // A moved entry, or one expected to move that did not: the entries that fail.
            if ["moved", "unexpected_pass"].contains(object["status"] as? String) { movedLines += 1 }
        case "error": errorLines += 1
        case "recorded":
            recordedLines += 1
            guard let entries = object["entries"] as? Int, entries >= 0 else {
                recordedEntriesUnknown = true
                return
            }
            let (sum, overflow) = recordedEntries.addingReportingOverflow(entries)
            if overflow { recordedEntriesUnknown = true } else { recordedEntries = sum }
        default: break
        }
    }

    /// The first summary field these lines contradict, with why; nil when they agree.
    func disagreement(with summary: ManifestRunSummary) -> (field: String, cause: String)? {
        guard errorLines == summary.errors else { return ("errors", "is \(summary.errors), but the file has \(errorLines) error lines") }
        if summary.command == "check" {
            guard entryLines == summary.entries else {
                return ("entries", "is \(summary.entries), but the file has \(entryLines) entry lines")
            }
            guard movedLines == summary.mismatches else {
                return ("mismatches", "is \(summary.mismatches), but the file has \(movedLines) moved entry lines")
            }
        } else {
            guard recordedLines == summary.passed else {
                return ("passed", "is \(summary.passed), but the file has \(recordedLines) recorded lines")
            }
            guard !recordedEntriesUnknown && recordedEntries == summary.entries else {
                return ("entries", "is \(summary.entries), but the file's recorded lines do not add up to it")
            }
        }
        return nil
    }
}
