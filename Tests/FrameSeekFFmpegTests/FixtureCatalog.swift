// Fixture manifest and independent oracles for the FFmpeg engine tests.
//
// Everything the tests expect comes from files ffprobe / ffmpeg wrote (Fixtures/oracle/) or
// from the barcode the synthetic fixtures carry in their pictures, never from FrameSeek's own
// output. Times are built from the oracle's integer PTS and the stream time base of
// probe.json, so every expectation is an exact rational.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import Testing

/// Paths inside the repository, found from this file's location.
enum Repository {
    /// The package root (this file is at Tests/FrameSeekFFmpegTests/FixtureCatalog.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Fixtures/`.
    static let fixtures = root.appendingPathComponent("Fixtures")

    /// The absolute path of `relative` inside `Fixtures/`.
    static func fixture(_ relative: String) -> String {
        fixtures.appendingPathComponent(relative).path
    }

    /// The contents of a fixture-side file. Another process may be regenerating the fixtures:
    /// a missing or empty file is re-checked for a while before giving up.
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

/// One entry of `Fixtures/fixtures.json`: a (file, stream) pair and where its oracles are.
struct Fixture: Sendable, Hashable, CustomTestStringConvertible {
    let id: String
    let name: String
    /// Relative to Fixtures/.
    let file: String
    let stream: Int
    let isVideo: Bool
    let hasBarcode: Bool
    let barcodeOffset: Int
    let probe: String
    let frames: String
    let framemd5: String?

    /// The media file's absolute path.
    var path: String { Repository.fixture(file) }
    var testDescription: String { id }
}

enum FixtureCatalog {
    /// Every manifest entry; empty if the manifest cannot be read (a test checks it is not).
    static let all: [Fixture] = (try? load()) ?? []
    static var video: [Fixture] { all.filter(\.isVideo) }
    static var audio: [Fixture] { all.filter { !$0.isVideo } }
    static var barcoded: [Fixture] { all.filter(\.hasBarcode) }

    static func fixture(_ id: String) -> Fixture? { all.first { $0.id == id } }

    static func load() throws -> [Fixture] {
        let data = try Repository.stableContents(of: Repository.fixture("fixtures.json"))
        guard let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return entries.compactMap { entry in
            guard let id = entry["id"] as? String, let file = entry["file"] as? String,
                  let oracle = entry["oracle"] as? [String: Any],
                  let probe = oracle["probe"] as? String, let frames = oracle["frames"] as? String else { return nil }
            return Fixture(id: id, name: entry["name"] as? String ?? id, file: file,
                           stream: JSON.int(entry["stream"]) ?? 0,
                           isVideo: entry["media_type"] as? String == "video",
                           hasBarcode: entry["barcode"] as? Bool ?? false,
                           barcodeOffset: JSON.int(entry["barcode_offset"]) ?? 0,
                           probe: probe, frames: frames, framemd5: oracle["framemd5"] as? String)
        }
    }
}

/// Reading numbers out of JSONSerialization results, which are NSNumbers on Linux.
enum JSON {
    static func int(_ value: Any?) -> Int? { (value as? NSNumber)?.intValue }
    static func int64(_ value: Any?) -> Int64? {
        if let number = value as? NSNumber { return number.int64Value }
        if let text = value as? String { return Int64(text) }
        return nil
    }
    static func object(_ path: String) throws -> [String: Any] {
        let data = try Repository.stableContents(of: Repository.fixture(path))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}

/// One frame as ffprobe reports it.
struct OracleFrame: Sendable {
    let pts: Int64
    let isKey: Bool
    let packetDuration: Int64?
    let width: Int?
    let height: Int?
}

/// ffprobe's view of one (file, stream): time base, time zero, frames in presentation order,
/// and the per-frame MD5s of `ffmpeg -f framemd5`.
struct Oracle: Sendable {
    let fixture: Fixture
    let timeBaseNumerator: Int64
    let timeBaseDenominator: Int64
    /// The format's start_time in the stream time base: the PTS of time zero.
    let originPTS: Int64
    /// Sorted by PTS.
    let frames: [OracleFrame]
    /// One MD5 per frame in presentation order (video only).
    let md5s: [String]?

