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
        /// GitHub Actions workflow commands (`::error file=…::…`), printed when `GITHUB_ACTIONS` is set.
        var annotations: [String] = []
    }

    static func run(
        _ positionals: [String], _ arguments: Arguments, output: TextOutput, errors: TextOutput
    ) throws -> CommandLineTool.ExitCode {
        var options = ManifestCheck.Options()
        options.allowChangedMedia = arguments.has("--allow-changed-media")
        options.diffDirectory = arguments.value("--diff-dir")
        options.engineOptions = try ManifestCommand.engineOptions(arguments)
        options.root = try ManifestCommand.root(arguments)
        options.media = arguments.value("--media")
        options.referenceMedia = arguments.value("--reference")
        options.tolerances = try arguments.values("--tolerance").map { text throws(UsageError) in
            do { return try PictureTolerance(parsing: text) } catch { throw UsageError(message: "--tolerance: \(error)") }
        }
        options.strictFrames = arguments.has("--strict-frames")
        switch (arguments.has("--update"), arguments.has("--update-all")) {
        case (true, true): throw UsageError(message: "give --update or --update-all, not both")
        case (true, false): options.update = .matching
        case (false, true): options.update = .all
        case (false, false): break
        }
        if let junit = arguments.value("--junit") { try ManifestCommand.checkOutputPath(junit) }
        if let directory = options.diffDirectory {
            // Made (and proved writable) before any media is read, as every output path is.
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if let problem = OutputFile.directoryProblem(of: directory + "/diff.png") {
                throw UsageError(message: "--diff-dir \(directory): \(problem)")
            }
        }
        try ManifestCommand.checkResultsPath(arguments)
        let manifests: [(position: Int, path: String)]
        let shard: Shard?
        let catalogLines: Int
        if let catalog = try ManifestCommand.catalogLines(arguments, for: .check) {
            guard positionals.isEmpty else {
                throw UsageError(message: "with --catalog, the manifests come from the catalog: give no MANIFEST")
            }
            manifests = catalog.lines.map { line in (position: line.number, path: line.manifest) }
            (shard, catalogLines) = (catalog.shard, catalog.total)
        } else {
            guard !positionals.isEmpty else { throw UsageError(message: "missing MANIFEST") }
            manifests = positionals.enumerated().map { offset, path in (position: offset, path: path) }
            (shard, catalogLines) = (nil, positionals.count)
        }
        for option in ["--media", "--reference"] where arguments.value(option) != nil && manifests.count != 1 {
            throw UsageError(message: "\(option) replaces one manifest's media: give one MANIFEST")
        }
        let annotate = ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true"

        let json = arguments.has("--json")
        let checkOptions = options
        let outputs = SerializedOutputs(output: output, errors: errors)
        let progress = ProgressLine(outputs, total: manifests.count, verb: "manifests checked")
        let collected = Locked<[String]>([])
        let summary = Locked(ManifestRunSummary(command: "check", shard: shard, catalogLines: catalogLines))
        OrderedParallelWork.run(
            manifests, workers: try ManifestCommand.workers(arguments),
            work: { manifest in
                check(manifest.path, position: manifest.position, options: checkOptions)
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
                if let line = outcome.errorLine { outputs.errors.escapedLine("frameseek landing: \(line)") }
                if json {
                    for line in outcome.jsonLines { outputs.output.line(line) }
                } else {
                    // A text line quotes the manifest (its md5s, its paths): one line each, whatever they hold.
                    for line in outcome.textLines { outputs.output.escapedLine(line) }
                }
                // On stdout, where the runner reads workflow commands; beside --json on stderr,
                // which it reads too, so that stdout stays JSON lines.
                if annotate { for line in outcome.annotations { (json ? outputs.errors : outputs.output).escapedLine(line) } }
            }, progress: { progress.update($0) })
        progress.clear()
        let final = summary.withLock { $0 }
        let lines = collected.withLock { $0 }
        // Written first: a summary printed with its exit code must not be followed by a failure.
        try ManifestCommand.writeResults(lines + [final.json.serialized], arguments)
        output.line(json ? final.json.serialized : final.text)
        if let junit = arguments.value("--junit") { try LandingJUnit.write(lines: lines, to: junit) }
        return final.exitCode
    }

    /// Checks one manifest. Errors are part of the outcome, so one unreadable file in a
    /// catalog does not stop the others.
    /// Checks one manifest, the `position`-th of the run (its catalog line, from 0). Errors are
    /// part of the outcome, so one unreadable file in a catalog does not stop the others.
    static func check(_ path: String, position: Int, options: ManifestCheck.Options) -> Outcome {
        var outcome = Outcome()
        let report: ManifestCheckReport
        do {
            let manifest = try Manifest.load(from: path)
            report = try ManifestCheck.run(manifest, manifestPath: path, options: options)
        } catch {
            outcome.errorLine = "\(error)"
            outcome.jsonLines = [
                JSONValue.object([
                    ("type", .string("error")), ("manifest", .string(path)), ("position", .integer(Int64(position))),
                    ("message", .string("\(error)"))
                ]).serialized
            ]
            outcome.annotations = [GitHubAnnotation.error(file: path, title: "landing check", message: "\(error)")]
            return outcome
        }
        var expectedFailures = 0
        for (number, result) in report.results.enumerated() {
            outcome.entries += 1
            if !result.passed { outcome.mismatches += 1 }
            outcome.jsonLines.append(entryJSON(result, number: number, position: position, report: report).serialized)
            guard result.verdict != .passed else { continue }
            var line = "\(path): entry \(number): \(result.summary)"
            if let picture = result.diffPicture { line += " (diff: \(picture))" }
            switch result.verdict {
            case .expectedFailure:
                expectedFailures += 1
                line = "expected failure: " + line
            case .unexpectedPass: line = "UNEXPECTED PASS: " + line + ": remove its \"expected\" to keep checking it"
            case .passed, .failed: break
            }
            outcome.textLines.append(line)
            if !result.passed {
                outcome.annotations.append(
                    GitHubAnnotation.error(file: path, title: "entry \(number): \(result.seek)", message: line))
            }
        }
        for number in report.updatedEntries {
            let result = report.results[number]
            var changes = result.changeDescriptions.map {
                $0 == "pixels differ" ? "MD5 \(result.expected.md5) -> \(result.landed.md5)" : $0
            }
            if result.expected.picture != nil && result.changes.contains(.pixels) { changes.append("picture rewritten") }
            outcome.textLines.append("\(path): entry \(number) updated (\(result.seek)): \(changes.joined(separator: ", "))")
        }
        var notes: [String] = []
        if report.mediaReplaced {
            notes.append("replayed on \(report.mediaPath); its identity not checked")
        } else if report.mediaChanged {
            notes.append("media changed since recording")
        }
        if expectedFailures > 0 { notes.append("\(expectedFailures) expected to move") }
        if !report.updatedEntries.isEmpty { notes.append("\(report.updatedEntries.count) entries updated in the manifest") }
        let note = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
        outcome.textLines.append(
            outcome.mismatches == 0
                ? "\(path): all \(outcome.entries) landings as recorded\(note)"
                : "\(path): \(outcome.mismatches) of \(outcome.entries) landings moved\(note)")
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

    /// The entry's status in JSON: `match` and `moved` as before expected failures existed.
    static func status(_ verdict: ManifestEntryVerdict) -> String {
        switch verdict {
        case .passed: return "match"
        case .failed: return "moved"
        case .expectedFailure, .unexpectedPass: return verdict.rawValue
        }
    }

    static func entryJSON(_ result: ManifestEntryResult, number: Int, position: Int, report: ManifestCheckReport) -> JSONValue {
        let score: JSONValue =
            result.score.map { score in
                // Identical pictures have an infinite PSNR; a score that is not a number (SSIM of a
                // plane under 8 pixels) is null, and fails every tolerance.
                .object(PictureMetric.allCases.map { ($0.rawValue, score[$0] == .infinity ? .string("inf") : .number(score[$0])) })
            } ?? .null
        return .object([
            ("type", .string("entry")), ("manifest", .string(report.manifestPath)), ("position", .integer(Int64(position))),
            ("media", .string(report.mediaPath)),
            ("entry", .integer(Int64(number))), ("seek", .string(result.seek)), ("target", result.expected.target.rational),
            ("target_seconds", result.expected.target.json), ("precision", .string(result.expected.precision.description)),
            ("status", .string(status(result.verdict))),
            ("changes", .array(result.changes.map { .string($0.rawValue) })),
            ("expected", landingJSON(result.expected)), ("landed", landingJSON(result.landed)),
            ("media_changed", .bool(report.mediaChanged)), ("media_replaced", .bool(report.mediaReplaced)),
            ("score", score), ("tolerances", .array(result.tolerances.map { .string($0.description) })),
            ("reason", .string(result.expected.reason)),
            ("updated", .bool(report.updatedEntries.contains(number))),
            ("summary", .string(result.summary)), ("diff_png", .string(result.diffPicture))
        ])
    }
}

/// GitHub Actions workflow commands, which the runner turns into annotations on the file.
enum GitHubAnnotation {
    /// `::error file=F,title=T::MESSAGE`, with the characters the runner reads as syntax escaped.
    static func error(file: String, title: String, message: String) -> String {
        "::error file=\(property(file)),title=\(property(title))::\(data(message))"
    }

    private static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
