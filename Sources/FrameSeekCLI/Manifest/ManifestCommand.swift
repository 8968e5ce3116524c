import Foundation
import FrameSeek

/// `frameseek landing`: record where seeks land into a manifest, check them again later, and
/// merge the results of a catalog run split into shards.
enum ManifestCommand: Subcommand {
    static let name = "landing"
    static let summary = "record landing manifests, check them in CI, merge sharded results"
    static let options: [CommandOption] = [
        .targets, count, seed, precision, barcode, pictures, .stream, .threads, manifest, catalog, shard, results, jobs,
        diffDirectory, allowChangedMedia, media, reference, tolerance, strictFrames, junit, update, updateAll, root,
        allowOutsideRoot
    ]

    /// The actions that read catalogs (`thumbnails` is `frameseek thumbnails --catalog`).
    enum Action: Sendable, Hashable {
        case record, check, thumbnails
    }
    /// The action, then FILE, MANIFESTs or RESULTS files.
    static let maximumPositionals = Int.max
    static let usage = """
        frameseek landing record FILE [--targets FILE | -n N --seed S] [--precision P ...]
                                [--barcode] [--pictures] [--stream N] -o MANIFEST
        frameseek landing record --catalog CATALOG [--shard K/N] [the same target options]
        frameseek landing check MANIFEST... [--diff-dir DIR] [--allow-changed-media] [--json]
                                [--tolerance ssim:S|psnr:DB ...] [--strict-frames]
                                [--junit FILE] [--update | --update-all]
                                [--root DIR | --allow-outside-root]
        frameseek landing check MANIFEST --media NEW [--reference OLD] [the same check options]
        frameseek landing check --catalog CATALOG [--shard K/N] [the same check options]
        frameseek landing merge RESULTS... [--junit FILE]
        """
    static let discussion = """
        record  seeks every target at every --precision (default exact; give it again for more)
                and writes a manifest: the media (path relative to the manifest, size, SHA-256,
                stream), the FFmpeg versions and decoder, and per seek the landed frame, PTS,
                time, keyframe, damage and the MD5 ffmpeg -f framemd5 prints. Targets come from
                --targets FILE, or are -n N (default 10) seeded random times (--seed, default 1).
                --barcode also reads the frame number stamped in the top band (see the Landing manifests article).
                --pictures keeps each landed picture beside the manifest, lossless.
        check   replays every entry of every manifest and says what moved: the frame index, the
                time, the pixels, the barcode, the damage flag. Manifests run on --jobs threads
                (default: every core), with a progress line on a terminal; --json prints one
                JSON line per entry and one summary line. With a --tolerance (or tolerances in
                the manifest) a landing passes when its picture scores within it against the
                reference picture, so another encode (--media NEW) can be checked; an entry
                with "expected": "moved" passes when it moves and fails when it does not.
                With GITHUB_ACTIONS=true, each failure is also a ::error annotation.
        merge   adds up the summary lines of shards' --results files, checking that every shard
                of the catalog is there once; exits as one run over the whole catalog would.
                --junit writes the whole run's JUnit, the file one unsharded check writes.
        """
    static let exitCodes = """
        Exit codes: 0 every entry lands as recorded (or within tolerance, or moved as expected),
        1 some landing moved (or landed as recorded though expected to move), 2 bad usage, media
        that cannot be read, is outside the root or not a regular file, or is not the recorded
        file (SHA-256 differs), a reference picture that is missing or not the recorded one,
        or results whose counts cannot be (merge).
        """

