// An in-process runner for the command line, and the oracle's times written the way the
// command line reads and prints them. The fixture manifest and the ffprobe / framemd5
// oracles are in FrameSeekTestSupport, shared with the engine tests. Targets are handed to
// the CLI as exact rationals ("value/timescale").

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport

/// What one in-process run of the command line produced.
struct RunResult {
    let code: CommandLineTool.ExitCode
    let stdout: CapturedOutput
    let stderr: CapturedOutput
    var out: [String] { stdout.lines }
    var err: [String] { stderr.lines }
}

func frameseek(_ arguments: [String]) -> RunResult {
    let output = CapturedOutput(), errors = CapturedOutput()
    let code = CommandLineTool.run(arguments, output: output, errors: errors)
    return RunResult(code: code, stdout: output, stderr: errors)
}

/// `frameseek ARGUMENTS` in-process `count` times, on `lanes` threads at once (`inLanes`):
/// for runs that mostly wait on a server.
func frameseekInLanes(_ count: Int, lanes: Int, _ arguments: [String]) -> [RunResult] {
    inLanes(count, lanes: lanes) { _ in
        let run = frameseek(arguments)
        return (run.code, run.stdout.text, run.stderr.text)
    }
    .map { code, out, err in
        let output = CapturedOutput(), errors = CapturedOutput()
        output.write(out)
        errors.write(err)
        return RunResult(code: code, stdout: output, stderr: errors)
    }
}

/// `frameseek ARGUMENTS` as a process of its own, bounded in time, with its index cache in
/// `cache`: its entries neither come from nor go to the folder the in-process runs share.
func frameseekProcess(_ arguments: [String], indexCacheIn cache: String, bound: Duration) throws -> BoundedRun {
    try runBounded(["/usr/bin/env", "XDG_CACHE_HOME=\(cache)", Repository.builtExecutable("frameseek")] + arguments, bound: bound)
}

extension MediaTime {
    /// The exact rational as the CLI parses it, "value/timescale".
    var rationalText: String { "\(value)/\(timescale)" }
    /// Seconds, for comparing with the JSON's display seconds.
    var displaySeconds: Double { Double(value) / Double(timescale) }
}

extension Oracle {
    /// Frame `i`'s time in seconds, for comparing with the JSON's display seconds.
    func seconds(_ i: Int) -> Double { time(i).displaySeconds }
    /// The middle of frame `i`'s interval as an exact rational the CLI parses.
    func middleText(_ i: Int) -> String { middle(i).rationalText }
    func middleSeconds(_ i: Int) -> Double { middle(i).displaySeconds }
}

/// `source` stream-copied by ffmpeg (`options` before the output) into `name`, in a folder of
/// its own inside `directory` (`name.d`), so that a range server of its own serves only it.
func streamCopy(_ source: String, to name: String, in directory: URL, _ options: [String]) throws -> (folder: URL, path: String) {
    let folder = directory.appendingPathComponent(name + ".d")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try runTool(["ffmpeg", "-v", "error", "-y", "-i", source, "-c", "copy"] + options + [path])
    return (folder, path)
}
