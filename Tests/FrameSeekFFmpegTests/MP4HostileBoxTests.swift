// MP4s whose boxes FFmpeg 5.1 reads in a way the sample table must follow, or leave to the
// index scan: made in the test from h264_bframes_gop250.mp4 (its `moov` comes last, so boxes
// grow without moving a sample). A `trak` whose `mdia` holds an empty `mdat` and then 300,000
// `mdia` boxes nested in each other, which FFmpeg does not read (a container ends at an `mdat`
// inside it), and `mdia` boxes nested as deep as FFmpeg reads them; a `ctts` with an offset
// above 2^28 before its last two entries, which FFmpeg discards whole (`mov_read_ctts`, "CTTS
// invalid"); and a second `ctts` inside a `dinf` after the `stbl`, which FFmpeg reads and the
// sample table does not, differing from the first only in the middle of the stream. ffprobe's
// packets are the truth each table is checked against; the box walk's own nesting rules are
// checked on boxes written here, against what FFmpeg does with the same nesting in a file.

import Foundation
import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("MP4 boxes the sample table must read as FFmpeg does", .ffmpegLog)
struct MP4HostileBoxTests {
    static let source = Repository.fixture("media/h264_bframes_gop250.mp4")
    static let sampleCount = 360

    @Test("Boxes nested 300,000 deep after an mdat inside mdia are not read: the table is ffprobe's")
    func nestedBoxesAfterMediaData() throws {
        let bytes = try replacingBox(["moov", "trak", "mdia"], in: Self.sourceBytes()) { mdia in
            appending(box("mdat", []) + nestedBoxes("mdia", depth: 300_000), to: mdia)
        }
        let engine = try openWritten(bytes, named: "nested.mp4")
        #expect(engine.table.source == .sampleTable)
        #expect(engine.table.frames.map(\.pts) == engine.probedPTS)
    }

    @Test("mdia boxes nested as deep as FFmpeg reads them (8 inside a trak, one more fails its open) leave the table ffprobe's")
    func deepestNestingFFmpegReads() throws {
        let bytes = try replacingBox(["moov", "trak"], in: Self.sourceBytes()) { trak in
            appending(nestedBoxes("mdia", depth: 8, innermostBodySize: 8) + box("free", []), to: trak)
        }
        let engine = try openWritten(bytes, named: "nested-8.mp4")
        #expect(engine.table.source == .sampleTable)
        #expect(engine.table.frames.map(\.pts) == engine.probedPTS)
    }

