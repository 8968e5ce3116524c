// The command line is declared once, in each command's option table: the parser, `--help` and
// the Command line article come from it. These tests fail when one of them drifts: an article
// edited by hand or not regenerated, a usage line naming an option no table declares, an option
// declared that nothing reads or read that nothing declares, and a parser that accepts or
// refuses other options than the table's.

import Foundation
@testable import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("Command line: one declaration for parser, help and article")
struct CommandLineDeclarationTests {
    static let articlePath = Repository.root.appendingPathComponent("Sources/FrameSeek/FrameSeek.docc/CommandLineReference.md").path
    static let names = CommandLineTool.commands.map { $0.name }

    static func command(_ name: String) -> any Subcommand.Type {
        CommandLineTool.commands.first { $0.name == name }!
    }

    /// The code block under the article's `### NAME` heading, nil when there is none.
    static func articleOptions(_ name: String, in article: String) -> String? {
        guard let heading = article.range(of: "\n### \(name)\n\n```\n") else { return nil }
        guard let end = article.range(of: "```\n", range: heading.upperBound..<article.endIndex) else { return nil }
        return String(article[heading.upperBound..<end.lowerBound])
    }

    @Test("The committed Command line article is what the option tables write (frameseek --write-command-line-article)")
    func articleIsGenerated() throws {
        let article = try String(contentsOfFile: Self.articlePath, encoding: .utf8)
        let expected = CommandLineArticle.regenerated(article)
        // The first differing line, so a failure says where to look.
        let difference = zip(
            article.split(separator: "\n", omittingEmptySubsequences: false),
            expected.split(separator: "\n", omittingEmptySubsequences: false)
        )
        .first { $0 != $1 }
        #expect(article == expected, "first difference: \(String(describing: difference))")
    }

    @Test("COMMAND --help lists exactly the options the article lists for it", arguments: names)
    func helpMatchesArticle(_ name: String) throws {
        let article = try String(contentsOfFile: Self.articlePath, encoding: .utf8)
        let listed = try #require(Self.articleOptions(name, in: article), "the article has no options of \(name)")
        let help = frameseek([name, "--help"]).stdout.text
        let helpOptions = try #require(help.range(of: "\noptions:\n")).upperBound
        let helpEnd = try #require(help.range(of: "\n\n", range: helpOptions..<help.endIndex)).lowerBound
        #expect(String(help[helpOptions..<helpEnd]) + "\n" == listed)
        // Every option in the list has its row; no option is listed twice.
        let labels = Self.command(name).allOptions.map(\.name)
        #expect(Set(labels).count == labels.count, "\(name) declares an option twice: \(labels)")
        for option in labels {
            #expect(
                listed.contains("\n  \(option) ") || listed.hasPrefix("  \(option) ") || listed.contains("  \(option)\n"),
                "\(name): \(option)")
        }
    }

    @Test("Every option a usage line names is declared in the command's table", arguments: names)
    func usageNamesDeclaredOptions(_ name: String) {
        let command = Self.command(name)
        let declared = Set(command.allOptions.map(\.name))
        let words = command.usage.split(whereSeparator: { " []()|\n".contains($0) })
        let named = words.filter { $0.hasPrefix("-") && $0.count > 1 }.map(String.init)
        #expect(!named.isEmpty)
        for option in named { #expect(declared.contains(option), "\(name)'s usage names \(option), which its table does not declare") }
        #expect(command.help.hasPrefix("usage: frameseek \(name) "))
    }

    @Test("The parser takes every declared option and refuses any other with one line and exit 2", arguments: names)
    func parserFollowsTable(_ name: String) throws {
        let command = Self.command(name)
        for option in command.allOptions {
            let words = option.isFlag ? [option.name] : [option.name, "1"]
            #expect(throws: Never.self, "\(name) \(option.name)") { try CommandLineTool.arguments(words, for: command) }
            if !option.isFlag {
                #expect(throws: UsageError.self) { try CommandLineTool.arguments([option.name], for: command) }
            }
            // A default is a value the option itself would take.
            if case .wholeNumber(_, let range) = option.value, let text = option.defaultValue {
                #expect(Int(text).map(range.contains) == true, "\(name) \(option.name): default \(text) outside \(range)")
            }
        }
        let result = frameseek([name, FailingInvocation.good, "--frobnicate"])
        #expect(result.code == .usageOrInput)
        #expect(result.stdout.text.isEmpty)
        #expect(result.stderr.text == "frameseek \(name): unknown option --frobnicate (see frameseek \(name) --help)\n")
    }

    /// The option names the command line's sources read (`arguments.value("--x")`, `has`,
    /// `values`, `integer`), found in the source text.
    static func optionsRead() throws -> Set<String> {
        let folder = Repository.root.appendingPathComponent("Sources/FrameSeekCLI")
        let pattern = try NSRegularExpression(
            pattern: #"\.(?:value|values|has|integer|valueOrDefault|integerOrDefault)\("(-{1,2}[a-z0-9-]+)"\)"#)
        var read: Set<String> = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { read.insert(String(text[range])) }
            }
        }
        return read
    }

    @Test("Every declared option is read, and every option read is declared")
    func declaredOptionsAreRead() throws {
        let read = try Self.optionsRead()
        let declared = Set(CommandLineTool.commands.flatMap { $0.allOptions.map(\.name) })
        #expect(read.count > 40, "the source scan found \(read.count) options")
        #expect(declared.subtracting(read).isEmpty, "declared, never read: \(declared.subtracting(read).sorted())")
        #expect(read.subtracting(declared).isEmpty, "read, never declared: \(read.subtracting(declared).sorted())")
    }

    @Test("A whole-number option refuses a value outside its declared range, naming the range")
    func declaredRange() {
        let result = frameseek(["probe", FailingInvocation.good, "--threads", "65"])
        #expect(result.code == .usageOrInput)
        #expect(result.stderr.text.contains("--threads takes a whole number from 0 to 64, not \"65\""), "\(result.stderr.text)")
    }
}

