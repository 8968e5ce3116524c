import Foundation
import FrameSeekCore

/// The bytes of an index cache file: a header that names the file it indexes and checks the
/// rest, then the frame table as `FrameTableBuilder` made it.
///
/// Layout, little-endian: "FSIDX", the format version (UInt32), the key's text, the payload's
/// length (UInt64) and its SHA-256, then the payload. Reading trusts nothing: a wrong magic,
/// version, key or checksum, a count the bytes cannot hold, or a table that breaks the table's
/// own rules (PTS not strictly increasing, an index out of range) makes the file rejected, with
/// the reason.
enum IndexCacheFile {
    /// Bumped whenever what `FrameTableBuilder` puts in a table changes, so an older build's
    /// files are rejected rather than read.
    static let formatVersion: UInt32 = 2
    private static let magic = Array("FSIDX".utf8)

    /// The file for `result`, under `key`.
    static func encode(_ result: FrameTableBuilder.Result, key: String) -> [UInt8]? {
        var payload = ByteWriter()
        let table = result.table
        payload.byte(sourceCode(table.source))
        payload.int(Int64(table.streamIndex))
        payload.int(Int64(table.timeBase.numerator))
        payload.int(Int64(table.timeBase.denominator))
        payload.int(table.originPTS)
        payload.int(Int64(table.frames.count))
        for frame in table.frames {
            payload.int(frame.pts)
            payload.int(frame.durationTicks)
            payload.int(frame.packetPosition ?? -1)
            payload.int(Int64(frame.decodeOrder))
            payload.byte(frame.isKeyframe ? 1 : 0)
        }
        // Every frame its own point (audio): one byte says so instead of a point per frame.
        payload.byte(table.randomAccessPoints.isEveryFrame ? 1 : 0)
        payload.int(table.randomAccessPoints.isEveryFrame ? 0 : Int64(table.randomAccessPoints.count))
        for point in table.randomAccessPoints where !table.randomAccessPoints.isEveryFrame {
            payload.int(point.pts)
            payload.int(point.dts ?? .min)
            payload.int(Int64(point.decodeOrder))
            payload.int(Int64(point.frameIndex ?? -1))
        }
        payload.int(Int64(result.missingDataAfter.count))
        for (frame, evidence) in result.missingDataAfter.sorted(by: { $0.key < $1.key }) {
            payload.int(Int64(frame))
            payload.text(evidence)
        }
        payload.int(Int64(result.corruptFrames.count))
        for frame in result.corruptFrames.sorted() { payload.int(Int64(frame)) }
        payload.byte(result.readError == nil ? 0 : 1)
        if let readError = result.readError { payload.text(readError) }
        payload.byte(result.packetOrder.identifiesPackets ? 1 : 0)
        payload.int(Int64(result.packetOrder.others.count))
        for (pts, order) in result.packetOrder.others.sorted(by: { $0.key < $1.key }) {
            payload.int(pts)
            payload.int(Int64(order))
        }
        guard let checksum = SHA256Digest.digest(of: payload.bytes) else { return nil }
        var file = ByteWriter()
        file.bytes += magic
        file.uint32(formatVersion)
        file.text(key)
        file.int(Int64(payload.bytes.count))
        file.bytes += checksum
        file.bytes += payload.bytes
        return file.bytes
    }

    /// The table in `bytes`, or why the file cannot be trusted for `key`. Read in place: a
    /// long file's entry is megabytes, and neither it nor its frames are copied on the way.
    static func decode(_ bytes: Data, key: String) -> Result<FrameTableBuilder.Result, IndexCacheRejection> {
        bytes.withUnsafeBytes { raw in decode(raw, key: key) }
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, key: String) -> Result<FrameTableBuilder.Result, IndexCacheRejection> {
        var reader = ByteReader(raw)
        guard reader.take(magic.count).map(Array.init) == magic else { return .failure(.init("not an index cache file")) }
        guard let version = reader.uint32(), version == formatVersion else {
            return .failure(.init("written by another FrameSeek (format \(reader.failed ? "unreadable" : "other than \(formatVersion)"))"))
        }
        guard let storedKey = reader.text() else { return .failure(.init("its header is cut short")) }
        guard storedKey == key else { return .failure(.init("it indexes another file, or this one before it changed")) }
        guard let length = reader.int(), length >= 0, let checksum = reader.take(32).map(Array.init),
              let payload = reader.take(Int(length)), reader.atEnd else {
            return .failure(.init("its length does not match its contents (truncated?)"))
        }
        guard SHA256Digest.digest(of: payload) == checksum else { return .failure(.init("its checksum does not match (damaged)")) }
        guard let result = table(from: payload) else { return .failure(.init("its table breaks the table's rules")) }
        return .success(result)
    }

