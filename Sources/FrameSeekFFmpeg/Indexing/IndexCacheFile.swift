import Foundation
import FrameSeekCore

/// The bytes of an index cache file: a header that names the file it indexes and checks the
/// rest, then the frame table as `FrameTableBuilder` made it, with the media type and codec of
/// the stream it was made from (so that `IndexCache.StreamFacts` can check them).
///
/// Layout. Fixed-size integers are little-endian; a text is its UTF-8 length (Int64) and bytes;
/// a varint is LEB128 (seven bits a byte, low first); a signed varint is zigzag-coded first.
///
///     header   "FSIDX", format version (UInt32), key (text), payload length (Int64),
///              SHA-256 of the payload (32 bytes)
///     payload  table source (1 byte: 0 packet scan, 1 decode scan, 2 container index,
///              3 sample table, 4 audio packets), stream index, media type, codec ID,
///              time base numerator and denominator, origin PTS, frame count (Int64 each);
///              the frames; random access points; missing data; corrupt frames; read error;
///              packet order (below)
///
/// Each frame is its differences from what the frame before it predicts (`FramePrediction`):
/// the PTS less the previous frame's end, the duration less the previous one's, the packet
/// position (-1 unknown) less the previous one's, each a signed varint; then the decode order
/// less the next in line, zigzag-coded, shifted left one bit with the keyframe flag as its
/// lowest bit, as a varint. So frames that follow one another cost a byte or two a field
/// (about 7 bytes a frame for a two-hour film, 5 for a three-hour MP3), so that reading an
/// entry costs far less than scanning the media again.
///
/// After the frames: one byte, 1 when every frame is its own random access point, then the
/// point count (Int64, 0 in that case) and each point's PTS, DTS (Int64.min unknown), decode
/// order and frame index (-1 none); the count of frames followed by missing data, each frame
/// (Int64) with its evidence (text); the count of corrupt frames and each (Int64); one byte,
/// 1 when a read error ended the table, then its text; one byte, 1 when packets are known by
/// PTS (0 for a decode scan), then the count of packets that are not frames of the table and
/// each one's PTS and decode order (Int64 each).
///
/// Reading trusts nothing: a wrong magic, version, key or checksum, a count the bytes cannot
/// hold, or a table that breaks the table's own rules (PTS not strictly increasing, an index
/// out of range) makes the file rejected, with the reason.
enum IndexCacheFile {
    /// Bumped whenever what `FrameTableBuilder` puts in a table changes, so an older build's
    /// files are rejected rather than read.
    static let formatVersion: UInt32 = 6
    private static let magic = Array("FSIDX".utf8)

    /// What an entry holds: the table, and what the stream it was made from said it was.
    struct Entry {
        let result: FrameTableBuilder.Result
        /// `AVMediaType` and `AVCodecID` of the stream, as raw values.
        let mediaType: Int64
        let codecID: Int64
    }

