/// One `frameseek` subcommand, declared as data: its usage lines, what it does, and its option
/// table. The parser, the reads' validation, `--help` and the Command line article's option
/// lists all come from the table (`CommandOption`).
protocol Subcommand: Sendable {
    static var name: String { get }
    static var summary: String { get }
    /// The usage lines, each starting "frameseek NAME"; continuation lines are indented as
    /// they line up under the first.
    static var usage: String { get }
    /// What the command does and prints, between the usage and the options in `--help`.
    static var discussion: String { get }
    /// The options the command declares (those every command takes are added to them).
    static var options: [CommandOption] { get }
    /// The last paragraph of `--help`: the exit codes.
    static var exitCodes: String { get }
    /// How many positional words the command reads (FILE, and TIMEs for `seek`).
    static var maximumPositionals: Int { get }
    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode
}

extension Subcommand {
    /// FILE alone.
    static var maximumPositionals: Int { 1 }

    /// Every option the command takes: its own, then those every command takes.
    static var allOptions: [CommandOption] { options + CommandOption.everyCommand }

    /// What `--help` prints: usage, discussion, options, exit codes.
    static var help: String {
        let usageLines = usage.split(separator: "\n").enumerated().map { $0 == 0 ? "usage: \($1)" : "       \($1)" }
        return usageLines.joined(separator: "\n") + "\n\n" + discussion + "\n\noptions:\n" + CommandOption.rows(allOptions) + "\n"
            + exitCodes + "\n"
    }
}
