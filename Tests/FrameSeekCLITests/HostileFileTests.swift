// The hostile-file suite: every fixture truncated at several points, with bytes flipped in its
// header and in its media data, and with its first 4 KB zeroed. Each command either ends in a
// typed error (exit 2, one stderr line naming the file) or in a result, within a time bound,
// and a result that is not flagged `damaged` must be what FFmpeg's own decode of the same
// damaged file gives: the frame at that time, with that MD5 (`ffmpeg -f framemd5`).

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// One way of damaging a file.
enum Damage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case truncatedAtQuarter, truncatedAtHalf, truncatedAt90Percent
    case headerFlipped, mediaFlipped, first4KZeroed

    var testDescription: String { rawValue }

    /// `bytes` damaged this way. Flips are seeded by the file's name, so every run and every
    /// machine damages the same bytes.
    func apply(to bytes: [UInt8], seed: String) -> [UInt8] {
        var generator = SeededGenerator(seed + rawValue)
        var out = bytes
        switch self {
        case .truncatedAtQuarter: return Array(bytes.prefix(bytes.count / 4))
        case .truncatedAtHalf: return Array(bytes.prefix(bytes.count / 2))
        case .truncatedAt90Percent: return Array(bytes.prefix(bytes.count * 9 / 10))
        case .headerFlipped:
            // 32 bytes in the first 1 KB, past the first 16 (which name the format).
            let end = min(1024, bytes.count)
            guard end > 16 else { return out }
            for _ in 0..<32 { out[Int.random(in: 16..<end, using: &generator)] ^= 0xFF }
        case .mediaFlipped:
            // 256 bytes in the middle fifth, where media data sits in every fixture.
            let range = (bytes.count * 2 / 5)..<max(bytes.count * 3 / 5, bytes.count * 2 / 5 + 1)
            for _ in 0..<256 { out[Int.random(in: range, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator) }
        case .first4KZeroed:
            for i in 0..<min(4096, bytes.count) { out[i] = 0 }
        }
        return out
    }
}

/// A damaged copy of a fixture, written once per process.
struct HostileFile: Sendable {
    let path: String

    private static let directory: URL = {
        let url = testScratchPath("hostile")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    init(_ fixture: Fixture, _ damage: Damage) throws {
        let source = URL(fileURLWithPath: fixture.path)
        let url = Self.directory.appendingPathComponent("\(damage.rawValue)-\(source.lastPathComponent)")
        if !FileManager.default.fileExists(atPath: url.path) {
            let bytes = [UInt8](try Data(contentsOf: source))
            try Data(damage.apply(to: bytes, seed: source.lastPathComponent)).write(to: url, options: .atomic)
        }
        path = url.path
    }
}

/// FFmpeg's own decode of a file: frame times (exact, zero-based) and MD5s from
/// `ffmpeg -threads 1 -f framemd5`, as the fixture oracles are made. One decoder thread,
/// because on damaged input FFmpeg's concealment differs between thread counts. Nil when ffmpeg cannot decode the
/// stream at all.
func ffmpegFrameMD5s(_ path: String, stream: Int) throws -> [MediaTime: String]? {
    let text = try runTool(
        [
            "ffmpeg", "-nostdin", "-v", "quiet", "-threads", "1", "-noautorotate", "-i", path, "-map", "0:\(stream)",
            "-fps_mode", "passthrough", "-enc_time_base:v", "-1", "-fflags", "+bitexact", "-f", "framemd5", "-"
        ],
        requiringSuccess: false)
    var timeBase: TimeBase?
    var frames: [MediaTime: String] = [:]
    for line in text.split(separator: "\n") {
        if line.hasPrefix("#tb 0:") {
            let parts = line.dropFirst("#tb 0:".count).trimmingCharacters(in: .whitespaces).split(separator: "/")
            if parts.count == 2, let n = Int32(parts[0]), let d = Int32(parts[1]) { timeBase = TimeBase(numerator: n, denominator: d) }
            continue
        }
        guard !line.hasPrefix("#"), let timeBase else { continue }
        let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count >= 6, let pts = Int64(fields[2]) else { continue }
        frames[timeBase.time(ofTicks: pts)] = fields[5]
    }
    return frames.isEmpty ? nil : frames
}

@Suite("Hostile files: damaged copies of every fixture", .ffmpegLog)
struct HostileFileTests {
    /// Every media file once (a file with two oracle streams is damaged once).
    static let files: [Fixture] = {
        var seen = Set<String>()
        return FixtureCatalog.all.filter { seen.insert($0.file).inserted }
    }()

