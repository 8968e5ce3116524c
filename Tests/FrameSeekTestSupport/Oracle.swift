// The independent oracles: ffprobe's frame table and ffmpeg's framemd5 for one (file, stream).
//
// Everything the tests expect comes from files ffprobe / ffmpeg wrote (Fixtures/oracle/) or
// from the barcode the synthetic fixtures carry in their pictures, never from FrameSeek's own
// output. Times are built from the oracle's integer PTS and the stream time base of
// probe.json, so every expectation is an exact rational.

import Foundation
import FrameSeekCore

/// One frame as ffprobe reports it.
public struct OracleFrame: Sendable {
    public let pts: Int64
    public let isKey: Bool
    public let packetDuration: Int64?
    /// The byte offset of the frame's packet, nil where ffprobe printed none.
    public let packetPosition: Int64?
    public let width: Int?
    public let height: Int?
}

/// The fields of `ffprobe -show_frames -of json` the oracle reads, keys converted from
/// snake_case. ffprobe prints the packet position as a string.
private struct ProbedFrames: Decodable {
    struct ProbedFrame: Decodable {
        let pts: Int64?
        let keyFrame: Int?
        let pktDuration: Int64?
        let pktPos: String?
        let width: Int?
        let height: Int?
    }
    let frames: [ProbedFrame]
}

/// ffprobe's view of one (file, stream): time base, time zero, frames in presentation order,
/// and the per-frame MD5s of `ffmpeg -f framemd5`.
public struct Oracle: Sendable {
    public let fixture: Fixture
    /// probe.json's `time_base`, as printed ("1/30000").
    public let timeBaseText: String
    public let timeBaseNumerator: Int64
    public let timeBaseDenominator: Int64
    /// The format's start_time in the stream time base: the PTS of time zero.
    public let originPTS: Int64
    /// Sorted by PTS.
    public let frames: [OracleFrame]
    /// One MD5 per frame in presentation order (video only).
    public let md5s: [String]?

