import Foundation
import FrameSeek

/// `frameseek landing check`.
enum ManifestCheckAction {
    /// Every `--precision` given, in order; exact when none is.
    static func precisions(_ arguments: Arguments) throws(UsageError) -> [SeekPrecision] {
        let given = arguments.values("--precision")
        guard !given.isEmpty else { return [.exact] }
        return try given.map { text throws(UsageError) in
            do { return try SeekPrecision(parsing: text) } catch { throw UsageError(message: "--precision: \(error)") }
        }
    }

    /// What checking one manifest produced.
    struct Outcome: Sendable {
        var jsonLines: [String] = []
        var textLines: [String] = []
        var errorLine: String?
        var entries = 0
        var mismatches = 0
    }

    static func run(
        _ positionals: [String], _ arguments: Arguments, output: TextOutput, errors: TextOutput
    ) throws -> CommandLineTool.ExitCode {
        var options = ManifestCheck.Options()
        options.allowChangedMedia = arguments.has("--allow-changed-media")
        options.diffDirectory = arguments.value("--diff-dir")
        options.engineOptions = try ManifestCommand.engineOptions(arguments)
        options.root = try ManifestCommand.root(arguments)
        if let directory = options.diffDirectory {
            // Made (and proved writable) before any media is read, as every output path is.
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if let problem = OutputFile.directoryProblem(of: directory + "/diff.png") {
                throw UsageError(message: "--diff-dir \(directory): \(problem)")
            }
        }
        try ManifestCommand.checkResultsPath(arguments)
        let manifests: [String]
        let shard: Shard?
        let catalogLines: Int
        if let catalog = try ManifestCommand.catalogLines(arguments, for: .check) {
            guard positionals.isEmpty else {
                throw UsageError(message: "with --catalog, the manifests come from the catalog: give no MANIFEST")
            }
            (manifests, shard, catalogLines) = (catalog.lines.map(\.manifest), catalog.shard, catalog.total)
        } else {
            guard !positionals.isEmpty else { throw UsageError(message: "missing MANIFEST") }
            (manifests, shard, catalogLines) = (positionals, nil, positionals.count)
        }

        let json = arguments.has("--json")
        let checkOptions = options
        let outputs = SerializedOutputs(output: output, errors: errors)
        let progress = ProgressLine(outputs, total: manifests.count, verb: "manifests checked")
        let collected = Locked<[String]>([])
        let summary = Locked(ManifestRunSummary(command: "check", shard: shard, catalogLines: catalogLines))
        OrderedParallelWork.run(
            manifests, workers: try ManifestCommand.workers(arguments),
            work: { path in
                check(path, options: checkOptions)
            },
            deliver: { _, outcome in
                summary.withLock { s in
                    s.manifests += 1
                    s.entries += outcome.entries
                    s.mismatches += outcome.mismatches
                    if outcome.errorLine != nil { s.errors += 1 } else if outcome.mismatches > 0 { s.failed += 1 } else { s.passed += 1 }
                }
                collected.withLock { $0 += outcome.jsonLines }
                progress.clear()
                if let line = outcome.errorLine { outputs.errors.line("frameseek landing: \(line)") }
                for line in json ? outcome.jsonLines : outcome.textLines { outputs.output.line(line) }
            }, progress: { progress.update($0) })
        progress.clear()
        let final = summary.withLock { $0 }
        output.line(json ? final.json.serialized : final.text)
        try ManifestCommand.writeResults(collected.withLock { $0 } + [final.json.serialized], arguments)
        return final.exitCode
    }

    /// Checks one manifest. Errors are part of the outcome, so one unreadable file in a
    /// catalog does not stop the others.
    static func check(_ path: String, options: ManifestCheck.Options) -> Outcome {
        var outcome = Outcome()
        let report: ManifestCheckReport
        do {
            let manifest = try Manifest.load(from: path)
            report = try ManifestCheck.run(manifest, manifestPath: path, options: options)
        } catch {
            outcome.errorLine = "\(error)"
            outcome.jsonLines = [
                JSONValue.object([
                    ("type", .string("error")), ("manifest", .string(path)),
                    ("message", .string("\(error)"))
                ]).serialized
            ]
            return outcome
        }
        for (number, result) in report.results.enumerated() {
            outcome.entries += 1
            if !result.matches { outcome.mismatches += 1 }
            outcome.jsonLines.append(entryJSON(result, number: number, report: report).serialized)
            if !result.matches {
                var line = "\(path): entry \(number): \(result.summary)"
                if let picture = result.diffPicture { line += " (diff: \(picture))" }
                outcome.textLines.append(line)
            }
        }
        let changed = report.mediaChanged ? " (media changed since recording)" : ""
        outcome.textLines.append(
            outcome.mismatches == 0
                ? "\(path): all \(outcome.entries) landings as recorded\(changed)"
                : "\(path): \(outcome.mismatches) of \(outcome.entries) landings moved\(changed)")
        return outcome
    }

    static func landingJSON(_ entry: ManifestEntry) -> JSONValue {
        .object([
            ("frame_index", .integer(Int64(entry.frameIndex))), ("pts", .integer(entry.pts)),
            ("time", entry.time.rational), ("time_seconds", entry.time.json),
            ("keyframe_index", .integer(entry.keyframeIndex)), ("damaged", .bool(entry.damaged)),
            ("md5", .string(entry.md5)), ("barcode", .integer(entry.barcode))
        ])
    }

    static func entryJSON(_ result: ManifestEntryResult, number: Int, report: ManifestCheckReport) -> JSONValue {
        .object([
            ("type", .string("entry")), ("manifest", .string(report.manifestPath)), ("media", .string(report.mediaPath)),
            ("entry", .integer(Int64(number))), ("target", result.expected.target.rational),
            ("target_seconds", result.expected.target.json), ("precision", .string(result.expected.precision.description)),
            ("status", .string(result.matches ? "match" : "moved")),
            ("changes", .array(result.changes.map { .string($0.rawValue) })),
            ("expected", landingJSON(result.expected)), ("landed", landingJSON(result.landed)),
            ("media_changed", .bool(report.mediaChanged)),
            ("summary", .string(result.summary)), ("diff_png", .string(result.diffPicture))
        ])
    }
}
