// The command line's contract at its corners: targets files (CRLF, blank lines, empty),
// one-output --png patterns, extra positionals, --stream with steps, infinite tolerances,
// files that are not regular files, stated limits, bench n and time suffixes. Landings are
// checked against ffprobe's frame table, never against FrameSeek's own output.

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Command-line contract", .ffmpegLog)
struct CLIContractTests {
    static let good = FailingInvocation.good

    /// Writes `text` into a fresh folder and returns the file's path (and the folder, to remove).
    static func file(_ text: String, named name: String) throws -> (path: String, directory: URL) {
        let directory = try temporaryDirectory("contract")
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (path, directory)
    }

    @Test(
        "Targets files with CRLF or CR line ends and blank lines land as the LF file does",
        arguments: ["\r\n", "\r", "\n"])
    func targetsLineEnds(_ end: String) throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_vfr.s0"))
        let oracle = try Oracle(fixture)
        let indices = [3, 40, 17]
        let text = end + indices.map { oracle.middleText($0) + " # frame" }.joined(separator: end + end + "  " + end) + end
        let (path, directory) = try Self.file(text, named: "targets.txt")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Matroska: frame numbers need the whole table, not a seek window.
        let lines = jsonLines(["seek", fixture.path, "--targets", path, "--json", "--index", "full"])
        #expect(lines.compactMap { JSON.int($0["frame_index"]) } == indices)
    }

    @Test(
        "A targets file with no time is an error naming it, for seek and bench",
        arguments: ["", "\n\n", "\r\n  \r\n", "# only a comment\n"], ["seek", "bench"])
    func emptyTargets(_ text: String, _ command: String) throws {
        let (path, directory) = try Self.file(text, named: "empty.txt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let line = CLIErrorTests.checkFails(
            FailingInvocation(
                label: "empty targets", arguments: [command, Self.good, "--targets", path],
                mustContain: ["no targets in \(path)"]))
        #expect(!line.contains("nan"))
    }

    @Test("A bad line of a CRLF targets file is one error line naming the file and the line")
    func badTargetLine() throws {
        let (path, directory) = try Self.file("1\r\nabc\r\n2\r\n", named: "bad.txt")
        defer { try? FileManager.default.removeItem(at: directory) }
        CLIErrorTests.checkFails(
            FailingInvocation(
                label: "bad line", arguments: ["seek", Self.good, "--targets", path],
                mustContain: ["\(path):2:", "abc"]))
    }

    @Test("--png with one output expands a pattern, numbered from 1", arguments: ["seek", "step"])
    func onePNGPattern(_ command: String) throws {
        let directory = try temporaryDirectory("png-one")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pattern = directory.appendingPathComponent("o-%03d.png").path
        let arguments =
            command == "seek"
            ? ["seek", Self.good, "1", "--png", pattern]
            : ["step", Self.good, "--at", "1", "--forward", "--png", pattern]
        let result = frameseek(arguments)
        #expect(result.code == .success, "\(result.stderr.text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["o-001.png"])
    }

    @Test("seek --help documents one-output patterns and the time suffix")
    func seekHelp() {
        let help = frameseek(["seek", "--help"]).stdout.text
        #expect(help.contains("numbered from 1") && help.contains("92.5s"))
    }

    static let extraPositionals: [[String]] = [
        ["probe", good, "b.webm"], ["frames", good, "x"], ["thumbnails", good, "5", "--out", "/tmp/never-written"],
        ["step", good, "1", "--at", "1", "--forward"]
    ]

    @Test("Extra positional arguments are refused with exit 2 and one line", arguments: extraPositionals)
    func extraPositional(_ arguments: [String]) {
        CLIErrorTests.checkFails(FailingInvocation(label: arguments[0], arguments: arguments, mustContain: ["unexpected argument"]))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written"))
    }

    @Test("step --stream N on each video stream of a multi-stream file steps on ffprobe's frames", arguments: [0, 3])
    func stepOnStream(_ stream: Int) throws {
        let fixture = try #require(FixtureCatalog.all.first { $0.file.hasSuffix("nasa_13013.mp4") && $0.stream == stream })
        let oracle = try Oracle(fixture)
        let lines = jsonLines([
            "step", fixture.path, "--stream", String(stream), "--at", oracle.middleText(10),
            "--forward", "--count", "2", "--repeat", "2", "--json"
        ])
        #expect(lines.map { JSON.string($0["result"]) } == ["stepped", "stepped"])
        #expect(lines.compactMap { JSON.int($0["frame_index"]) } == [12, 14])
        #expect(lines.compactMap { JSON.int64($0["landed_pts"]) } == [oracle.frames[12].pts, oracle.frames[14].pts])
    }

    @Test("step --stream on an audio stream of a file with video names the stream, not 'no video'")
    func stepOnAudioStream() {
        let nasa = Repository.fixture("media/nasa_13013.mp4")
        let line = CLIErrorTests.checkFails(
            FailingInvocation(
                label: "audio stream", arguments: ["step", nasa, "--stream", "1", "--at", "1", "--forward"],
                mustContain: [nasa, "stream 1 is audio"]))
        #expect(!line.contains("no video stream"))
    }

    @Test(
        "tolerance:inf,0 lands where previous-keyframe lands; inf is accepted in every tolerance",
        arguments: [
            ("tolerance:inf,0", "previous-keyframe"), ("tolerance:0,inf", "next-keyframe"),
            ("tolerance:INF,infinity", "tolerance:inf,inf")
        ])
    func infiniteTolerance(_ spelled: String, _ reference: String) throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let oracle = try Oracle(fixture)
        let target = oracle.middleText(100)
        let landed = jsonLines(["seek", fixture.path, target, "--precision", spelled, "--json"]).first
        // Independent truth: the keyframes of ffprobe's table (0 and 250).
        let expected = spelled.hasPrefix("tolerance:0") ? 250 : 0
        #expect(JSON.int(landed?["frame_index"]) == expected)
        #expect(JSON.int(jsonLines(["seek", fixture.path, target, "--precision", reference, "--json"]).first?["frame_index"]) == expected)
    }

    @Test("A FIFO, a device and a symlink loop are named for what they are", arguments: ["probe", "seek"])
    func specialFiles(_ command: String) throws {
        let directory = try temporaryDirectory("special")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.mp4").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let loop = directory.appendingPathComponent("loop.mp4").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        for (path, cause) in [
            (fifo, "is a FIFO, not a media file"), ("/dev/zero", "is a device, not a media file"),
            (loop, "symbolic link loop")
        ] {
            let arguments = command == "seek" ? ["seek", path, "1"] : ["probe", path]
            CLIErrorTests.checkFails(FailingInvocation(label: path, arguments: arguments, mustContain: [path + ": " + cause]))
        }
    }

    @Test("--size beyond the limit states the limit, and --help states it too")
    func sizeLimit() {
        CLIErrorTests.checkFails(
            FailingInvocation(
                label: "size", arguments: ["thumbnails", Self.good, "--out", "/tmp/x", "--size", "100000x100000"],
                mustContain: ["at most 8192x8192"]))
        #expect(frameseek(["thumbnails", "--help"]).stdout.text.contains("8192x8192"))
    }

    @Test("bench n counts measured operations only", arguments: ["backstep", "random", "sequential"])
    func benchCount(_ workload: String) throws {
        let object = try #require(jsonLines(["bench", Self.good, "-n", "5", "--workload", workload, "--json"]).first)
        #expect(JSON.int(object["n"]) == 5)
        #expect((object["samples"] as? [Any])?.count == 5)
    }

    @Test(
        "Times may end in s, documented in every command that takes a time",
        arguments: ["seek", "step", "thumbnails", "bench"])
    func secondsSuffix(_ command: String) throws {
        let help = frameseek([command, "--help"]).stdout.text
        #expect(help.contains("92.5s") || help.contains("10s"), "\(command) --help: \(help)")
        if command == "seek" {
            let fixture = try #require(FixtureCatalog.fixture("h264_vfr.s0"))
            let oracle = try Oracle(fixture)
            let landed = jsonLines(["seek", fixture.path, "2.5s", "--json", "--index", "full"]).first
            #expect(JSON.int(landed?["frame_index"]) == oracle.covering(MediaTime(value: 5, timescale: 2)))
        }
    }

    @Test("--report to an unwritable path fails before the bench runs, one line naming it")
    func unwritableReport() throws {
        let report = FailingInvocation.good + "/report.html"  // a file is no folder
        let started = ContinuousClock.now
        let line = CLIErrorTests.checkFails(
            FailingInvocation(
                label: "report", arguments: ["bench", Self.good, "-n", "50", "--report", report],
                mustContain: [report, "not a directory"]))
        #expect(!line.contains("NSCocoaErrorDomain"))
        #expect(ContinuousClock.now - started < .seconds(2), "it ran the bench first")
    }
}

extension JSON {
    /// A JSON string.
    static func string(_ value: Any?) -> String? { value as? String }
}
