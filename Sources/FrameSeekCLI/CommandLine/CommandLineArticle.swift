import Foundation

/// The parts of the Command line article (`CommandLineReference.md`) that the commands'
/// declarations write: the usage block at its top and the section of each command's options.
/// `frameseek --write-command-line-article PATH` rewrites them; a test checks that the
/// committed article is what the declarations give.
public enum CommandLineArticle {
    /// The heading of the generated options section.
    static let optionsHeading = "## Options of each command"

    /// Every command's usage lines, then `--version`: the article's first code block.
    static var usageBlock: String {
        CommandLineTool.commands.map { $0.usage + "\n" }.joined() + "frameseek --version\n"
    }

    /// The options section: under a heading per command, the rows its `--help` prints.
    static var optionsSection: String {
        var text = """
            \(optionsHeading)

            Each command's `--help` lists these options, written from the same table the command
            reads its arguments with. Every command also takes `--help`.

            """
        for command in CommandLineTool.commands {
            text += "\n### \(command.name)\n\n```\n" + CommandOption.rows(command.allOptions) + "```\n"
        }
        return text
    }

    /// `article` with its usage block and options section replaced by what the declarations
    /// give now; the options section goes before the JSON section when the article has none.
    public static func regenerated(_ article: String) -> String {
        var text = article
        if let open = text.range(of: "```\n"), let close = text.range(of: "```\n", range: open.upperBound..<text.endIndex) {
            text.replaceSubrange(open.upperBound..<close.lowerBound, with: usageBlock)
        }
        if let start = text.range(of: optionsHeading + "\n") {
            let end = text.range(of: "\n## ", range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
            text.replaceSubrange(start.lowerBound..<end, with: optionsSection)
        } else if let json = text.range(of: "\n## JSON") {
            text.insert(contentsOf: "\n" + optionsSection, at: json.lowerBound)
        }
        return text
    }

    /// Rewrites the article at `path` in place.
    public static func rewrite(path: String) throws {
        let article = try String(contentsOfFile: path, encoding: .utf8)
        try regenerated(article).write(toFile: path, atomically: true, encoding: .utf8)
    }
}
