// The sidx reader on hostile bytes. Its reading of real boxes is checked against ffmpeg's own
// SegmentList of the same file in CLIDASHSegmentBaseTests.

import Testing

@testable import FrameSeekCore

@Suite("DASH: a SegmentBase's sidx read from hostile bytes")
struct SegmentIndexBoxTests {
    /// A version-0 sidx with `references` (size, duration, SAP), timescale 1000, earliest time
    /// 500 and first offset 10; `sizeField` overrides the box size.
    static func box(
        _ references: [(size: UInt32, duration: UInt32, sap: Bool)], sizeField: UInt32? = nil, type: String = "sidx"
    )
        -> [UInt8]
    {
        func word(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let body =
            [0, 0, 0, 0] + word(1) + word(1000) + word(500) + word(10) + [
                0, 0, UInt8(references.count >> 8), UInt8(references.count & 0xFF)
            ]
            + references.flatMap { word($0.size) + word($0.duration) + word($0.sap ? 0x9000_0000 : 0) }
        return word(sizeField ?? UInt32(8 + body.count)) + Array(type.utf8) + body
    }

    @Test("Subsegments follow one another from the box's end plus the first offset, timed from the earliest presentation time")
    func references() throws {
        let bytes = Self.box([(100, 2000, true), (50, 1000, false)])
        let index = try SegmentIndexBox(bytes: bytes, offset: 900, element: "R")
        let start = 900 + bytes.count + 10
        #expect(index.timescale == 1000)
        #expect(
            index.references.map(\.byteRange) == [HLSByteRange(length: 100, offset: start), HLSByteRange(length: 50, offset: start + 100)])
        #expect(index.references.map(\.start) == [500, 2500])
        #expect(index.references.map(\.startsWithSAP) == [true, false])
    }

    @Test("A version-1 box with a 64-bit size reads its 64-bit earliest time and offset")
    func versionOne() throws {
        func bytes(_ value: UInt64, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let body =
            [1, 0, 0, 0] + bytes(1, 4) + bytes(90_000, 4) + bytes(1 << 40, 8) + bytes(4, 8) + [0, 0, 0, 1]
            + bytes(300, 4) + bytes(180_000, 4) + bytes(0x9000_0000, 4)
        let box = bytes(1, 4) + Array("sidx".utf8) + bytes(UInt64(16 + body.count), 8) + body
        let index = try SegmentIndexBox(bytes: box, offset: 10, element: "R")
        #expect(index.timescale == 90_000)
        #expect(
            index.references == [
                .init(
                    byteRange: HLSByteRange(length: 300, offset: 10 + box.count + 4), start: 1 << 40, duration: 180_000, startsWithSAP: true
                )
            ])
    }

    @Test(
        "Truncated, mistyped, oversized, empty, hierarchical and overflowing boxes are refused naming the element",
        arguments: [
            "truncated", "type", "sizeBeyond", "none", "hierarchical", "countBeyond", "offsetOverflow", "emptyReference",
            "timescaleZero", "negativeOffset"
        ])
    func hostile(_ name: String) {
        var bytes: [UInt8]
        var offset = 0
        switch name {
        case "truncated": bytes = Array(Self.box([(100, 2000, true)]).dropLast(3))
        case "type": bytes = Self.box([(100, 2000, true)], type: "moof")
        case "sizeBeyond": bytes = Self.box([(100, 2000, true)], sizeField: 4096)
        case "none": bytes = Self.box([])
        case "hierarchical": bytes = Self.box([(0x8000_0064, 2000, true)])
        case "countBeyond":
            bytes = Self.box([(100, 2000, true)])
            bytes[31] = 200
        case "offsetOverflow":
            bytes = Self.box([(100, 2000, true)])
            offset = Int.max - 20
        case "timescaleZero":
            bytes = Self.box([(100, 2000, true)])
            bytes[16..<20] = [0, 0, 0, 0]
        case "negativeOffset":
            bytes = Self.box([(100, 2000, true)])
            offset = -1
        default: bytes = Self.box([(0, 2000, true)])
        }
        #expect(throws: MPDError.self, "\(name)") { try SegmentIndexBox(bytes: bytes, offset: offset, element: "R") }
        do {
            _ = try SegmentIndexBox(bytes: bytes, offset: offset, element: "R")
        } catch {
            #expect(error.element == "R" && error.reason.hasPrefix("sidx: "), "\(name): \(error)")
        }
    }
}
