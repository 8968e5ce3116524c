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
        ThumbnailsCommand.self, BenchCommand.self, ManifestCommand.self, PlayCommand.self, IndexCommand.self, IFramesCommand.self
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
            errors.escapedLine("frameseek: unknown command \"\(name)\" (see frameseek --help)")
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
                errors.escapedLine("frameseek \(name): warning: --insecure: HTTPS certificates are not verified")
            }
            return try command.run(parsed, output: output, errors: errors)
        } catch let error as UsageError {
            errors.escapedLine("frameseek \(name): \(error.message) (see frameseek \(name) --help)")
        } catch {
            errors.escapedLine("frameseek \(name): \(error)")
        }
        return .usageOrInput
    }

    /// `rest` parsed with the options `command` declares.
    static func arguments(_ rest: [String], for command: any Subcommand.Type) throws(UsageError) -> Arguments {
        try Arguments(rest, options: command.allOptions)
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
