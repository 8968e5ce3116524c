// Exit codes and the one-line error contract: exit 2, one line on stderr naming the file
// (where a file is involved) and the cause, nothing on stdout.

import Foundation
@testable import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// A command line that must fail with exit code 2.
struct FailingInvocation: Sendable, CustomTestStringConvertible {
    let label: String
    let arguments: [String]
    /// Texts the one stderr line must contain (case-insensitive): the file, the cause.
    let mustContain: [String]
    var testDescription: String { label }

    static let good = Repository.fixture("media/h264_vfr.mkv")
    static let missingTargets = Repository.fixture("bad/no_such_targets.txt")

    /// Broken files, through each command that opens media.
    static let badFiles: [FailingInvocation] = {
        let inputs: [(String, [String])] = [
            ("bad/empty.mp4", ["empty"]),
            ("bad/does_not_exist.mp4", ["no such file"]),
            ("bad/not_media.mp4", []),
            ("bad/truncated_moov_at_end.mp4", []),
            ("bad/truncated_faststart.mp4", [])
        ]
        var list: [FailingInvocation] = []
        for (relative, causes) in inputs {
            let path = Repository.fixture(relative)
            for command in [["probe", path], ["frames", path, "--json"], ["seek", path, "1.5", "--json", "--md5"]] {
                list.append(
                    FailingInvocation(
                        label: "\(command[0]) \(relative)", arguments: command,
                        mustContain: [path + ": "] + causes))
            }
        }
        return list
    }()

    static let usage: [FailingInvocation] = [
        FailingInvocation(label: "seek FILE nan", arguments: ["seek", good, "nan"], mustContain: ["\"nan\"", "not a time"]),
        FailingInvocation(label: "seek FILE NaN --json", arguments: ["seek", good, "NaN", "--json"], mustContain: ["NaN"]),
        FailingInvocation(label: "seek FILE inf", arguments: ["seek", good, "inf"], mustContain: ["\"inf\"", "infinity"]),
        FailingInvocation(label: "seek FILE -inf", arguments: ["seek", good, "-inf"], mustContain: ["inf"]),
        FailingInvocation(label: "seek FILE abc", arguments: ["seek", good, "abc"], mustContain: ["abc", "not a time"]),
        FailingInvocation(label: "unknown option", arguments: ["seek", good, "1", "--bogus"], mustContain: ["--bogus", "unknown option"]),
        FailingInvocation(label: "unknown option (frames)", arguments: ["frames", good, "--frobnicate"], mustContain: ["--frobnicate"]),
        FailingInvocation(label: "seek without FILE", arguments: ["seek"], mustContain: ["FILE"]),
        FailingInvocation(label: "probe without FILE", arguments: ["probe"], mustContain: ["FILE"]),
        FailingInvocation(label: "frames without FILE", arguments: ["frames", "--json"], mustContain: ["FILE"]),
        FailingInvocation(label: "seek without TIME", arguments: ["seek", good], mustContain: ["TIME"]),
        FailingInvocation(label: "--stream 99 (seek)", arguments: ["seek", good, "1", "--stream", "99"], mustContain: [good + ": ", "99"]),
        FailingInvocation(
            label: "--stream 99 (probe)", arguments: ["probe", good, "--stream", "99", "--json"], mustContain: [good + ": ", "99"]),
        FailingInvocation(
            label: "--stream subtitle", arguments: ["frames", Repository.fixture("media/nasa_13013.mp4"), "--stream", "2"],
            mustContain: [Repository.fixture("media/nasa_13013.mp4") + ": ", "subtitle"]),
        FailingInvocation(label: "--stream abc", arguments: ["seek", good, "1", "--stream", "abc"], mustContain: ["--stream", "abc"]),
        FailingInvocation(label: "--stream without value", arguments: ["seek", good, "1", "--stream"], mustContain: ["--stream"]),
        FailingInvocation(
            label: "--precision bogus", arguments: ["seek", good, "1", "--precision", "bogus"], mustContain: ["bogus", "precision"]),
        FailingInvocation(
            label: "--precision negative tolerance", arguments: ["seek", good, "1", "--precision", "nearest-keyframe:-1"],
            mustContain: ["nearest-keyframe:-1"]),
        FailingInvocation(
            label: "--targets missing file", arguments: ["seek", good, "--targets", missingTargets],
            mustContain: [missingTargets, "targets"]),
        FailingInvocation(label: "unknown command", arguments: ["bogus", good], mustContain: ["bogus"])
    ]
}

