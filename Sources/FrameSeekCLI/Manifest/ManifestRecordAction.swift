import Foundation
import FrameSeek

/// The outputs of a command, handed to the threads of `OrderedParallelWork`.
///
/// `@unchecked Sendable` because `TextOutput` is a class protocol with no lock of its own.
/// Safe because `OrderedParallelWork.run` calls `deliver` and `progress`, the only places
/// that use these outputs while worker threads run, one at a time under its lock.
struct SerializedOutputs: @unchecked Sendable {
    let output: TextOutput
    let errors: TextOutput
}

/// `frameseek landing record`.
enum ManifestRecordAction {
    /// What recording one media file produced: the JSON line, the text line, or an error.
    struct Outcome: Sendable {
        var json: JSONValue
        var text: String
        var entries = 0
        var failed: Bool
    }

    static func run(
        _ positionals: [String], _ arguments: Arguments, output: TextOutput, errors: TextOutput
    ) throws -> CommandLineTool.ExitCode {
        let precisions = try ManifestCheckAction.precisions(arguments)
        let options = try ManifestCommand.engineOptions(arguments)
        let explicitTargets = try arguments.value("--targets").map { path throws(UsageError) in try TargetFile.read(path) }
        if explicitTargets != nil && (arguments.value("-n") != nil || arguments.value("--seed") != nil) {
            throw UsageError(message: "give --targets FILE or -n N --seed S, not both")
        }
        let count = try arguments.integerOrDefault("-n")
        try checkLandingCount(targets: explicitTargets?.count ?? count, precisions: precisions.count)
        let seed = UInt64(try arguments.integerOrDefault("--seed"))
        let barcode = arguments.has("--barcode")
        let pictures = arguments.has("--pictures")
        try ManifestCommand.checkResultsPath(arguments)

        let jobs: [(media: String, manifest: String)]
        let shard: Shard?
        let catalogLines: Int
        if let catalog = try ManifestCommand.catalogLines(arguments, for: .record) {
            guard positionals.isEmpty, arguments.value("-o") == nil else {
                throw UsageError(message: "with --catalog, the media and manifests come from the catalog: give no FILE and no -o")
            }
            jobs = try catalog.lines.map { line throws(UsageError) in
                guard let media = line.media else {
                    throw UsageError(message: "catalog line \(line.number + 1) names no media to record")
                }
                return (media, line.manifest)
            }
            (shard, catalogLines) = (catalog.shard, catalog.total)
        } else {
            guard positionals.count == 1, let file = positionals.first else {
                throw UsageError(message: positionals.isEmpty ? "missing FILE" : "record takes one FILE (or --catalog)")
            }
            guard let manifest = arguments.value("-o") else { throw UsageError(message: "missing -o MANIFEST") }
            jobs = [(file, manifest)]
            (shard, catalogLines) = (nil, 1)
        }
        for job in jobs { try ManifestCommand.checkOutputPath(job.manifest) }

        let json = arguments.has("--json")
        let outputs = SerializedOutputs(output: output, errors: errors)
        let progress = ProgressLine(outputs, total: jobs.count, verb: "recorded")
        let collected = Locked<[String]>([])
        let summary = Locked(ManifestRunSummary(command: "record", shard: shard, catalogLines: catalogLines))
        OrderedParallelWork.run(
            jobs, workers: try ManifestCommand.workers(arguments),
            work: { job in
                record(
                    job.media, to: job.manifest, targets: explicitTargets, count: count, seed: seed,
                    precisions: precisions, barcode: barcode, pictures: pictures, options: options)
            },
            deliver: { _, outcome in
                summary.withLock { s in
                    s.manifests += 1
                    s.entries += outcome.entries
                    if outcome.failed { s.errors += 1 } else { s.passed += 1 }
                }
                collected.withLock { $0.append(outcome.json.serialized) }
                progress.clear()
                if outcome.failed { outputs.errors.escapedLine("frameseek landing: \(outcome.text)") }
                if json {
                    outputs.output.line(outcome.json.serialized)
                } else if !outcome.failed {
                    outputs.output.escapedLine(outcome.text)
                }
            }, progress: { progress.update($0) })
        progress.clear()
        let final = summary.withLock { $0 }
        // Written first: a summary printed with its exit code must not be followed by a failure.
        try ManifestCommand.writeResults(collected.withLock { $0 } + [final.json.serialized], arguments)
        if json || jobs.count > 1 { output.line(json ? final.json.serialized : final.text) }
        return final.exitCode
    }

    /// Refuses more landings (targets x precisions) than `seek` takes targets in one run: each
    /// is planned before the pass and held until the manifest is written, and a manifest of
    /// millions of entries would be larger than `landing check` reads.
    static func checkLandingCount(targets: Int, precisions: Int) throws(UsageError) {
        let (landings, overflow) = targets.multipliedReportingOverflow(by: precisions)
        guard overflow || landings > SampleTargets.limit else { return }
        throw UsageError(
            message: "\(targets) targets at \(precisions) precisions; at most \(SampleTargets.limit) landings in one manifest")
    }

    /// Records one media file; failures become an error outcome rather than ending the run,
    /// so one bad file in a catalog does not lose the others.
    static func record(
        _ media: String, to manifestPath: String, targets explicit: [MediaTime]?, count: Int, seed: UInt64,
        precisions: [SeekPrecision], barcode: Bool, pictures: Bool, options: FFmpegEngine.Options
    ) -> Outcome {
        do {
            let targets = try explicit ?? randomTargets(media, count: count, seed: seed, options: options)
            let manifest = try ManifestRecorder.record(
                mediaPath: media, manifestPath: manifestPath, targets: targets,
                precisions: precisions, barcode: barcode, pictures: pictures, options: options)
            try manifest.write(to: manifestPath)
            let damaged = manifest.entries.filter(\.damaged).count
            var text = "\(media): \(manifest.entries.count) landings recorded in \(manifestPath)"
            if damaged > 0 { text += " (\(damaged) damaged: their MD5s are not a clean decode's)" }
            return Outcome(
                json: .object([
                    ("type", .string("recorded")), ("media", .string(media)), ("manifest", .string(manifestPath)),
                    ("entries", .integer(Int64(manifest.entries.count))), ("damaged", .integer(Int64(damaged)))
                ]),
                text: text, entries: manifest.entries.count, failed: false)
        } catch {
            return Outcome(
                json: .object([
                    ("type", .string("error")), ("media", .string(media)), ("manifest", .string(manifestPath)),
                    ("message", .string("\(error)"))
                ]),
                text: "\(error)", failed: true)
        }
    }

    /// `count` seeded random times over the stream's frames, as `bench --workload random`
    /// draws them, so the same seed gives the same targets on every machine.
    static func randomTargets(_ media: String, count: Int, seed: UInt64, options: FFmpegEngine.Options) throws -> [MediaTime] {
        let engine = try FFmpegEngine(path: media, options: options)
        return BenchWorkload.random.operations(for: engine.frameTable, count: count, seed: seed).compactMap { operation in
            if case .seek(let time) = operation { return time }
            return nil
        }
    }
}