    init(_ fixture: Fixture) throws {
        self.fixture = fixture
        let probe = try JSON.object(fixture.probe)
        let streams = probe["streams"] as? [[String: Any]] ?? []
        guard let stream = streams.first(where: { JSON.int($0["index"]) == fixture.stream }),
              let timeBase = stream["time_base"] as? String else {
            throw OracleError("\(fixture.probe): no stream \(fixture.stream)")
        }
        let parts = timeBase.split(separator: "/").compactMap { Int64($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw OracleError("bad time_base \(timeBase)") }
        timeBaseNumerator = parts[0]
        timeBaseDenominator = parts[1]
        let format = probe["format"] as? [String: Any] ?? [:]
        let micros = Oracle.microseconds(format["start_time"] as? String ?? "0")
        originPTS = Oracle.rescaleMicroseconds(micros, numerator: parts[0], denominator: parts[1])

        let list = try JSON.object(fixture.frames)["frames"] as? [[String: Any]] ?? []
        frames = list.compactMap { f -> OracleFrame? in
            guard let pts = JSON.int64(f["pts"]) else { return nil }
            return OracleFrame(pts: pts, isKey: JSON.int(f["key_frame"]) == 1,
                               packetDuration: JSON.int64(f["pkt_duration"]),
                               width: JSON.int(f["width"]), height: JSON.int(f["height"]))
        }.sorted { $0.pts < $1.pts }
        guard frames.count == list.count, !frames.isEmpty else {
            throw OracleError("\(fixture.frames): \(list.count) frames, \(frames.count) with a pts")
        }
        if let md5Path = fixture.framemd5 {
            let text = String(decoding: try Repository.stableContents(of: Repository.fixture(md5Path)), as: UTF8.self)
            md5s = text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap { line in
                line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
            }
        } else {
            md5s = nil
        }
    }

    /// "11.400000" as whole microseconds, without floating point.
    static func microseconds(_ text: String) -> Int64 {
        let negative = text.hasPrefix("-")
        let body = negative ? String(text.dropFirst()) : text
        let pieces = body.split(separator: ".", omittingEmptySubsequences: false)
        let whole = Int64(pieces.first ?? "0") ?? 0
        var fraction = pieces.count > 1 ? String(pieces[1].prefix(6)) : ""
        while fraction.count < 6 { fraction += "0" }
        let value = whole * 1_000_000 + (Int64(fraction) ?? 0)
        return negative ? -value : value
    }

    /// av_rescale_q(micros, 1/1000000, num/den) with rounding to nearest, ties away from zero.
    static func rescaleMicroseconds(_ micros: Int64, numerator: Int64, denominator: Int64) -> Int64 {
        let n = Int128(micros) * Int128(denominator), d = Int128(1_000_000) * Int128(numerator)
        let magnitude = (2 * (n < 0 ? -n : n) + d) / (2 * d)
        return Int64(n < 0 ? -magnitude : magnitude)
    }

    var count: Int { frames.count }
    var lastIndex: Int { frames.count - 1 }
    var keyframes: [Int] { frames.indices.filter { frames[$0].isKey } }

    /// `ticks` stream ticks after time zero, exactly.
    func time(ticks: Int64) -> MediaTime {
        MediaTime(value: ticks * timeBaseNumerator, timescale: Int32(timeBaseDenominator))
    }
    /// Frame `i`'s time on the zero-based timeline.
    func time(_ i: Int) -> MediaTime { time(ticks: frames[i].pts - originPTS) }
    /// One tick of the stream time base before frame `i`.
    func tickBefore(_ i: Int) -> MediaTime { time(ticks: frames[i].pts - originPTS - 1) }
    /// Ticks from frame `i` to the next one; for the last frame its packet duration (else the
    /// median gap), as the landing rules define the last frame's interval.
    func span(_ i: Int) -> Int64 {
        if i + 1 < frames.count { return frames[i + 1].pts - frames[i].pts }
        if let d = frames[i].packetDuration, d > 0 { return d }
        let gaps = (0..<max(0, frames.count - 1)).map { frames[$0 + 1].pts - frames[$0].pts }.sorted()
        return gaps.isEmpty ? 1 : gaps[gaps.count / 2]
    }
    /// The end of frame `i`'s interval `[time_i, time_{i+1})`.
    func end(_ i: Int) -> MediaTime { time(ticks: frames[i].pts - originPTS + span(i)) }
    /// The exact middle of frame `i`'s interval (half ticks allowed: timescale 2 * den).
    func middle(_ i: Int) -> MediaTime {
        MediaTime(value: (2 * (frames[i].pts - originPTS) + span(i)) * timeBaseNumerator,
                  timescale: Int32(2 * timeBaseDenominator))
    }
    /// The exact midpoint between frames `a` and `b`.
    func midpoint(_ a: Int, _ b: Int) -> MediaTime {
        MediaTime(value: (frames[a].pts + frames[b].pts - 2 * originPTS) * timeBaseNumerator,
                  timescale: Int32(2 * timeBaseDenominator))
    }

    /// The frame whose interval covers `t`: the last one starting at or before it.
    func covering(_ t: MediaTime) -> Int? {
        var found: Int?
        for i in frames.indices where time(i) <= t { found = i }
        return found
    }

    /// The landing the design's rules give, computed here from ffprobe's table alone.
    /// `before` / `after` nil means an unbounded side of the window.
    func expectedLanding(at requested: MediaTime, before: MediaTime?, after: MediaTime?) -> Int {
        var target = requested
        if requested < time(0) { target = time(0) } else if requested >= end(lastIndex) { target = time(lastIndex) }
        let windowStart = before.map { target - $0 }
        let windowEnd = after.map { target + $0 }
        var best: Int?
        for k in keyframes {
            if let windowStart, time(k) < windowStart { continue }
            if let windowEnd, time(k) > windowEnd { continue }
            let distance = (time(k) - target).magnitude
            if let b = best, (time(b) - target).magnitude <= distance { continue }
            best = k
        }
        if let best { return best }
        guard let windowStart else { return 0 }
        return covering(windowStart) ?? 0
    }

    /// Whether frame `i`'s interval `[time_i, time_{i+1})` meets `[T - before, T + after]`.
    func intersects(_ i: Int, requested: MediaTime, before: MediaTime?, after: MediaTime?) -> Bool {
        let startOK = after.map { time(i) <= requested + $0 } ?? true
        let endOK = before.map { end(i) > requested - $0 } ?? true
        return startOK && endOK
    }
}

struct OracleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A small deterministic generator, so "random" frame choices are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    /// Seeded from a string (FNV-1a), stable across processes unlike `Hasher`.
    init(_ text: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = hash
    }
    mutating func next() -> UInt64 {  // SplitMix64
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

extension Oracle {
    /// Frames an exact-seek test visits: first, last, every keyframe and its neighbours, and
    /// seeded-random others up to `minimum` (every frame when there are fewer).
    func seekSample(minimum: Int = 24, using generator: inout SeededGenerator) -> [Int] {
        if count <= minimum { return Array(frames.indices) }
        var chosen: Set<Int> = [0, lastIndex]
        for k in keyframes { chosen.formUnion([k - 1, k, k + 1].filter { frames.indices.contains($0) }) }
        while chosen.count < minimum { chosen.insert(Int.random(in: 0..<count, using: &generator)) }
        return chosen.sorted()
    }
}

/// The frame number the synthetic fixtures draw in their top band: 16 blocks of 20x20 luma,
/// block b white when bit b is set. Read from the packed planes, sampled at (20b+10, 10).
func readBarcode(_ picture: DecodedPicture) -> Int {
    let wide = picture.bitsPerComponent > 8
    let threshold = wide ? 1 << (picture.bitsPerComponent - 1) : 128
    var number = 0
    for bit in 0..<16 {
        let x = 20 * bit + 10, y = 10
        let sample: Int
        if wide {
            let offset = (y * picture.width + x) * 2
            sample = Int(picture.bytes[offset]) | Int(picture.bytes[offset + 1]) << 8
        } else {
            sample = Int(picture.bytes[y * picture.width + x])
        }
        if sample >= threshold { number |= 1 << bit }
    }
    return number
}

/// Width and height from a PNG file's IHDR chunk, read byte by byte.
func pngDimensions(_ path: String) throws -> (width: Int, height: Int) {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    guard bytes.count >= 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
          String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR" else {
        throw OracleError("\(path): not a PNG with an IHDR chunk first")
    }
    func bigEndian(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return (bigEndian(16), bigEndian(20))
}

/// A fresh temporary directory for files a test writes.
func temporaryDirectory(_ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("frameseek-tests-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Opens the engine on a fixture's stream, one decoder thread.
func openEngine(_ fixture: Fixture) throws -> FFmpegEngine {
    try FFmpegEngine(path: fixture.path, options: .init(streamIndex: fixture.stream, threads: 1))
}