    private static func table(from payload: UnsafeRawBufferPointer) -> FrameTableBuilder.Result? {
        var reader = ByteReader(payload)
        guard let sourceByte = reader.byte(), let source = source(sourceByte),
              let streamIndex = reader.count(), let numerator = reader.int32(), let denominator = reader.int32(),
              numerator > 0, denominator > 0, let originPTS = reader.int(),
              let frameCount = reader.count(limit: reader.remaining / 33) else { return nil }
        let timeBase = TimeBase(numerator: numerator, denominator: denominator)
        // The frames are packed as they are read; a frame that breaks the rules (PTS not
        // strictly increasing, a flag that is not 0 or 1) rejects the whole entry afterwards.
        var broken = false
        var previousPTS: Int64?
        var framesReader = reader
        let list = FrameList(count: frameCount, timeBase: timeBase, originPTS: originPTS, endingAtOwnDuration: []) { _ in
            guard let pts = framesReader.int(), let duration = framesReader.int(), let position = framesReader.int(),
                  let order = framesReader.count(), let key = framesReader.byte(), key <= 1,
                  previousPTS.map({ $0 < pts }) ?? true else {
                broken = true
                return (0, 0, false, 0, nil)
            }
            previousPTS = pts
            return (pts, duration, key == 1, order, position < 0 ? nil : position)
        }
        guard !broken else { return nil }
        reader = framesReader
        guard let everyFrame = reader.byte(), everyFrame <= 1, let pointCount = reader.count(limit: reader.remaining / 32),
              everyFrame == 0 || (pointCount == 0 && list.isEveryFrameAKeyframe) else { return nil }
        var points: [RandomAccessPoint] = []
        for _ in 0..<pointCount {
            guard let pts = reader.int(), let dts = reader.int(), let order = reader.count(), let frame = reader.int(),
                  frame >= -1, frame < Int64(frameCount), points.last.map({ $0.pts <= pts }) ?? true else { return nil }
            points.append(RandomAccessPoint(pts: pts, dts: dts == .min ? nil : dts, decodeOrder: order,
                                            frameIndex: frame < 0 ? nil : Int(frame)))
        }
        guard let missingCount = reader.count(limit: reader.remaining / 16) else { return nil }
        var missingDataAfter: [Int: String] = [:]
        for _ in 0..<missingCount {
            guard let frame = reader.count(), frame < frameCount, let evidence = reader.text() else { return nil }
            missingDataAfter[frame] = evidence
        }
        guard let corruptCount = reader.count(limit: reader.remaining / 8) else { return nil }
        var corrupt: Set<Int> = []
        for _ in 0..<corruptCount {
            guard let frame = reader.count(), frame < frameCount else { return nil }
            corrupt.insert(frame)
        }
        guard let hasReadError = reader.byte(), hasReadError <= 1 else { return nil }
        var readError: String?
        if hasReadError == 1 {
            guard let text = reader.text() else { return nil }
            readError = text
        }
        guard let identifies = reader.byte(), identifies <= 1, let otherCount = reader.count(limit: reader.remaining / 16) else { return nil }
        var others: [Int64: Int] = [:]
        for _ in 0..<otherCount {
            guard let pts = reader.int(), let order = reader.count() else { return nil }
            others[pts] = order
        }
        guard reader.atEnd else { return nil }
        let table = FrameTable(streamIndex: streamIndex, timeBase: timeBase, originPTS: originPTS,
                               frames: list.endingAtOwnDuration(Set(missingDataAfter.keys)),
                               randomAccessPoints: everyFrame == 1 ? .everyFrame(of: list) : RandomAccessPointList(points),
                               source: source, missingDataAfter: missingDataAfter)
        return FrameTableBuilder.Result(table: table, packetOrder: identifies == 1 ? PacketDecodeOrder(others: others) : .unknown,
                                        readError: readError, corruptFrames: corrupt, missingDataAfter: missingDataAfter)
    }

    private static func sourceCode(_ source: FrameTable.Source) -> UInt8 {
        switch source {
        case .packetScan: 0
        case .decodeScan: 1
        case .containerIndex: 2
        case .sampleTable: 3
        case .audioPackets: 4
        }
    }

    private static func source(_ code: UInt8) -> FrameTable.Source? {
        switch code {
        case 0: .packetScan
        case 1: .decodeScan
        case 2: .containerIndex
        case 3: .sampleTable
        case 4: .audioPackets
        default: nil
        }
    }
}

/// Why an index cache file was not used.
struct IndexCacheRejection: Error, Sendable, CustomStringConvertible {
    let reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
}

/// Little-endian fields appended to a byte array.
private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func uint32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func int(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func text(_ value: String) {
        let utf8 = Array(value.utf8)
        int(Int64(utf8.count))
        bytes += utf8
    }
}

/// Reads what `ByteWriter` wrote, in place, and fails (nil) rather than read past the end.
/// Only valid inside the `withUnsafeBytes` that gave it its bytes.
private struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    private(set) var failed = false

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }
    var atEnd: Bool { offset == bytes.count }

    /// The next `count` bytes, in place.
    mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= remaining else { failed = true; return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    mutating func byte() -> UInt8? { take(1)?.first }

    mutating func uint32() -> UInt32? {
        take(4).map { $0.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
    }

    mutating func int() -> Int64? {
        take(8).map { Int64(bitPattern: $0.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
    }

    mutating func int32() -> Int32? { int().flatMap { Int32(exactly: $0) } }

    /// A count or index: at least 0 and at most `limit`.
    mutating func count(limit: Int = .max) -> Int? {
        int().flatMap { Int(exactly: $0) }.flatMap { $0 >= 0 && $0 <= limit ? $0 : nil }
    }

    mutating func text() -> String? {
        guard let length = count(limit: remaining), let utf8 = take(length) else { return nil }
        return String(validating: utf8, as: UTF8.self)
    }
}