    /// The file for `result`, made from `stream`, under `key`.
    static func encode(_ result: FrameTableBuilder.Result, stream: IndexCache.StreamFacts, key: String) -> [UInt8]? {
        var payload = ByteWriter()
        let table = result.table
        payload.byte(sourceCode(table.source))
        payload.int(Int64(table.streamIndex))
        payload.int(stream.mediaType)
        payload.int(stream.codecID)
        payload.int(Int64(table.timeBase.numerator))
        payload.int(Int64(table.timeBase.denominator))
        payload.int(table.originPTS)
        payload.int(Int64(table.frames.count))
        var previous = FramePrediction(originPTS: table.originPTS)
        for frame in table.frames {
            let position = frame.packetPosition ?? -1, order = Int64(frame.decodeOrder)
            payload.signed(frame.pts &- previous.pts)
            payload.signed(frame.durationTicks &- previous.duration)
            payload.signed(position &- previous.position)
            payload.varint(zigzag(order &- previous.order) << 1 | (frame.isKeyframe ? 1 : 0))
            previous = FramePrediction(after: frame.pts, duration: frame.durationTicks, position: position, order: order)
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
        file.append(magic)
        file.uint32(formatVersion)
        file.text(key)
        file.int(Int64(payload.bytes.count))
        file.append(checksum)
        file.append(payload.bytes)
        return file.bytes
    }

    /// The table in `bytes`, or why the file cannot be trusted for `key`. Read in place: a
    /// long file's entry is megabytes, and neither it nor its frames are copied on the way.
    static func decode(_ bytes: Data, key: String) -> Result<Entry, IndexCacheRejection> {
        bytes.withUnsafeBytes { raw in decode(raw, key: key) }
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, key: String) -> Result<Entry, IndexCacheRejection> {
        var reader = ByteReader(raw)
        guard reader.take(magic.count).map(Array.init) == magic else { return .failure(.init("not an index cache file")) }
        guard let version = reader.uint32(), version == formatVersion else {
            return .failure(.init("written by another FrameSeek (format \(reader.failed ? "unreadable" : "other than \(formatVersion)"))"))
        }
        guard let storedKey = reader.text() else { return .failure(.init("its header is cut short")) }
        guard storedKey == key else { return .failure(.init("it indexes another file, or this one before it changed")) }
        guard let length = reader.int(), length >= 0, let checksum = reader.take(32).map(Array.init),
            let payload = reader.take(Int(length)), reader.atEnd
        else {
            return .failure(.init("its length does not match its contents (truncated?)"))
        }
        guard SHA256Digest.digest(of: payload) == checksum else { return .failure(.init("its checksum does not match (damaged)")) }
        guard let entry = entry(from: payload) else { return .failure(.init("its table breaks the table's rules")) }
        return .success(entry)
    }

    private static func entry(from payload: UnsafeRawBufferPointer) -> Entry? {
        var reader = ByteReader(payload)
        guard let sourceByte = reader.byte(), let source = source(sourceByte),
            let streamIndex = reader.count(), let mediaType = reader.int(), let codecID = reader.int(), let numerator = reader.int32(),
            let denominator = reader.int32(),
            numerator > 0, denominator > 0, let originPTS = reader.int(),
            let frameCount = reader.count(limit: reader.remaining / 4)
        else { return nil }
        let timeBase = TimeBase(numerator: numerator, denominator: denominator)
        // The frames are packed as they are read, and the first that breaks the rules (PTS not
        // strictly increasing, a field cut short) rejects the entry there: a stated count the
        // rest of the bytes do not bear out builds no more than the frames they hold.
        var previousPTS: Int64?
        var previous = FramePrediction(originPTS: originPTS)
        var frames = FrameList.Builder(timeBase: timeBase, originPTS: originPTS, capacity: frameCount)
        for _ in 0..<frameCount {
            guard let ptsDelta = reader.signed(), let durationDelta = reader.signed(), let positionDelta = reader.signed(),
                let orderAndKey = reader.varint()
            else { return nil }
            let pts = previous.pts &+ ptsDelta, duration = previous.duration &+ durationDelta
            let position = previous.position &+ positionDelta, order = previous.order &+ unzigzag(orderAndKey >> 1)
            guard previousPTS.map({ $0 < pts }) ?? true, order >= 0, order <= Int64(Int32.max), position >= -1 else { return nil }
            previousPTS = pts
            previous = FramePrediction(after: pts, duration: duration, position: position, order: order)
            frames.append(
                pts: pts, durationTicks: duration, isKeyframe: orderAndKey & 1 == 1, decodeOrder: Int(order),
                position: position < 0 ? nil : position)
        }
        let list = frames.finish(endingAtOwnDuration: [])
        guard let everyFrame = reader.byte(), everyFrame <= 1, let pointCount = reader.count(limit: reader.remaining / 32),
            everyFrame == 0 || (pointCount == 0 && list.isEveryFrameAKeyframe)
        else { return nil }
        var points: [RandomAccessPoint] = []
        for _ in 0..<pointCount {
            guard let pts = reader.int(), let dts = reader.int(), let order = reader.count(), let frame = reader.int(),
                frame >= -1, frame < Int64(frameCount), points.last.map({ $0.pts <= pts }) ?? true
            else { return nil }
            points.append(
                RandomAccessPoint(
                    pts: pts, dts: dts == .min ? nil : dts, decodeOrder: order,
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
        guard let identifies = reader.byte(), identifies <= 1, let otherCount = reader.count(limit: reader.remaining / 16) else {
            return nil
        }
        var others: [Int64: Int] = [:]
        for _ in 0..<otherCount {
            guard let pts = reader.int(), let order = reader.count() else { return nil }
            others[pts] = order
        }
        guard reader.atEnd else { return nil }
        let table = FrameTable(
            streamIndex: streamIndex, timeBase: timeBase, originPTS: originPTS,
            frames: list.endingAtOwnDuration(Set(missingDataAfter.keys)),
            randomAccessPoints: everyFrame == 1 ? .everyFrame(of: list) : RandomAccessPointList(points),
            source: source, missingDataAfter: missingDataAfter)
        let result = FrameTableBuilder.Result(
            table: table, packetOrder: identifies == 1 ? DecodeOrderByPTS(others: others) : .unknown,
            readError: readError, corruptFrames: corrupt, missingDataAfter: missingDataAfter)
        return Entry(result: result, mediaType: mediaType, codecID: codecID)
    }

    private static func sourceCode(_ source: FrameTable.Source) -> UInt8 {
        switch source {
        case .packetScan: 0
        case .decodeScan: 1
        case .containerIndex: 2
        case .sampleTable: 3
        case .audioPackets: 4
        // A window or a prefix is never written: only a table of the whole stream is kept.
        case .seekWindow: 5
        case .streamPrefix: 6
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

/// What a frame's fields are written as differences from: the frame before it, predicted to
/// be followed at its end, at the same duration, in the next decode order.
private struct FramePrediction {
    let pts: Int64
    let duration: Int64
    let position: Int64
    let order: Int64

    /// Before the first frame: at the table's origin, position unknown, decode order 0.
    init(originPTS: Int64) {
        pts = originPTS
        duration = 0
        position = -1
        order = 0
    }

    /// After a frame with these fields.
    init(after pts: Int64, duration: Int64, position: Int64, order: Int64) {
        self.pts = pts &+ duration
        self.duration = duration
        self.position = position
        self.order = order &+ 1
    }
}

/// A signed number as an unsigned one with small magnitudes small: 0, -1, 1, -2 ... as 0, 1, 2, 3.
private func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

/// The number `zigzag` made `value` of.
private func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

/// Why an index cache file was not used.
struct IndexCacheRejection: Error, Sendable, CustomStringConvertible {
    let reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
}

/// Little-endian fields appended to a byte array.
private struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ raw: some Sequence<UInt8>) { bytes += raw }

    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func uint32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func int(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    /// Seven bits a byte, low first, the top bit set on every byte but the last (LEB128).
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
    mutating func signed(_ value: Int64) { varint(zigzag(value)) }
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

    /// What `ByteWriter.varint` wrote; nil past the end or past 64 bits (at most 10 bytes).
    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            guard let byte = byte() else { return nil }
            guard shift < 63 || byte <= 1 else { failed = true; return nil }
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return value }
        }
        failed = true
        return nil
    }

    mutating func signed() -> Int64? { varint().map(unzigzag) }

    /// A count or index: at least 0 and at most `limit`.
    mutating func count(limit: Int = .max) -> Int? {
        int().flatMap { Int(exactly: $0) }.flatMap { $0 >= 0 && $0 <= limit ? $0 : nil }
    }

    mutating func text() -> String? {
        guard let length = count(limit: remaining), let utf8 = take(length) else { return nil }
        return String(validating: utf8, as: UTF8.self)
    }
}
