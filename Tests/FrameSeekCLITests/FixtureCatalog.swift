// Fixture manifest, ffprobe / framemd5 oracles and an in-process runner for the CLI tests.
//
// Expectations come from Fixtures/oracle/ (written by ffprobe and ffmpeg), never from
// FrameSeek's own output. Targets are handed to the CLI as exact rationals ("value/timescale").

import Foundation
import FrameSeekCLI
import Testing

enum Repository {
    /// The package root (this file is at Tests/FrameSeekCLITests/FixtureCatalog.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ relative: String) -> String {
        root.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
    }

    /// A fixture-side file; a missing or empty one is re-checked for a while, because the
    /// fixtures may be being regenerated.
    static func stableContents(of path: String) throws -> Data {
        var lastError: Error?
        for attempt in 0..<30 {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                if !data.isEmpty { return data }
            } catch { lastError = error }
            if attempt < 29 { Thread.sleep(forTimeInterval: 2) }
        }
        throw lastError ?? CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
    }
}

struct Fixture: Sendable, Hashable, CustomTestStringConvertible {
    let id: String
    let file: String
    let stream: Int
    let isVideo: Bool
    let probe: String
    let frames: String
    let framemd5: String?

    var path: String { Repository.fixture(file) }
    var testDescription: String { id }
}

enum FixtureCatalog {
    static let all: [Fixture] = (try? load()) ?? []
    static var video: [Fixture] { all.filter(\.isVideo) }

    static func fixture(_ id: String) -> Fixture? { all.first { $0.id == id } }

    static func load() throws -> [Fixture] {
        let data = try Repository.stableContents(of: Repository.fixture("fixtures.json"))
        guard let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return entries.compactMap { entry in
            guard let id = entry["id"] as? String, let file = entry["file"] as? String,
                  let oracle = entry["oracle"] as? [String: Any],
                  let probe = oracle["probe"] as? String, let frames = oracle["frames"] as? String else { return nil }
            return Fixture(id: id, file: file, stream: (entry["stream"] as? NSNumber)?.intValue ?? 0,
                           isVideo: entry["media_type"] as? String == "video",
                           probe: probe, frames: frames, framemd5: oracle["framemd5"] as? String)
        }
    }
}

enum JSON {
    static func int64(_ value: Any?) -> Int64? {
        if let number = value as? NSNumber { return number.int64Value }
        if let text = value as? String { return Int64(text) }
        return nil
    }
    static func int(_ value: Any?) -> Int? { int64(value).map { Int($0) } }
    static func double(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
    static func bool(_ value: Any?) -> Bool? { value as? Bool ?? (value as? NSNumber)?.boolValue }
    static func object(_ text: String) -> [String: Any]? {
        guard let data = text.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
    static func file(_ relative: String) throws -> [String: Any] {
        let data = try Repository.stableContents(of: Repository.fixture(relative))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}

/// ffprobe's table of one (file, stream), sorted by PTS, and ffmpeg's per-frame MD5s.
struct Oracle {
    let fixture: Fixture
    /// probe.json's `time_base`, as printed ("1/30000").
    let timeBaseText: String
    let numerator: Int64
    let denominator: Int64
    /// The format's start_time in the stream time base.
    let originPTS: Int64
    let pts: [Int64]
    let keys: [Bool]
    let packetDurations: [Int64?]
    let md5s: [String]?

    init(_ fixture: Fixture) throws {
        self.fixture = fixture
        let probe = try JSON.file(fixture.probe)
        guard let stream = (probe["streams"] as? [[String: Any]])?.first(where: { JSON.int($0["index"]) == fixture.stream }),
              let timeBase = stream["time_base"] as? String else {
            throw OracleError("\(fixture.probe): no stream \(fixture.stream)")
        }
        timeBaseText = timeBase
        let parts = timeBase.split(separator: "/").compactMap { Int64($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw OracleError("bad time_base \(timeBase)") }
        (numerator, denominator) = (parts[0], parts[1])
        // "0.256000" -> 256000 microseconds, then to stream ticks, rounding to nearest.
        let start = (probe["format"] as? [String: Any])?["start_time"] as? String ?? "0"
        let negative = start.hasPrefix("-")
        let pieces = (negative ? String(start.dropFirst()) : start).split(separator: ".", omittingEmptySubsequences: false)
        var fraction = pieces.count > 1 ? String(pieces[1].prefix(6)) : ""
        while fraction.count < 6 { fraction += "0" }
        let micros = (Int64(pieces.first ?? "0") ?? 0) * 1_000_000 + (Int64(fraction) ?? 0)
        let n = Int128(micros) * Int128(parts[1]), d = Int128(1_000_000) * Int128(parts[0])
        let magnitude = Int64((2 * n + d) / (2 * d))
        originPTS = negative ? -magnitude : magnitude

        let frames = (try JSON.file(fixture.frames)["frames"] as? [[String: Any]] ?? [])
            .compactMap { f -> (Int64, Bool, Int64?)? in
                guard let pts = JSON.int64(f["pts"]) else { return nil }
                return (pts, JSON.int(f["key_frame"]) == 1, JSON.int64(f["pkt_duration"]))
            }.sorted { $0.0 < $1.0 }
        guard !frames.isEmpty else { throw OracleError("\(fixture.frames): no frames") }
        pts = frames.map(\.0)
        keys = frames.map(\.1)
        packetDurations = frames.map(\.2)
        if let md5Path = fixture.framemd5 {
            let text = String(decoding: try Repository.stableContents(of: Repository.fixture(md5Path)), as: UTF8.self)
            md5s = text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
                .compactMap { $0.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) }
        } else {
            md5s = nil
        }
    }

    var count: Int { pts.count }
    var keyframes: [Int] { keys.indices.filter { keys[$0] } }

    /// Ticks to the next frame; the last frame's packet duration (else 1).
    func span(_ i: Int) -> Int64 {
        i + 1 < count ? pts[i + 1] - pts[i] : max(packetDurations[i] ?? 1, 1)
    }
    /// Frame `i`'s time in seconds, for comparing with the JSON's display seconds.
    func seconds(_ i: Int) -> Double { Double((pts[i] - originPTS) * numerator) / Double(denominator) }
    /// The middle of frame `i`'s interval as an exact rational the CLI parses.
    func middleText(_ i: Int) -> String {
        "\((2 * (pts[i] - originPTS) + span(i)) * numerator)/\(2 * denominator)"
    }
    func middleSeconds(_ i: Int) -> Double {
        Double((2 * (pts[i] - originPTS) + span(i)) * numerator) / Double(2 * denominator)
    }
}

struct OracleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

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

/// Width and height from a PNG's IHDR chunk.
func pngDimensions(_ path: String) throws -> (width: Int, height: Int) {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    guard bytes.count >= 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
          String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR" else {
        throw OracleError("\(path): not a PNG with an IHDR chunk first")
    }
    func bigEndian(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return (bigEndian(16), bigEndian(20))
}

func temporaryDirectory(_ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("frameseek-cli-tests-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