    public init(_ fixture: Fixture) throws {
        self.fixture = fixture
        let probe = try JSON.file(fixture.probe)
        let streams = probe["streams"] as? [[String: Any]] ?? []
        guard let stream = streams.first(where: { JSON.int($0["index"]) == fixture.stream }),
            let timeBase = stream["time_base"] as? String
        else {
            throw OracleError("\(fixture.probe): no stream \(fixture.stream)")
        }
        timeBaseText = timeBase
        let parts = timeBase.split(separator: "/").compactMap { Int64($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw OracleError("bad time_base \(timeBase)") }
        timeBaseNumerator = parts[0]
        timeBaseDenominator = parts[1]
        let format = probe["format"] as? [String: Any] ?? [:]
        let micros = Oracle.microseconds(format["start_time"] as? String ?? "0")
        originPTS = Oracle.rescaleMicroseconds(micros, numerator: parts[0], denominator: parts[1])

        let decoder = JSONDecoder()
        // ffprobe's snake_case fields become the camelCase names of ProbedFrame.
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let list = try decoder.decode(
            ProbedFrames.self,
            from: Repository.stableContents(of: Repository.fixture(fixture.frames))
        ).frames
        frames = list.compactMap { f -> OracleFrame? in
            guard let pts = f.pts else { return nil }
            return OracleFrame(
                pts: pts, isKey: f.keyFrame == 1, packetDuration: f.pktDuration,
                packetPosition: f.pktPos.flatMap { Int64($0) },
                width: f.width, height: f.height)
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
    public static func microseconds(_ text: String) -> Int64 {
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
    public static func rescaleMicroseconds(_ micros: Int64, numerator: Int64, denominator: Int64) -> Int64 {
        let n = Int128(micros) * Int128(denominator), d = Int128(1_000_000) * Int128(numerator)
        let magnitude = (2 * (n < 0 ? -n : n) + d) / (2 * d)
        return Int64(n < 0 ? -magnitude : magnitude)
    }

    public var count: Int { frames.count }
    public var lastIndex: Int { frames.count - 1 }
    public var keyframes: [Int] { frames.indices.filter { frames[$0].isKey } }

    /// `ticks` stream ticks after time zero, exactly.
    public func time(ticks: Int64) -> MediaTime {
        MediaTime(value: ticks * timeBaseNumerator, timescale: Int32(timeBaseDenominator))
    }
    /// Frame `i`'s time on the zero-based timeline.
    public func time(_ i: Int) -> MediaTime { time(ticks: frames[i].pts - originPTS) }
    /// One tick of the stream time base before frame `i`.
    public func tickBefore(_ i: Int) -> MediaTime { time(ticks: frames[i].pts - originPTS - 1) }
    /// Ticks from frame `i` to the next one; for the last frame its packet duration (else the
    /// median gap), as the landing rules define the last frame's interval.
    public func span(_ i: Int) -> Int64 {
        if i + 1 < frames.count { return frames[i + 1].pts - frames[i].pts }
        if let d = frames[i].packetDuration, d > 0 { return d }
        let gaps = (0..<max(0, frames.count - 1)).map { frames[$0 + 1].pts - frames[$0].pts }.sorted()
        return gaps.isEmpty ? 1 : gaps[gaps.count / 2]
    }
    /// The end of frame `i`'s interval `[time_i, time_{i+1})`.
    public func end(_ i: Int) -> MediaTime { time(ticks: frames[i].pts - originPTS + span(i)) }
    /// The exact middle of frame `i`'s interval (half ticks allowed: timescale 2 * den).
    public func middle(_ i: Int) -> MediaTime {
        MediaTime(
            value: (2 * (frames[i].pts - originPTS) + span(i)) * timeBaseNumerator,
            timescale: Int32(2 * timeBaseDenominator))
    }
    /// The exact midpoint between frames `a` and `b`.
    public func midpoint(_ a: Int, _ b: Int) -> MediaTime {
        MediaTime(
            value: (frames[a].pts + frames[b].pts - 2 * originPTS) * timeBaseNumerator,
            timescale: Int32(2 * timeBaseDenominator))
    }

    /// The frame whose interval covers `t`: the last one starting at or before it.
    public func covering(_ t: MediaTime) -> Int? {
        var found: Int?
        for i in frames.indices where time(i) <= t { found = i }
        return found
    }

    /// The landing the design's rules give, computed here from ffprobe's table alone.
    /// `before` / `after` nil means an unbounded side of the window.
    public func expectedLanding(at requested: MediaTime, before: MediaTime?, after: MediaTime?) -> Int {
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
    public func intersects(_ i: Int, requested: MediaTime, before: MediaTime?, after: MediaTime?) -> Bool {
        let startOK = after.map { time(i) <= requested + $0 } ?? true
        let endOK = before.map { end(i) > requested - $0 } ?? true
        return startOK && endOK
    }
}

public struct OracleError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension SeededGenerator {
    /// Seeded from a string (FNV-1a), stable across processes unlike `Hasher`, so a test's
    /// "random" choices follow from its name.
    package init(_ text: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        self.init(seed: hash)
    }
}

extension Oracle {
    /// Frames an exact-seek test visits: first, last, every keyframe and its neighbours, and
    /// seeded-random others up to `minimum` (every frame when there are fewer).
    package func seekSample(minimum: Int = 24, using generator: inout SeededGenerator) -> [Int] {
        if count <= minimum { return Array(frames.indices) }
        var chosen: Set<Int> = [0, lastIndex]
        for k in keyframes { chosen.formUnion([k - 1, k, k + 1].filter { frames.indices.contains($0) }) }
        while chosen.count < minimum { chosen.insert(Int.random(in: 0..<count, using: &generator)) }
        return chosen.sorted()
    }
}
