import Foundation
import FrameSeek

/// One catalog line run as its own command, in this process: what `thumbnails --catalog` and
/// `bench --catalog` do for each line their shard takes, with the options the run was given.
struct CatalogLineRun {
    /// The command's exit code.
    let code: CommandLineTool.ExitCode
    /// Its standard output, by line.
    let output: [String]
    /// Its one-line error (without warnings); nil when it succeeded.
    let error: String?

    /// Runs `command` on `media` with `words` (options as `Arguments.optionWords` gives them),
    /// capturing what it prints.
    init(_ command: String, media: String, words: [String]) {
        let captured = CapturedOutput(), failure = CapturedOutput()
        code = CommandLineTool.run([command, media] + words, output: captured, errors: failure)
        output = captured.lines
        error = code == .success ? nil : (failure.lines.last { !$0.contains("warning:") } ?? "\(command) failed")
    }
}
