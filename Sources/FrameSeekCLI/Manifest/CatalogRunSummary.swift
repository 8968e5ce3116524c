import Foundation
import FrameSeek

/// The counts a `thumbnails --catalog` or `bench --catalog` run ends with: its summary line,
/// what `thumbnails merge` and `bench merge` add up.
struct CatalogRunSummary: ShardRunSummary, Hashable {
    /// Which command's run, and what its counts are called.
    enum Kind: String, Sendable, Hashable {
        /// Catalog lines are exports; `items` are the thumbnails written.
        case thumbnails
        /// Catalog lines are files measured; `items` are rows, one per file and workload.
        case bench

        /// The summary's names for lines taken, lines done, and items.
        var fieldNames: (taken: String, done: String, items: String) {
            switch self {
            case .thumbnails: ("exports", "written", "thumbnails")
            case .bench: ("files", "measured", "rows")
            }
        }
    }

    let kind: Kind
    var shard: Shard?
    var catalogLines: Int
    /// Catalog lines taken, and of those the ones done and the ones that failed.
    var taken = 0, done = 0, errors = 0
    /// What the lines done produced: thumbnails, or bench rows.
    var items = 0

    init(_ kind: Kind, shard: Shard?, catalogLines: Int) {
        self.kind = kind
        self.shard = shard
        self.catalogLines = catalogLines
    }

    var commandName: String { kind.rawValue }
    var exitCode: CommandLineTool.ExitCode { errors > 0 ? .usageOrInput : .success }

    var json: JSONValue {
        let names = kind.fieldNames
        return .object([
            ("type", .string("summary")), ("command", .string(kind.rawValue)), ("shard", .string(shard?.description)),
            ("catalog_lines", .integer(Int64(catalogLines))), (names.taken, .integer(Int64(taken))),
            (names.done, .integer(Int64(done))), ("errors", .integer(Int64(errors))), (names.items, .integer(Int64(items))),
            ("exit_code", .integer(Int64(exitCode.rawValue)))
        ])
    }

    var text: String {
        let names = kind.fieldNames
        var line = "\(kind.rawValue): \(taken) \(names.taken), \(done) \(names.done), \(items) \(names.items)"
        if errors > 0 { line += "; \(errors) failed" }
        if let shard { line += " (shard \(shard) of a \(catalogLines)-line catalog)" }
        return line
    }

    init?(json object: [String: Any], file: String) throws(UsageError) {
        guard object["type"] as? String == "summary" else { return nil }
        let fields = try SummaryFields(object, file: file, commands: [Kind.thumbnails.rawValue, Kind.bench.rawValue])
        kind = Kind(rawValue: fields.command) ?? .thumbnails
        let names = kind.fieldNames
        (shard, catalogLines) = (fields.shard, try fields.count("catalog_lines"))
        taken = try fields.count(names.taken)
        done = try fields.count(names.done)
        errors = try fields.count("errors")
        items = try fields.count(names.items)
        try fields.checkOutcomes(taken: taken, outcomes: [done, errors], catalogLines: catalogLines, field: names.taken)
        guard try fields.count("exit_code") == exitCode.rawValue else {
            throw fields.refuse("exit_code", "does not follow from the counts")
        }
    }

    func sameRun(as other: CatalogRunSummary) -> Bool { kind == other.kind }
    func merged() -> CatalogRunSummary { CatalogRunSummary(kind, shard: nil, catalogLines: catalogLines) }

    func adding(_ other: CatalogRunSummary) -> CatalogRunSummary? {
        var sum = self
        for field in [\CatalogRunSummary.taken, \.done, \.errors, \.items] {
            let (total, overflow) = self[keyPath: field].addingReportingOverflow(other[keyPath: field])
            if overflow { return nil }
            sum[keyPath: field] = total
        }
        return sum
    }

    /// A thumbnails run writes an `exported` line per export (with its `thumbnails`), bench a
    /// `row` line per file and workload; both an `error` line per line that failed.
    func disagreement(with lines: [[String: Any]]) -> (field: String, cause: String)? {
        let names = kind.fieldNames
        let doneType = kind == .thumbnails ? "exported" : "row"
        // Every line names a catalog line this shard takes, and each catalog line ends once:
        // an export or the rows of one file, or an error.
        let shard = self.shard ?? .whole
        var ended: [Int: String] = [:]
        for line in lines {
            let type = line["type"] as? String ?? ""
            guard type == doneType || type == "error" else {
                return ("type", "a line of type \"\(type)\" is not one \(kind.rawValue) writes")
            }
            guard let number = line["line"] as? Int, number >= 1, number <= catalogLines, shard.owns(number - 1) else {
                return ("line", "a \(type) line names a catalog line shard \(shard) does not take")
            }
            if let other = ended[number], other != type || type != "row" {
                return ("line", "catalog line \(number) ends twice")
            }
            ended[number] = type
        }
        let doneLines = lines.filter { $0["type"] as? String == doneType }
        let errorLines = lines.filter { $0["type"] as? String == "error" }.count
        guard errorLines == errors else { return ("errors", "is \(errors), but the file has \(errorLines) error lines") }
        let doneCount = Set(doneLines.compactMap { $0["line"] as? Int }).count
        guard doneCount == done, kind == .bench || doneLines.count == done else {
            return (names.done, "is \(done), but the file's \(doneType) lines name \(doneCount) catalog lines")
        }
        var total = 0
        for line in doneLines {
            let count = kind == .bench ? 1 : (line["thumbnails"] as? Int ?? -1)
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard count >= 0, !overflow else { return (names.items, "has a \(doneType) line without a count") }
            total = sum
        }
        guard total == items else { return (names.items, "is \(items), but the \(doneType) lines add up to \(total)") }
        return nil
    }
}

extension CatalogRunSummary {
    /// Ends a catalog run: the summary after `lines`, printed (as JSON with `--json`), and
    /// every line written to `--results`; returns the run's exit code.
    func finish(_ lines: [String], _ arguments: Arguments, output: TextOutput) throws -> CommandLineTool.ExitCode {
        // Written first: a summary printed with exit code 0 must not be followed by a failure.
        try ManifestCommand.writeResults(lines + [json.serialized], arguments)
        output.line(arguments.has("--json") ? json.serialized : text)
        return exitCode
    }

    /// The shards' results of a `kind` run merged (`ShardedResults.merge`).
    ///
    /// - Throws: `UsageError` as the merge does, and when the files are another command's.
    static func merge(_ paths: [String], _ kind: Kind) throws(UsageError) -> (summary: CatalogRunSummary, lines: [String]) {
        guard !paths.isEmpty else { throw UsageError(message: "missing RESULTS files") }
        let merged = try ShardedResults.merge(paths, as: CatalogRunSummary.self)
        guard merged.summary.kind == kind else {
            throw UsageError(message: "these are results of \(merged.summary.kind.rawValue) --catalog, not of \(kind.rawValue) --catalog")
        }
        return merged
    }
}
