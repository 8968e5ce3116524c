import Foundation
import FrameSeek

/// The summary line a sharded catalog run ends its `--results` file with: what `landing merge`
/// and `thumbnails merge` add up, shard by shard.
protocol ShardRunSummary: Sendable {
    /// The shard that ran, nil for a run without `--shard`.
    var shard: Shard? { get }
    /// Non-blank lines in the whole catalog: what the shards split.
    var catalogLines: Int { get }
    /// The command that wrote it, for messages (`landing check`).
    var commandName: String { get }
    /// Reads a summary line back, nil when `object` is not one; checks every field.
    init?(json object: [String: Any], file: String) throws(UsageError)
    /// Whether `other` comes from the same kind of run (the same command).
    func sameRun(as other: Self) -> Bool
    /// A summary of the whole catalog with nothing added yet.
    func merged() -> Self
    /// Adds another shard's counts; nil when a sum overflows.
    func adding(_ other: Self) -> Self?
    /// The first field the file's other lines contradict, with why; nil when they agree.
    func disagreement(with lines: [[String: Any]]) -> (field: String, cause: String)?
}

/// Shards' results files read back and added up.
enum ShardedResults {
    /// The largest results file a merge reads, and so the largest a run writes: a manifest's
    /// limit, as a shard's results hold about as much as its manifests.
    static let maximumBytes = Manifest.maximumBytes

    /// Merges the summaries of `paths`, checking that together they are one whole catalog
    /// run: one command, one shard count, every shard exactly once, each finished, and each
    /// file's counts possible and matching its own lines. Returns the sum and every line of
    /// the files besides their summaries.
    ///
    /// - Throws: `UsageError` naming the file when one is not a regular file, cannot be read,
    ///   has no summary line (its shard did not finish) or a count that cannot be (naming the
    ///   field), and when shards are missing, repeated or disagree.
    static func merge<Summary: ShardRunSummary>(
        _ paths: [String], as: Summary.Type
    ) throws(UsageError) -> (summary: Summary, lines: [String]) {
        var summaries: [(path: String, summary: Summary)] = []
        var lines: [String] = []
        for path in paths {
            let text: String
            do { text = try FileContents.readText(path, limit: maximumBytes) } catch {
                throw UsageError(message: "\(path): the results file \(error)")
            }
            var found: [Summary] = []
            var others: [[String: Any]] = []
            // JSON lines end at "\n" (and "\r\n"); JSONValue escapes every other line separator.
            for line in text.split(separator: "\n") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                if let summary = try Summary(json: object, file: path) {
                    found.append(summary)
                } else {
                    others.append(object)
                    lines.append(String(line))
                }
            }
            guard found.count == 1, let summary = found.first else {
                throw UsageError(
                    message: found.isEmpty
                        ? "\(path): no summary line: the run that wrote it did not finish"
                        : "\(path): \(found.count) summary lines: give each shard's results file once, not files joined together")
            }
            if let problem = summary.disagreement(with: others) {
                throw UsageError(message: "\(path): summary field \"\(problem.field)\" \(problem.cause)")
            }
            summaries.append((path, summary))
        }
        guard let first = summaries.first?.summary else { throw UsageError(message: "missing RESULTS files") }
        var merged = first.merged()
        let shardCount = first.shard?.count ?? 1
        var seen: [Int: String] = [:]
        for (path, summary) in summaries {
            guard summary.sameRun(as: first) else {
                throw UsageError(message: "\(path): results of \(summary.commandName), the others are of \(first.commandName)")
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
            guard let sum = merged.adding(summary) else { throw UsageError(message: "\(path): the counts overflow when added up") }
            merged = sum
        }
        let missing = (0..<shardCount).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            let names = missing.prefix(5).map { "\($0)/\(shardCount)" }.joined(separator: ", ")
            throw UsageError(
                message:
                    "results of shard\(missing.count == 1 ? "" : "s") \(names)\(missing.count > 5 ? ", …" : "") missing: a merge must cover the whole catalog"
            )
        }
        return (merged, lines)
    }
}

/// A summary line's fields, read with the checks every kind of summary needs: results files
/// travel between machines and may be edited on the way, so a count that is missing, not a
/// whole number or negative is refused, naming the file and the field.
struct SummaryFields {
    private let object: [String: Any]
    private let file: String
    /// The `command` field, one of those the summary kind writes.
    let command: String
    /// The `shard` field: K/N, or null for a run without `--shard`.
    let shard: Shard?

    /// - Throws: `UsageError` when `command` is not one of `commands`, or `shard` is not K/N or null.
    init(_ object: [String: Any], file: String, commands: Set<String>) throws(UsageError) {
        self.object = object
        self.file = file
        guard let command = object["command"] as? String, commands.contains(command) else {
            throw UsageError(
                message: "\(file): summary field \"command\" is not \(commands.sorted().map { "\"\($0)\"" }.joined(separator: " or "))")
        }
        self.command = command
        switch object["shard"] {
        case nil, is NSNull: shard = nil
        case let text as String:
            guard let parsed = try? Shard(parsing: text) else {
                throw UsageError(message: "\(file): summary field \"shard\" is not K/N with 0 <= K < N")
            }
            shard = parsed
        default: throw UsageError(message: "\(file): summary field \"shard\" is not K/N or null")
        }
    }

    func refuse(_ field: String, _ cause: String) -> UsageError {
        UsageError(message: "\(file): summary field \"\(field)\" \(cause)")
    }

    /// The count `key`.
    func count(_ key: String) throws(UsageError) -> Int {
        // JSON's true and false also arrive as NSNumber, of Objective-C type "c".
        guard let value = object[key] as? NSNumber, String(cString: value.objCType) != "c", let number = value as? Int else {
            throw refuse(key, "is missing or not a whole number")
        }
        guard number >= 0 else { throw refuse(key, "is \(number): a count cannot be negative") }
        return number
    }

    /// Checks that `taken` (the summary's `field`) is the number of lines the shard takes of a
    /// `catalogLines`-line catalog, and that the `outcomes` add up to it.
    func checkOutcomes(taken: Int, outcomes: [Int], catalogLines: Int, field: String) throws(UsageError) {
        guard catalogLines >= 1 else { throw refuse("catalog_lines", "is 0: every run takes at least one line") }
        let owned = (shard ?? .whole).lineCount(of: catalogLines)
        guard taken == owned else {
            throw refuse(field, "is \(taken), but shard \(shard ?? .whole) of a \(catalogLines)-line catalog takes \(owned) lines")
        }
        var sum = 0
        for outcome in outcomes {
            let (next, overflow) = sum.addingReportingOverflow(outcome)
            guard !overflow else { throw refuse(field, "is \(taken), but its outcomes overflow") }
            sum = next
        }
        guard sum == taken else { throw refuse(field, "is \(taken), but its outcomes add up to \(sum)") }
    }
}
