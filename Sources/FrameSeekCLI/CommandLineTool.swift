import FrameSeek

/// The `frameseek` command line, as a library so tests can run it in-process.
///
/// Exit codes: 0 success, 1 a failed check, 2 bad usage or unreadable input. Errors are one
/// line on stderr: `frameseek COMMAND: FILE: cause`.
public enum CommandLineTool {
    /// The documented exit codes.
    public enum ExitCode: Int32, Sendable {
        /// The command did what was asked.
        case success = 0
        /// A check the command ran did not hold.
        case failedCheck = 1
        /// Bad usage, or input that cannot be read (missing, empty, not media, truncated).
        case usageOrInput = 2
    }

    static let commands: [any Subcommand.Type] = [
        ProbeCommand.self, FramesCommand.self, SeekCommand.self, LiveCommand.self, StepCommand.self,
        ThumbnailsCommand.self, BenchCommand.self, LandingCommand.self, PlayCommand.self, IndexCommand.self
    ]

    /// Runs `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], output: TextOutput, errors: TextOutput) -> ExitCode {
        guard let name = arguments.first else {
            errors.write(overview)
            return .usageOrInput
        }
        if name == "--help" || name == "-h" || name == "help" {
            output.write(overview)
            return .success
        }
        if name == "--version" || name == "version" {
            output.write(versionText)
            return .success
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            errors.line("frameseek: unknown command \"\(name)\" (see frameseek --help)")
            return .usageOrInput
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            output.write(command.help)
            return .success
        }
        do {
            let parsed = try Self.arguments(rest, for: command)
            // A word nobody reads is a mistake (a second file, a time given to a command that
            // takes none), not something to ignore.
            if parsed.positionals.count > command.maximumPositionals {
                throw UsageError(message: "unexpected argument \"\(parsed.positionals[command.maximumPositionals])\"")
            }
            if parsed.has("--insecure") {
                errors.line("frameseek \(name): warning: --insecure: HTTPS certificates are not verified")
            }
            return try command.run(parsed, output: output, errors: errors)
        } catch let error as UsageError {
            errors.line("frameseek \(name): \(error.message) (see frameseek \(name) --help)")
        } catch {
            errors.line("frameseek \(name): \(error)")
        }
        return .usageOrInput
    }

    /// `rest` parsed with the flags and options `command` takes, and those every command takes.
    static func arguments(_ rest: [String], for command: any Subcommand.Type) throws(UsageError) -> Arguments {
        // Every command that reads media over the network (it takes --timeout) takes the rest
        // of the network options too, declared here once.
        let network = command.options.contains("--timeout")
        return try Arguments(
            rest, flags: command.flags.union(["--json", "--no-index-cache"]).union(network ? ["--insecure"] : []),
            options: command.options.union(network ? ["--playlist-limit-mb"] : []))
    }

    static var overview: String {
        var text = """
            frameseek: precise seeking in video, decoded with FFmpeg.

            usage: frameseek COMMAND FILE [options]
                   frameseek --version

            commands:

            """
        text += columns(commands.map { ($0.name, $0.summary) })
        text += """

            Each command takes --help and --json. Exit codes: 0 success, 1 a failed check,
            2 bad usage or unreadable input (one line on stderr names the file and the cause).
            --version prints FrameSeek's version and the FFmpeg libraries it runs on.

            """
        return text
    }

    /// What `--version` prints. The library versions are the ones loaded at run time, not the
    /// headers built against: a report of a landing that moved needs the decoder that ran.
    static var versionText: String {
        let libraries = FFmpegLibraries.versions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return "frameseek \(FrameSeekVersion.current)\nFFmpeg \(FFmpegLibraries.release)\n" + columns(libraries)
    }

    /// Indented two-column rows, the second column two spaces past the longest first one, so a
    /// longer name added later cannot push its own row out of line.
    static func columns(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  \($0.0.padding(width + 2))\($0.1)\n" }.joined()
    }
}

/// One `frameseek` subcommand.
protocol Subcommand: Sendable {
    static var name: String { get }
    static var summary: String { get }
    static var help: String { get }
    static var flags: Set<String> { get }
    static var options: Set<String> { get }
    /// How many positional words the command reads (FILE, and TIMEs for `seek`).
    static var maximumPositionals: Int { get }
    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode
}