    @Test("A ctts FFmpeg discards (an offset above 2^28 before its last two entries) gives PTS = DTS, as ffprobe's")
    func invalidCompositionOffsets() throws {
        let entries: [(count: UInt32, offset: Int32)] = [(32, 0), (1, 1 << 28 + 1), (1, 0), (UInt32(Self.sampleCount - 34), 0)]
        // Without its edit list, whose last packet FFmpeg gives another duration once the
        // offsets are gone, so that every packet read for real agrees with the table.
        let withoutEdits = try replacingBox(["moov", "trak", "edts"], in: Self.sourceBytes()) { edts in
            Array(edts[0..<4]) + Array("free".utf8) + edts[8...]
        }
        let bytes = try replacingBox(["moov", "trak", "mdia", "minf", "stbl", "ctts"], in: withoutEdits) { _ in
            compositionOffsetBox(entries)
        }
        let engine = try openWritten(bytes, named: "ctts-invalid.mp4")
        // FFmpeg's word that it dropped the offsets: every packet's PTS is its DTS.
        let csv = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "0", "-show_entries", "packet=pts,dts", "-of", "csv=p=0", engine.path
        ])
        let pairs = csv.split(whereSeparator: \.isNewline).map { $0.split(separator: ",") }
        #expect(pairs.count == Self.sampleCount && pairs.allSatisfy { $0.count == 2 && $0[0] == $0[1] })
        #expect(engine.table.source == .sampleTable)
        #expect(engine.table.frames.map(\.pts) == engine.probedPTS)
    }

    @Test("A second ctts FFmpeg reads and the sample table does not, differing in the middle only, sends the table to the index scan")
    func compositionOffsetsDifferingInTheMiddle() throws {
        let original = try Self.sourceBytes()
        let (start, size) = try #require(boxChain(["moov", "trak", "mdia", "minf", "stbl", "ctts"], in: original).last)
        var offsets: [Int32] = []
        let entryCount = Int(bigEndian32(original, at: start + 12))
        for i in 0..<entryCount {
            let at = start + 16 + 8 * i
            offsets += Array(repeating: Int32(bitPattern: bigEndian32(original, at: at + 4)), count: Int(bigEndian32(original, at: at)))
        }
        #expect(offsets.count == Self.sampleCount && 16 + 8 * entryCount <= size)
        // Samples 100 to 299 shown a million ticks later. The box holds more entries than the
        // first (empty ones, which FFmpeg skips): FFmpeg 5.1 keeps the first one's allocation
        // and fails a second ctts that fits in it.
        var entries = offsets.enumerated().map { (count: UInt32(1), offset: (100..<300).contains($0) ? $1 + 1_000_000 : $1) }
        entries += Array(repeating: (count: 0, offset: 0), count: 400)
        let bytes = try replacingBox(["moov", "trak", "mdia", "minf"], in: original) { minf in
            appending(box("dinf", compositionOffsetBox(entries)), to: minf)
        }
        let engine = try openWritten(bytes, named: "ctts-hidden.mp4")
        // FFmpeg reads the second ctts: the edit list discards the samples it moves past the end.
        #expect(engine.probedPTS.count == 160 && engine.probedPTS.last! < 1_000_000)
        #expect(engine.table.source == .containerIndex)
        #expect(engine.table.frames.map(\.pts) == engine.probedPTS)
    }

    static func sourceBytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: source))) }

    /// `bytes` written to a file of their own, its table opened from the index, and ffprobe's
    /// PTS of the packets it shows (not discarded by the edit list), in presentation order.
    private func openWritten(_ bytes: [UInt8], named name: String) throws -> (path: String, table: FrameTable, probedPTS: [Int64]) {
        let directory = try temporaryDirectory("mp4-hostile-box")
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let engine = try FFmpegEngine(path: path, options: .init(streamIndex: 0, threads: 1))
        let csv = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "0", "-show_entries", "packet=pts,flags", "-of", "csv=p=0", path
        ])
        let shown = csv.split(whereSeparator: \.isNewline).compactMap { line -> Int64? in
            let fields = line.split(separator: ",")
            return fields.count == 2 && !fields[1].contains("D") ? Int64(fields[0]) : nil
        }
        return (path, engine.frameTable, shown.sorted())
    }
}

@Suite("The MP4 box walk's nesting, as FFmpeg's")
struct MP4BoxNestingTests {
    @Test("A trak of 300,000 nested mdia boxes, which FFmpeg refuses to open, gives no table and no stack overflow")
    func deepNesting() {
        let track = trackBytes(wrappingSampleSize: 300_000)
        #expect(read(track) == nil)
    }

    @Test("The walk reads containers down to mov.c's atom_depth 10, and gives no table one level deeper")
    func nestingLimit() {
        // trak's children are at mov.c's depth 3: mdia boxes at depths 3 to 10 are read, one at
        // 11 is "Atoms too deeply nested" there (FFmpeg 5.1's mov_read_default). ffprobe reading
        // the 8 deep file is `deepestNestingFFmpegReads`; this checks the walk's own bound.
        #expect(read(trackBytes(wrappingSampleSize: 8))?.sampleCount == 7)
        #expect(read(trackBytes(wrappingSampleSize: 9)) == nil)
    }

    @Test("A trak or mdat inside a container ends it: what follows is not read")
    func containerEndsAtTrackOrMediaData() {
        for stop in ["trak", "mdat"] {
            let mdia = box("mdia", box("minf", box("stbl", sampleSizeBox(7))) + box(stop, []) + box("stbl", sampleSizeBox(5)))
            #expect(read(moov(box("trak", trackHeader + mdia)))?.sampleCount == 7, "\(stop)")
        }
    }

    private let trackHeader = box("tkhd", [UInt8](repeating: 0, count: 12) + [0, 0, 0, 1] + [UInt8](repeating: 0, count: 68))

    /// A file of one `moov` with `trak`, track 1, holding `depth` nested `mdia` boxes, the
    /// innermost with an `stsz` of 7 samples.
    private func trackBytes(wrappingSampleSize depth: Int) -> [UInt8] {
        let inner = sampleSizeBox(7)
        var nested = nestedBoxes("mdia", depth: depth, innermostBodySize: inner.count)
        nested += inner
        return moov(box("trak", trackHeader + nested))
    }