@Suite("Command-line errors", .ffmpegLog)
struct CLIErrorTests {
    @discardableResult
    static func checkFails(_ invocation: FailingInvocation) -> String {
        let result = frameseek(invocation.arguments)
        let context = "frameseek \(invocation.arguments.joined(separator: " "))"
        #expect(result.code == .usageOrInput, "\(context): exit code \(result.code.rawValue)")
        #expect(result.stdout.text.isEmpty, "\(context): stdout should be empty, got \(result.stdout.text.prefix(300))")
        #expect(result.err.count == 1, "\(context): \(result.err.count) stderr lines: \(result.stderr.text)")
        #expect(
            result.stderr.text.hasSuffix("\n") && result.stderr.text.filter { $0 == "\n" }.count == 1,
            "\(context): stderr must be exactly one line")
        let line = result.err.first ?? ""
        for needle in invocation.mustContain {
            #expect(line.lowercased().contains(needle.lowercased()), "\(context): stderr \"\(line)\" lacks \"\(needle)\"")
        }
        #expect(line.hasPrefix("frameseek"), "\(context): the line names the tool: \(line)")
        return line
    }

    @Test("Broken media files: exit 2, one line with the path and the cause", arguments: FailingInvocation.badFiles)
    func badFiles(_ invocation: FailingInvocation) {
        let line = Self.checkFails(invocation)
        // Whatever the cause, the path is followed by words.
        let path = invocation.arguments[1]
        if let range = line.range(of: path + ": ") {
            #expect(line[range.upperBound...].count >= 5, "a cause after the path: \(line)")
        }
    }

    @Test("Bad usage: exit 2, one line naming the cause", arguments: FailingInvocation.usage)
    func badUsage(_ invocation: FailingInvocation) {
        Self.checkFails(invocation)
    }

    @Test("--png with several targets needs a numbered pattern; nothing is written without one")
    func pngNeedsPattern() throws {
        let directory = try temporaryDirectory("png-pattern")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("out.png").path
        Self.checkFails(
            FailingInvocation(
                label: "png without pattern",
                arguments: ["seek", FailingInvocation.good, "0.5", "1.0", "--png", plain],
                mustContain: ["pattern"]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}

@Suite("Command-line help", .ffmpegLog)
struct CLIHelpTests {
    /// The overview's rows under "commands:", one a command: name, then summary.
    static var commandRows: [Substring] {
        let overview = frameseek(["--help"]).stdout.text
        guard let start = overview.range(of: "commands:") else { return [] }
        return overview[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }
    }

    /// The command names the overview lists under "commands:".
    static var listedCommands: [String] {
        commandRows.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("frameseek --help: exit 0, usage on stdout, nothing on stderr")
    func overview() {
        let result = frameseek(["--help"])
        #expect(result.code == .success)
        #expect(result.stdout.text.contains("usage:"))
        #expect(result.stderr.text.isEmpty)
        let listed = Self.listedCommands
        for required in ["probe", "frames", "seek"] {
            #expect(listed.contains(required), "the overview lists \(required): \(listed)")
        }
    }

    @Test("COMMAND --help: exit 0, usage naming the command", arguments: ["probe", "frames", "seek"])
    func commandHelp(_ command: String) {
        for spelling in ["--help", "-h"] {
            let result = frameseek([command, spelling])
            #expect(result.code == .success, "\(command) \(spelling)")
            #expect(result.stdout.text.contains("usage: frameseek \(command)"), "\(command) \(spelling): \(result.stdout.text.prefix(200))")
            #expect(result.stdout.text.contains("--json"))
            #expect(result.stderr.text.isEmpty)
        }
        // --help wins over a bad file or bad option.
        let withFile = frameseek([command, "/nonexistent/file.mp4", "--help"])
        #expect(withFile.code == .success)
        #expect(withFile.stderr.text.isEmpty)
    }

    @Test("Every command the overview lists has its own --help")
    func everyListedCommand() {
        for command in Self.listedCommands {
            let result = frameseek([command, "--help"])
            #expect(result.code == .success, "\(command) --help")
            #expect(result.stdout.text.contains("usage:"), "\(command) --help prints usage")
        }
    }

    @Test("COMMAND --help interpolates what it quotes: no \\( left in it", arguments: CommandLineTool.commands.map { $0.name })
    func noLiteralInterpolation(_ command: String) {
        let help = frameseek([command, "--help"]).stdout.text
        #expect(!help.isEmpty && !help.contains("\\("), "\(command) --help: \(help)")
    }

    @Test("The commands that take --variant print its help text", arguments: ["live", "seek"])
    func variantHelp(_ command: String) {
        #expect(frameseek([command, "--help"]).stdout.text.contains(CommandOption.rows([.variant])))
    }

    @Test("frameseek --help: every summary starts in one column, past the longest name")
    func summariesAligned() {
        let rows = Self.commandRows
        #expect(rows.count == CommandLineTool.commands.count)
        // Where each summary starts: past the indent, the name and the spaces after it.
        let columns = rows.map { row -> Int in
            let name = row.dropFirst(2).prefix { $0 != " " }
            let gap = row.dropFirst(2 + name.count).prefix { $0 == " " }
            #expect(gap.count >= 2, "no gap after \(name): \(row)")
            return 2 + name.count + gap.count
        }
        #expect(Set(columns).count == 1, "summary columns \(columns):\n\(rows.joined(separator: "\n"))")
    }
}
