import Foundation
import FrameSeek

/// `bench --catalog`: each catalog line's file measured on its own with the options given, in
/// shards as `landing` splits its catalogs; and `bench merge`, which joins the shards' rows
/// into one report.
enum BenchCatalog {
    /// The options a catalog run reads itself and does not hand on to each file's run.
    private static let ownOptions: Set<String> = [
        "--catalog", "--shard", "--results", "--json", "--report", "--peers", "--root", "--allow-outside-root"
    ]

    /// Measures every file the shard takes; prints (and writes to `--results`) one `row` line
    /// per file and workload, holding `frameseek bench --json`'s object as `result`, an `error`
    /// line per file that could not be measured, and a summary line.
    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "give FILE or --catalog, not both") }
        for option in ["--report", "--peers"] where arguments.value(option) != nil {
            throw UsageError(message: "\(option) is for one run: merge the catalog's results, then report")
        }
        try ManifestCommand.checkResultsPath(arguments)
        guard let taken = try ManifestCommand.catalogLines(arguments, for: .thumbnails) else {
            throw UsageError(message: "missing --catalog")
        }
        let words = arguments.optionWords(removing: ownOptions) + ["--json"]
        let json = arguments.has("--json")
        var summary = CatalogRunSummary(.bench, shard: taken.shard, catalogLines: taken.total)
        var lines: [String] = []
        for line in taken.lines {
            let run = CatalogLineRun("bench", media: line.media ?? "", words: words)
            let head = "\"line\":\(line.number + 1),\"media\":" + JSONValue.string(line.givenMedia).serialized
            summary.taken += 1
            // The rows are bench's own JSON objects, from this process, kept byte for byte.
            let rows = run.output.filter { $0.hasPrefix("{") }
            if let error = run.error ?? (rows.isEmpty ? "bench printed no result" : nil) {
                summary.errors += 1
                let errorLine = "{\"type\":\"error\",\(head),\"error\":\(JSONValue.string(error).serialized)}"
                lines.append(errorLine)
                json ? output.line(errorLine) : errors.escapedLine("\(line.givenMedia ?? ""): \(error)")
                continue
            }
            summary.done += 1
            summary.items += rows.count
            for row in rows {
                let rowLine = "{\"type\":\"row\",\(head),\"result\":\(row)}"
                lines.append(rowLine)
                if json { output.line(rowLine) }
            }
            if !json { for row in rows { output.escapedLine(textRow(row)) } }
        }
        return try summary.finish(lines, arguments, output: output)
    }

    /// `bench merge RESULTS...`: every shard's rows, in catalog order, then the whole run's
    /// summary; the rows as they were written with `--json`, else a line each.
    static func merge(_ paths: [String], _ arguments: Arguments, output: TextOutput) throws(UsageError) -> CommandLineTool.ExitCode {
        let (summary, lines) = try CatalogRunSummary.merge(paths, .bench)
        // Each line read once: a row holds every sample of its workload.
        let parsed = lines.map { line in (line, try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) }
        let ordered = parsed.enumerated().sorted { left, right in
            (left.element.1?["line"] as? Int ?? .max, left.offset) < (right.element.1?["line"] as? Int ?? .max, right.offset)
        }
        for (_, (line, object)) in ordered {
            if arguments.has("--json") {
                output.line(line)
            } else if let object {
                let media = object["media"] as? String ?? ""
                if let result = object["result"] as? [String: Any] {
                    output.escapedLine(textRow(result, media: media))
                } else {
                    output.escapedLine("\(media): \(object["error"] as? String ?? "not measured")")
                }
            }
        }
        output.line(arguments.has("--json") ? summary.json.serialized : summary.text)
        return summary.exitCode
    }

    /// One row for a person, from bench's JSON object.
    private static func textRow(_ row: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any] else { return row }
        return textRow(object, media: (object["settings"] as? [String: Any])?["file"] as? String ?? "")
    }

    private static func textRow(_ result: [String: Any], media: String) -> String {
        func milliseconds(_ key: String) -> String { (result[key] as? Double).map { String(format: "%.2f ms", $0) } ?? "-" }
        let workload = result["workload"] as? String ?? "?"
        return "\(media) \(workload): n \(result["n"] as? Int ?? 0), median \(milliseconds("median_ms")), p95 \(milliseconds("p95_ms"))"
    }
}