    static let bound: Duration = .seconds(60)

    /// Runs one command, checking the contract: exit 0, or exit 2 with one stderr line that
    /// names the file; never past the time bound.
    private func run(_ arguments: [String], on file: HostileFile, _ context: String) -> RunResult {
        let clock = ContinuousClock()
        let start = clock.now
        let result = frameseek(arguments)
        let took = clock.now - start
        #expect(took < Self.bound, "\(context): \(arguments.joined(separator: " ")) took \(took)")
        #expect(
            result.code == .success || result.code == .usageOrInput,
            "\(context): \(arguments.first ?? "") exited \(result.code): \(result.err)")
        if result.code != .success {
            #expect(
                result.err.count == 1 && result.err.first?.contains(file.path) == true,
                "\(context): \(arguments.first ?? "") must fail with one line naming the file: \(result.err)")
        }
        return result
    }

    private static func json(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// The landings an output reports as undamaged, with their exact times and MD5s.
    private static func undamagedLandings(_ result: RunResult) -> [(time: MediaTime, md5: String, line: String)] {
        guard result.code == .success else { return [] }
        return result.out.compactMap { line in
            guard let object = json(line), (object["damaged"] as? Bool) != true,
                let rational = object["landed_rational"] as? String, let md5 = object["md5"] as? String,
                let time = try? MediaTime(parsing: rational)
            else { return nil }
            return (time, md5, line)
        }
    }

    @Test(
        "Each command ends in a typed error or a result; unflagged landings match FFmpeg's decode of the damaged file",
        arguments: files, Damage.allCases)
    func hostile(_ fixture: Fixture, _ damage: Damage) throws {
        let file = try HostileFile(fixture, damage)
        let context = "\(fixture.name) \(damage.rawValue)"
        let probe = run(["probe", file.path, "--json"], on: file, context)
        _ = run(["frames", file.path, "--json"], on: file, context)
        guard probe.code == .success, let info = probe.out.first.flatMap(Self.json),
            let duration = info["duration"] as? Double, let stream = info["stream_index"] as? Int
        else { return }
        let isVideo = (info["streams"] as? [[String: Any]])?.first { ($0["index"] as? Int) == stream }?["type"] as? String == "video"
        let targets = [0.25, 0.5, 0.75].map { String(format: "%.3f", duration * $0) }

        var landings = Self.undamagedLandings(run(["seek", file.path] + targets + ["--json", "--md5"], on: file, context))
        landings += Self.undamagedLandings(
            run(
                ["step", file.path, "--at", targets[1], "--forward", "--repeat", "2", "--json", "--md5"],
                on: file, context))
        landings += Self.undamagedLandings(
            run(
                ["step", file.path, "--at", targets[1], "--backward", "--repeat", "2", "--json", "--md5"],
                on: file, context))
        if isVideo {
            let out = testScratchPath("hostile-thumbs-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: out) }
            _ = run(["thumbnails", file.path, "--out", out.path, "--count", "2"], on: file, context)
            _ = run(["seek", file.path, targets[0], "--png", out.appendingPathComponent("landed.png").path], on: file, context)
        }
        guard isVideo, !landings.isEmpty else { return }
        let truth = try ffmpegFrameMD5s(file.path, stream: stream) ?? [:]
        let pictures = Set(truth.values)
        for landing in landings {
            if let expected = truth[landing.time] {
                #expect(
                    expected == landing.md5,
                    "\(context): an unflagged landing at \(landing.time) has MD5 \(landing.md5), FFmpeg's decode of the damaged file gives \(expected): \(landing.line)"
                )
            } else {
                // A damaged header can change how the ffmpeg command line times frames (a
                // broken VUI frame rate makes it regenerate timestamps), so where it has no frame
                // at this time, the picture must still be one FFmpeg's decode produced.
                #expect(
                    pictures.contains(landing.md5),
                    "\(context): an unflagged landing at \(landing.time) has MD5 \(landing.md5), a picture FFmpeg's decode of the damaged file never produces: \(landing.line)"
                )
            }
        }
    }
}