extension Subcommand {
    /// FILE alone.
    static var maximumPositionals: Int { 1 }

    /// The single FILE positional every media command takes.
    static func singleFile(_ arguments: Arguments) throws(UsageError) -> String {
        guard let file = arguments.positionals.first else { throw UsageError(message: "missing FILE") }
        return file
    }

    /// Refuses an output path that cannot be written, before any decoding.
    static func checkOutputPath(_ path: String) throws(UsageError) {
        do { try OutputFile.checkWritable(path) } catch { throw UsageError(message: error.description) }
    }

    /// The engine options `--stream`, `--threads`, `--pool-mb` and `--tonemap` ask for (one
    /// decoder thread by default: see the Performance article's "Threads" for why).
    static func engineOptions(_ arguments: Arguments, cacheBytes: Int? = nil) throws(UsageError) -> FFmpegEngine.Options {
        let poolMegabytes = try arguments.integer("--pool-mb", minimum: 0, maximum: 1_048_576)
        var options = FFmpegEngine.Options(
            streamIndex: try arguments.integer("--stream", minimum: 0),
            threads: try arguments.integer("--threads", minimum: 0, maximum: 64) ?? 1,
            cacheBytes: cacheBytes ?? FFmpegEngine.Options.defaultCacheBytes,
            decoderPoolBytes: poolMegabytes.map { $0 * 1024 * 1024 } ?? FFmpegEngine.Options.defaultDecoderPoolBytes)
        // Media over HTTP: how often a failed request is tried again, and how long one may take.
        if let retries = try arguments.integer("--retries", minimum: 0, maximum: 100) { options.network.retries = retries }
        if let timeout = try arguments.integer("--timeout", minimum: 1, maximum: 86_400) { options.network.timeout = .seconds(timeout) }
        if arguments.has("--insecure") { options.network.verifiesCertificates = false }
        if let megabytes = try arguments.integer("--playlist-limit-mb", minimum: 1, maximum: 4096) {
            options.network.playlistLimitBytes = megabytes << 20
        }
        // The executable arms the deadline before the command runs (CommandDeadline); a bad
        // value is refused here, as any option's is.
        _ = try arguments.integer("--deadline", minimum: 0, maximum: 604_800)
        if let name = arguments.value("--tonemap") {
            guard let mapping = ToneMapping(parsing: name) else {
                throw UsageError(message: "--tonemap takes \(ToneMapping.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
            }
            options.toneMapping = mapping
        }
        // Every command keeps frame tables between runs, unless told not to.
        if !arguments.has("--no-index-cache") { options.indexCache = IndexCache(directory: IndexCache.defaultDirectory) }
        return options
    }

    /// Opens FILE with `--stream`, `--threads`, `--pool-mb` and `--no-index-cache`; an index
    /// cache entry that was not trusted, or not written, is a warning on `errors`.
    static func openEngine(_ file: String, _ arguments: Arguments, cacheBytes: Int? = nil, errors: TextOutput? = nil) throws -> FFmpegEngine
    {
        let engine = try FFmpegEngine(path: file, options: engineOptions(arguments, cacheBytes: cacheBytes))
        if let errors, let warning = indexCacheWarning(engine.indexCacheOutcome, file: file) {
            errors.line("frameseek \(name): warning: \(warning)")
        }
        return engine
    }

    /// The line to warn with for what the index cache did, nil when all went well.
    static func indexCacheWarning(_ outcome: IndexCache.Outcome?, file: String) -> String? {
        switch outcome {
        case .rejected(let path, let reason, let rewriteFailure):
            return "\(file): the index cache entry \(path) was not used: \(reason); the index was rebuilt"
                + (rewriteFailure.map { " but not saved: \($0)" } ?? "")
        case .notWritten(let reason):
            return "\(file): the index was not saved to the cache: \(reason)"
        case .read, .written, .notNeeded, nil:
            return nil
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

extension MediaTime {
    /// Seconds for JSON: display only, never read back.
    var json: JSONValue { .number(seconds) }
    /// The exact rational as `value/timescale`, for JSON readers that want it.
    var rational: JSONValue { isNumeric ? .string("\(value)/\(timescale)") : .null }
}