    private func moov(_ trak: [UInt8]) -> [UInt8] { box("moov", trak) }

    private func sampleSizeBox(_ count: UInt32) -> [UInt8] { box("stsz", [0, 0, 0, 0] + bigEndian(0) + bigEndian(count)) }

    /// The table of track 1 of `file`, 7 samples expected.
    private func read(_ file: [UInt8]) -> MP4SampleTable? {
        MP4SampleTable.read(
            trackID: 1, expectedSamples: 7, fileSize: Int64(file.count),
            using: { offset, count in
                guard offset >= 0, offset <= Int64(file.count) else { return nil }
                return Array(file[Int(offset)..<min(file.count, Int(offset) + count)])
            })
    }
}

/// An MP4 box of 32-bit size.
func box(_ type: String, _ body: [UInt8]) -> [UInt8] { bigEndian(UInt32(8 + body.count)) + Array(type.utf8) + body }

/// `depth` boxes of `type` each holding the next, the innermost holding `innermostBodySize`
/// bytes that the caller appends.
func nestedBoxes(_ type: String, depth: Int, innermostBodySize: Int = 0) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 8 * depth)
    let name = Array(type.utf8)
    for level in 0..<depth {
        let size = bigEndian(UInt32(8 * (depth - level) + innermostBodySize))
        for i in 0..<4 {
            bytes[8 * level + i] = size[i]
            bytes[8 * level + 4 + i] = name[i]
        }
    }
    return bytes
}

/// A `ctts` box of version 0 with these entries.
func compositionOffsetBox(_ entries: [(count: UInt32, offset: Int32)]) -> [UInt8] {
    box(
        "ctts",
        [0, 0, 0, 0] + bigEndian(UInt32(entries.count)) + entries.flatMap { bigEndian($0.count) + bigEndian(UInt32(bitPattern: $0.offset)) }
    )
}

/// `box` with `extra` at the end of its body, its size grown to match.
func appending(_ extra: [UInt8], to box: [UInt8]) -> [UInt8] {
    bigEndian(UInt32(box.count + extra.count)) + box[4...] + extra
}

/// The start and size of the first box of each type along `path`, from the top level down.
func boxChain(_ path: [String], in bytes: [UInt8]) throws -> [(start: Int, size: Int)] {
    var chain: [(start: Int, size: Int)] = []
    var range = 0..<bytes.count
    for type in path {
        var offset = range.lowerBound
        var found: (start: Int, size: Int)?
        while offset + 8 <= range.upperBound {
            let size = Int(bigEndian32(bytes, at: offset))
            guard size >= 8 else { break }
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == type {
                found = (offset, size)
                break
            }
            offset += size
        }
        guard let found else { throw OracleError("no \(path.joined(separator: "/")) box") }
        chain.append(found)
        range = (found.start + 8)..<(found.start + found.size)
    }
    return chain
}

/// `bytes` with the box at `path` replaced by what `replace` makes of it, and the boxes that
/// hold it resized to match. Only for a file whose `moov` follows its samples: nothing moves them.
func replacingBox(_ path: [String], in bytes: [UInt8], with replace: ([UInt8]) -> [UInt8]) throws -> [UInt8] {
    let chain = try boxChain(path, in: bytes)
    guard path.first == "moov", try topLevelBoxes(bytes).last == "moov", let target = chain.last else {
        throw OracleError("only a moov at the end can grow")
    }
    let replacement = replace(Array(bytes[target.start..<(target.start + target.size)]))
    var out = Array(bytes[..<target.start]) + replacement + bytes[(target.start + target.size)...]
    for holder in chain.dropLast() {
        let size = bigEndian(UInt32(holder.size + replacement.count - target.size))
        for i in 0..<4 { out[holder.start + i] = size[i] }
    }
    return out
}

private func topLevelBoxes(_ bytes: [UInt8]) throws -> [String] {
    var types: [String] = []
    var offset = 0
    while offset + 8 <= bytes.count {
        let size = Int(bigEndian32(bytes, at: offset))
        guard size >= 8 else { throw OracleError("box of \(size) bytes at \(offset)") }
        types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
        offset += size
    }
    return types
}

func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
}