@Suite("Command line: times after FILE and --at are the same")
struct CommandLineTimeSpellingTests {
    static let good = FailingInvocation.good

    /// What a landing is, for comparing: the fields that say where it landed and what it
    /// decoded (not timings, nor reads, which the index cache changes between runs).
    static let landingFields: Set<String> = [
        "requested_rational", "landed_rational", "delta_rational", "frame_index", "landed_pts", "key_frame_index", "clamp",
        "within_tolerance", "md5", "result", "direction", "frames_stepped", "damaged", "decode_errors"
    ]

    /// The JSON lines, each reduced to `landingFields`.
    static func untimed(_ arguments: [String]) -> [String] {
        jsonLines(arguments).map { object in
            object.filter { landingFields.contains($0.key) }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: ",")
        }
    }

    @Test("seek lands the same with TIMEs, with --at, and with both in that order")
    func seekAt() {
        // Without the index cache: a table another test writes there meanwhile would number
        // the later runs' landings and not the first's.
        let positional = Self.untimed(["seek", Self.good, "0.5", "1.25", "--md5", "--json", "--no-index-cache"])
        #expect(positional.count == 2)
        #expect(
            Self.untimed(["seek", Self.good, "--at", "0.5", "--at", "1.25", "--md5", "--json", "--no-index-cache"]) == positional)
        #expect(Self.untimed(["seek", Self.good, "--at", "1.25", "0.5", "--md5", "--json", "--no-index-cache"]) == positional)
    }

    @Test("step lands and steps the same from a TIME after FILE as from --at")
    func stepTime() {
        let at = Self.untimed(["step", Self.good, "--at", "1.25", "--forward", "--repeat", "3", "--md5", "--json"])
        #expect(at.count == 3)
        #expect(Self.untimed(["step", Self.good, "1.25", "--forward", "--repeat", "3", "--md5", "--json"]) == at)
    }

    @Test("step refuses a TIME given twice, and no time at all, with one line and exit 2")
    func stepTimeOnce() {
        CLIErrorTests.checkFails(
            FailingInvocation(
                label: "both", arguments: ["step", Self.good, "1", "--at", "2", "--forward"],
                mustContain: ["unexpected argument \"1\"", "--at"]))
        CLIErrorTests.checkFails(
            FailingInvocation(
                label: "two", arguments: ["step", Self.good, "1", "2", "--forward"], mustContain: ["unexpected argument \"2\""]))
        CLIErrorTests.checkFails(
            FailingInvocation(label: "none", arguments: ["step", Self.good, "--forward"], mustContain: ["missing TIME"]))
    }
}