    static let count = CommandOption(
        "-n", .wholeNumber(placeholder: "N", range: 1...100_000), default: "10", help: "record: N seeded random targets")
    static let seed = CommandOption(
        "--seed", .wholeNumber(placeholder: "S", range: 0...1_000_000_000), default: "1",
        help: "record: the seed of the random targets")
    static let precision = CommandOption(
        "--precision", .text(placeholder: "P"), repeatable: true,
        help: "record: a precision to seek every target at (default exact; give it again for more)")
    static let barcode = CommandOption("--barcode", help: "record: also read the frame number stamped in the top band")
    static let manifest = CommandOption("-o", .text(placeholder: "MANIFEST"), help: "record: the manifest to write")
    static let pictures = CommandOption(
        "--pictures",
        help: """
            record: keep each landed video picture beside the manifest, lossless
            (PNG, upright at the display size), listed with its SHA-256
            """)
    static let media = CommandOption(
        "--media", .text(placeholder: "NEW"),
        help: """
            check: replay the manifest's seeks on NEW, another encode of the same
            content; its identity is not checked (the report says so)
            """)
    static let reference = CommandOption(
        "--reference", .text(placeholder: "OLD"),
        help: """
            check: decode the reference pictures from OLD, the recorded media,
            for a manifest recorded without --pictures
            """)
    static let tolerance = CommandOption(
        "--tolerance", .text(placeholder: "ssim:S|psnr:DB"), repeatable: true,
        help: """
            check: pass a landing whose picture scores at least S (SSIM) or DB
            (PSNR) against the reference picture, by FFmpeg's ssim and psnr
            filters over Y, U and V; with none, MD5s are compared
            """)
    static let strictFrames = CommandOption(
        "--strict-frames", help: "check: with a tolerance, also fail a landing whose frame index or time changed")
    static let junit = CommandOption(
        "--junit", .text(placeholder: "FILE"),
        help: """
            check, merge: write JUnit XML to FILE: a testsuite per manifest, a
            testcase per entry
            """)
    static let update = CommandOption(
        "--update",
        help: """
            check: rewrite the manifest (and its pictures) from what landed, for
            the entries that passed; print what changed
            """)
    static let updateAll = CommandOption("--update-all", help: "check: as --update, for every entry")
    static let catalog = CommandOption(
        "--catalog", .text(placeholder: "CATALOG"),
        help: """
            JSON Lines, one media file (record) or manifest (check) per line: a JSON
            string, or {"media": PATH, "manifest": PATH}; relative to the catalog.
            record writes each manifest to its "manifest", else PATH.landing.json.
            """)
    static let shard = CommandOption(
        "--shard", .text(placeholder: "K/N"),
        help: """
            only every N-th catalog line from line K (from 0): N processes with
            K = 0..N-1 cover the catalog once, deterministically
            """)
    static let results = CommandOption(
        "--results", .text(placeholder: "FILE"),
        help: """
            also write the JSON lines (entries and the summary) to FILE, written
            whole at the end, for landing merge
            """)
    static let jobs = CommandOption(
        "--jobs", .wholeNumber(placeholder: "N", range: 1...256), help: "check: manifests checked at once (default: every core)")
    static let diffDirectory = CommandOption(
        "--diff-dir", .text(placeholder: "DIR"),
        help: """
            check: one PNG per moved landing: expected frame, landed frame, and
            their amplified difference, each labelled
            """)
    static let allowChangedMedia = CommandOption(
        "--allow-changed-media",
        help: """
            check: check media whose SHA-256 differs from the manifest's
            (after a re-encode: did the landings move?)
            """)
    static let root = CommandOption(
        "--root", .text(placeholder: "DIR"),
        help: """
            every path a manifest (media.path) or catalog names must resolve, with
            its symbolic links, inside DIR (default: the current folder) and be a
            regular file: manifests from pull requests must not make CI decode,
            or draw diff pictures of, files it was not given
            """)
    static let allowOutsideRoot = CommandOption("--allow-outside-root", help: "lift the root rule (files must still be regular files)")

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        guard let action = arguments.positionals.first else {
            throw UsageError(message: "missing the action: record, check or merge")
        }
        let rest = Array(arguments.positionals.dropFirst())
        switch action {
        case "record": return try ManifestRecordAction.run(rest, arguments, output: output, errors: errors)
        case "check": return try ManifestCheckAction.run(rest, arguments, output: output, errors: errors)
        case "merge":
            guard !rest.isEmpty else { throw UsageError(message: "missing RESULTS files") }
            let junit = arguments.value("--junit")
            if let junit { try checkOutputPath(junit) }
            let (summary, lines) = try ShardedResults.merge(rest, as: ManifestRunSummary.self)
            if let junit {
                guard summary.command == "check" else { throw UsageError(message: "--junit merges the results of landing check") }
                try LandingJUnit.write(lines: lines, to: junit)
            }
            output.line(arguments.has("--json") ? summary.json.serialized : summary.text)
            return summary.exitCode
        default:
            throw UsageError(message: "unknown action \"\(action)\": record, check or merge")
        }
    }

    /// The catalog lines this run takes, their paths checked for `action` against the root
    /// (`ManifestCatalog.checked`), with the whole catalog's line count, or nil without
    /// `--catalog`. `--shard` without a catalog is refused: there is nothing to split.
    static func catalogLines(
        _ arguments: Arguments, for action: Action
    ) throws(UsageError) -> (lines: [ManifestCatalog.Line], shard: Shard?, total: Int, catalog: ManifestCatalog)? {
        let shard = try arguments.value("--shard").map { text throws(UsageError) in try Shard(parsing: text) }
        guard let path = arguments.value("--catalog") else {
            if shard != nil { throw UsageError(message: "--shard splits a --catalog; give one") }
            return nil
        }
        let catalog = try ManifestCatalog(path: path)
        let root = try resolvedRoot(arguments)
        let lines = try catalog.lines(of: shard ?? .whole).map { line throws(UsageError) in
            try catalog.checked(line, for: action, root: root)
        }
        return (lines, shard, catalog.lines.count, catalog)
    }

    /// The root every path a manifest or catalog names must be inside: `--root`, else the
    /// current directory, `.anywhere` with `--allow-outside-root`.
    static func root(_ arguments: Arguments) throws(UsageError) -> ManifestRoot {
        try resolvedRoot(arguments).map(ManifestRoot.folder) ?? .anywhere
    }

    /// The root's folder with its symbolic links resolved, nil with `--allow-outside-root`.
    ///
    /// - Throws: `UsageError` when `--root` is missing or not a folder, or given with
    ///   `--allow-outside-root`.
    private static func resolvedRoot(_ arguments: Arguments) throws(UsageError) -> String? {
        let given = arguments.value("--root")
        if arguments.has("--allow-outside-root") {
            if given != nil { throw UsageError(message: "give --root DIR or --allow-outside-root, not both") }
            return nil
        }
        do { return try (given.map(ManifestRoot.folder) ?? .currentDirectory).resolvedFolder() } catch {
            throw UsageError(message: error.description)
        }
    }

    /// `--jobs`, by default every core.
    static func workers(_ arguments: Arguments) throws(UsageError) -> Int {
        try arguments.integer("--jobs") ?? ProcessInfo.processInfo.activeProcessorCount
    }

    /// Writes the run's JSON lines to `--results`, whole, once the run is over.
    ///
    /// - Throws: `UsageError` naming the file, which is not written, when the lines are more
    ///   than `limit` bytes (`ShardedResults.maximumBytes`, what a merge reads back); an error
    ///   of `OutputFile` when it cannot be written.
    static func writeResults(_ lines: [String], _ arguments: Arguments, limit: Int = ShardedResults.maximumBytes) throws {
        guard let path = arguments.value("--results") else { return }
        let text = lines.map { $0 + "\n" }.joined()
        guard text.utf8.count <= limit else {
            throw UsageError(
                message:
                    "--results \(path): \(text.utf8.count) bytes of results, more than the \(limit) a merge reads; split the catalog into more shards (--shard K/N)"
            )
        }
        try OutputFile.write(text, to: path)
    }

    /// Checks `--results` can be written before any work starts.
    static func checkResultsPath(_ arguments: Arguments) throws(UsageError) {
        if let path = arguments.value("--results") { try checkOutputPath(path) }
    }
}

/// A progress line on standard error, only when a person watches it: `[3/40] manifests
/// checked`, rewritten in place and cleared before any other line is written.
struct ProgressLine: Sendable {
    private let outputs: SerializedOutputs?
    private let total: Int
    private let verb: String

    /// Only `OrderedParallelWork`'s `deliver` and `progress` and the thread that started the
    /// run after it returned may call `update` and `clear` (see `SerializedOutputs`).
    init(_ outputs: SerializedOutputs, total: Int, verb: String) {
        self.outputs = outputs.errors.isTerminal && total > 1 ? outputs : nil
        self.total = total
        self.verb = verb
    }

    func update(_ done: Int) { outputs?.errors.write("\r\u{1B}[K[\(done)/\(total)] \(verb)") }

    func clear() { outputs?.errors.write("\r\u{1B}[K") }
}
