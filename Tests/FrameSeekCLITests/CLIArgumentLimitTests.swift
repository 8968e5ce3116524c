// No argument value, however large, traps or aborts: every numeric option of every command
// gets 0, -1, 2^31, 2^63-1 and 10^30, and each run ends in exit 0 or in exit 2 with one
// stderr line. Output paths are checked before any decoding.

import Foundation
@testable import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// One numeric option of one command, with the arguments that make the rest of the run valid.
struct NumericOption: Sendable, CustomTestStringConvertible {
    let command: [String]
    let option: String?
    /// Builds the option's words from a value (`--size` takes `VxV`).
    let spell: @Sendable (String) -> [String]
    var testDescription: String { "\(command[0]) \(option ?? "TIME")" }

    static let file = Repository.fixture("media/h264_vfr.mkv")
    /// Stands for a fresh output folder, made per run: runs go in parallel.
    static let out = "OUT"

    static func plain(_ command: [String], _ option: String) -> NumericOption {
        NumericOption(command: command, option: option, spell: { [option, $0] })
    }

    static let all: [NumericOption] = {
        let probe = ["probe", file], frames = ["frames", file], seek = ["seek", file, "1"]
        let step = ["step", file, "--at", "1", "--forward"]
        let thumbnails = ["thumbnails", file, "--out", out, "--count", "2"]
        let thumbnailsEvery = ["thumbnails", file, "--out", out]
        let bench = ["bench", file, "-n", "2"]
        var list: [NumericOption] = []
        for command in [probe, frames, seek, step, bench] {
            for option in ["--stream", "--threads"] { list.append(plain(command, option)) }
        }
        list.append(NumericOption(command: ["seek", file], option: nil, spell: { [$0] }))
        for option in ["--sample", "--every"] { list.append(plain(["seek", file], option)) }
        list.append(plain(seek, "--pool-mb"))
        list.append(NumericOption(command: ["step", file, "--forward"], option: "--at", spell: { ["--at", $0] }))
        for option in ["--count", "--repeat", "--cache-mb"] { list.append(plain(step, option)) }
        list.append(plain(thumbnailsEvery, "--count"))
        list.append(plain(thumbnailsEvery, "--every"))
        for option in ["--stream", "--threads"] { list.append(plain(thumbnails, option)) }
        list.append(NumericOption(command: thumbnails, option: "--size", spell: { ["--size", "\($0)x\($0)"] }))
        list.append(NumericOption(command: thumbnails, option: "--size (width)", spell: { ["--size", "\($0)x90"] }))
        list.append(NumericOption(command: thumbnails, option: "--columns", spell: { ["--columns", $0, "--rows", "1"] }))
        list.append(NumericOption(command: thumbnails, option: "--rows", spell: { ["--columns", "1", "--rows", $0] }))
        list.append(NumericOption(command: thumbnails, option: "--columns --rows", spell: { ["--columns", $0, "--rows", $0] }))
        list.append(NumericOption(command: ["bench", file], option: "-n", spell: { ["-n", $0] }))
        for option in ["--seed", "--cache-mb"] { list.append(plain(bench, option)) }
        list.append(NumericOption(command: ["bench", file, "--workload", "backstep"], option: "-n (backstep)", spell: { ["-n", $0] }))
        return list
    }()
}

@Suite("Command line: argument values never trap", .ffmpegLog)
struct CLIArgumentLimitTests {
    static let values = ["0", "-1", "2147483648", "9223372036854775807", "1000000000000000000000000000000"]

    @Test(
        "Each numeric option with 0, -1, 2^31, 2^63-1 and 10^30: exit 0, or exit 2 with one line",
        arguments: NumericOption.all, values)
    func numericValue(_ option: NumericOption, _ value: String) throws {
        let directory = try temporaryDirectory("limits")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        // A value that would run for hours is not a trap, but no test can wait for it: the
        // values above are refused, or finish at once on this short file.
        let arguments = (option.command + option.spell(value)).map { $0 == NumericOption.out ? out : $0 }
        let result = frameseek(arguments)
        let context = "frameseek \(arguments.joined(separator: " "))"
        #expect(result.code == .success || result.code == .usageOrInput, "\(context): exit \(result.code.rawValue)")
        if result.code == .usageOrInput {
            #expect(
                result.err.count == 1 && result.stderr.text.filter { $0 == "\n" }.count == 1,
                "\(context): stderr \(result.stderr.text)")
        }
    }

    @Test(
        "Unwritable outputs are refused before decoding, and nothing is written",
        arguments: [
            ["seek", NumericOption.file, "1", "--png"], ["step", NumericOption.file, "--at", "1", "--forward", "--png"],
            ["bench", NumericOption.file, "-n", "2", "--report"], ["thumbnails", NumericOption.file, "--out"]
        ])
    func unwritableOutput(_ command: [String]) throws {
        // A regular file as a folder: no permission bits involved, so it holds under root too.
        let directory = try temporaryDirectory("unwritable")
        defer { try? FileManager.default.removeItem(at: directory) }
        let blocker = directory.appendingPathComponent("file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let target = blocker + "/sub/out-%02d.png"
        CLIErrorTests.checkFails(FailingInvocation(label: command[0], arguments: command + [target], mustContain: [blocker]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["file"])
    }

    @Test("seek and step PNGs leave no temporary file, and replace an earlier file whole")
    func pngAtomic() throws {
        let directory = try temporaryDirectory("png-atomic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("frame.png").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        #expect(frameseek(["seek", NumericOption.file, "1", "--png", path]).code == .success)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["frame.png"])
        #expect(try pngDimensions(path).width > 0)
    }

    @Test(
        "thumbnails: limits refused before decoding, with nothing written",
        arguments: [
            ["--every", "0.0005"], ["--count", "100001"], ["--count", "1000", "--columns", "1000", "--rows", "1000"],
            ["--columns", "1000000000", "--rows", "1000000000", "--count", "200"]
        ])
    func thumbnailLimits(_ extra: [String]) throws {
        let directory = try temporaryDirectory("limits")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let line = CLIErrorTests.checkFails(
            FailingInvocation(
                label: extra.joined(separator: " "),
                arguments: ["thumbnails", Repository.fixture("media/h264_bframes_gop250.mp4"), "--out", out] + extra,
                mustContain: []))
        #expect(line.contains("100000") || line.contains("16384") || line.contains("0.001"), "\(line)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("thumbnails --every beyond 100000 pictures is refused, not cut short")
    func everyBeyondLimit() {
        let range = MediaTime.zero..<MediaTime(value: 200, timescale: 1)
        #expect(ThumbnailsCommand.spaced(MediaTime(value: 1, timescale: 1000), over: range, limit: 100_000) == nil)
        #expect(ThumbnailsCommand.spaced(MediaTime(value: 1, timescale: 100), over: range, limit: 100_000)?.count == 20_000)
        // A step so large that the sum saturates still ends the list.
        #expect(ThumbnailsCommand.spaced(MediaTime(value: .max, timescale: 1), over: range, limit: 100_000)?.count == 1)
    }
}
