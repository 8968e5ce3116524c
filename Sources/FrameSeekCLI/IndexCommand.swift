import Foundation
import FrameSeek

/// `frameseek index`: builds the index cache entries of files ahead of time, in parallel.
enum IndexCommand: Subcommand {
    static let name = "index"
    static let summary = "build the index cache entries of files ahead of time"
    static let usage = """
        frameseek index FILE... [--stream N] [--jobs N] [--json]
        """
    static let options: [CommandOption] = [.stream, jobs]
    static let maximumPositionals = Int.max
    static let discussion = """
        Indexes each FILE's selected stream (as every command selects it, or --stream N) and keeps
        the table in the index cache ($XDG_CACHE_HOME/frameseek/index, else ~/.cache/frameseek/index),
        so later commands on the file read the table instead of the media. Files run --jobs at a
        time (default: one per core); one line per file, in the order given: its frame count, how
        the table was made, and whether the cache entry was read, written or rebuilt. An entry is
        keyed by the file's size, modification time and the SHA-256 of its first and last MiB, with
        FrameSeek's and FFmpeg's versions; one that does not match, or is damaged, is rebuilt.
        """
    static let exitCodes = """
        Exit codes: 0 every file indexed, 2 bad usage or a file that could not be indexed (the
        others are still indexed).
        """

    static let jobs = CommandOption(
        "--jobs", .wholeNumber(placeholder: "N", range: 1...64), help: "files indexed at a time (default: one per core)")

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "missing FILE") }
        guard !arguments.has("--no-index-cache") else { throw UsageError(message: "--no-index-cache leaves nothing to do") }
        let options = try engineOptions(arguments)
        let jobs = try arguments.integer("--jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        let json = arguments.has("--json")
        // Collected, then written in the order given: the outputs are not shared between threads.
        let results = Locked<[Swift.Result<String, any Error>]>([])
        OrderedParallelWork.run(
            arguments.positionals, workers: jobs,
            work: { file -> Swift.Result<String, any Error> in
                Swift.Result { try line(for: file, engine: FFmpegEngine(path: file, options: options), json: json) }
            }, deliver: { _, result in results.withLock { $0.append(result) } })
        var failed = false
        for result in results.withLock({ $0 }) {
            switch result {
            case .success(let line): output.line(line)
            case .failure(let error):
                failed = true
                errors.escapedLine("frameseek index: \(error)")
            }
        }
        return failed ? .usageOrInput : .success
    }

    /// What became of `file`'s index.
    private static func line(for file: String, engine: FFmpegEngine, json: Bool) -> String {
        let table = engine.frameTable
        let (cache, entry, note): (String, String?, String?) =
            switch engine.indexCacheOutcome {
            case .read(let path): ("read", path, nil)
            case .written(let path): ("written", path, nil)
            case .rejected(let path, let reason, let rewriteFailure):
                ("rebuilt", path, reason + (rewriteFailure.map { "; not saved: \($0)" } ?? ""))
            case .notWritten(let reason): ("not_written", nil, reason)
            case .notNeeded: ("not_needed", nil, "an MP4 opens from its own sample table")
            case nil: ("none", nil, "not a local file")
            }
        if json {
            return JSONValue.object([
                ("file", .string(file)), ("stream_index", .integer(Int64(table.streamIndex))),
                ("frame_count", .integer(Int64(table.frames.count))), ("index_source", .string(table.source.rawValue)),
                ("cache", .string(cache)), ("entry", .string(entry)), ("note", .string(note))
            ]).serialized
        }
        return "\(file): stream \(table.streamIndex), \(table.frames.count) frames (\(table.source.rawValue)), cache \(cache)"
            + (entry.map { " \($0)" } ?? "") + (note.map { " (\($0))" } ?? "")
    }
}
