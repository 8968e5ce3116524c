// `ffmpeg -f framemd5` output read by PTS: for oracles of files that are not in the manifest
// (the damaged inputs), where frames FFmpeg does not produce make line numbers meaningless.

import Foundation

/// The MD5 of each frame by its PTS (the framemd5 `pts` column), from a file relative to
/// `Fixtures/`.
public func framemd5ByPTS(_ relative: String) throws -> [Int64: String] {
    let text = String(decoding: try Repository.stableContents(of: Repository.fixture(relative)), as: UTF8.self)
    var md5s: [Int64: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
        let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 6, let pts = Int64(fields[2]) else { throw OracleError("\(relative): bad line \(line)") }
        md5s[pts] = fields[5]
    }
    return md5s
}

/// The MD5 column of a fixture's framemd5 oracle (`oracle/<file>.s<stream>.framemd5`), one per
/// frame in order: the audio oracles too, which the fixture manifest does not list.
public func framemd5Column(_ fixture: Fixture) throws -> [String] {
    let name = URL(fileURLWithPath: fixture.file).lastPathComponent
    let data = try Repository.stableContents(of: Repository.fixture("oracle/\(name).s\(fixture.stream).framemd5"))
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
        .filter { !$0.hasPrefix("#") }
        .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
}

/// Runs a tool found on PATH, or at the path `arguments[0]` names, to completion, in `directory`
/// if given and with `environment` in place of this process's if given, and returns its
/// standard output; throws when it exits with a failure, unless `requiringSuccess` is false
/// (ffmpeg decoding a damaged file prints the frames it could decode, then fails).
///
/// Its stderr goes to a file, never to the test run's output: a passing run prints the test
/// runner's lines only. The error a failure throws quotes stderr's last lines.
@discardableResult
package func runTool(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil, requiringSuccess: Bool = true
) throws -> String {
    let scratch = try TemporaryDirectory()
    let errorPath = scratch.file("stderr")
    guard FileManager.default.createFile(atPath: errorPath, contents: nil) else { throw OracleError("cannot create \(errorPath)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 || !requiringSuccess else {
        let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        let tail = errors.split(whereSeparator: \.isNewline).suffix(20).map { "\n" + $0 }.joined()
        throw OracleError("\(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)\(tail)")
    }
    return String(decoding: data, as: UTF8.self)
}

/// ffmpeg's own decode of the first video stream of `input`, one MD5 per frame in output
/// (presentation) order, as `ffmpeg -f framemd5` prints it: the independent truth where
/// frames are compared by position (HLS playlists, whose ffmpeg timestamps differ from the
/// playlist's timeline).
package func ffmpegVideoMD5s(_ input: String) throws -> [String] {
    try runTool([
        "ffmpeg", "-nostdin", "-v", "quiet", "-threads", "1", "-i", input, "-map", "0:v:0",
        "-fps_mode", "passthrough", "-f", "framemd5", "-"
    ])
    .split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
    .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
}

/// ffmpeg's own decode of the first video stream of `input`, one MD5 per frame sorted by PTS
/// in the stream's own time base (`-enc_time_base -1`, bit-exact): presentation order where
/// ffmpeg's output order is not (a playlist's segments, an MPD's).
package func ffmpegVideoMD5sByPTS(_ input: String) throws -> [String] {
    try runTool([
        "ffmpeg", "-nostdin", "-v", "error", "-threads", "1", "-i", input, "-map", "0:v:0",
        "-fps_mode", "passthrough", "-enc_time_base:v", "-1", "-fflags", "+bitexact", "-f", "framemd5", "-"
    ])
    .split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
    .compactMap { line -> (Int64, String)? in
        let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 6, let pts = Int64(fields[2]) else { return nil }
        return (pts, fields[5])
    }
    .sorted { $0.0 < $1.0 }.map(\.1)
}
