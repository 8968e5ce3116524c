// What a ranged reader keeps of the bytes it received: every byte read back is the byte that
// was kept at that offset (the source array is the truth), reads stop at a block's end, and
// the oldest blocks go once the budget is spent.

import Testing

@testable import FrameSeekFFmpeg

@Suite("Fetched bytes: what a ranged reader reads again from memory")
struct FetchedBytesTests {
    /// Bytes whose value tells their offset apart within any 251-byte span.
    static let source: [UInt8] = (0..<(3 * FetchedBytes.blockBytes)).map { UInt8(truncatingIfNeeded: $0 % 251) }

    /// Keeps `source[range]` at its offset, in pieces of `piece` bytes, as reads receive it.
    static func keep(_ range: Range<Int>, in pieces: Int, into fetched: inout FetchedBytes) {
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + pieces, range.upperBound)
            source[start..<end].withUnsafeBufferPointer { fetched.keep($0, at: Int64(start)) }
            start = end
        }
    }

    /// Reads back from `offset` until `count` bytes are in or a read finds nothing kept.
    static func readBack(_ fetched: FetchedBytes, at offset: Int, count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = out.withUnsafeMutableBufferPointer {
                fetched.copy(at: Int64(offset + done), into: $0.baseAddress! + done, count: count - done)
            }
            if got == 0 { break }
            done += got
        }
        return Array(out[0..<done])
    }

    @Test("bytes kept in pieces read back as they were, across blocks, from any offset")
    func readsBackWhatWasKept() {
        var fetched = FetchedBytes(capacity: 16 * FetchedBytes.blockBytes)
        let kept = 1000..<(2 * FetchedBytes.blockBytes + 5000)
        Self.keep(kept, in: 32 * 1024 + 7, into: &fetched)
        for offset in [1000, 1001, 70_000, FetchedBytes.blockBytes + 999, FetchedBytes.blockBytes + 1000, kept.upperBound - 1] {
            let count = kept.upperBound - offset
            #expect(Self.readBack(fetched, at: offset, count: count) == Array(Self.source[offset..<kept.upperBound]), "at \(offset)")
        }
        // Nothing is kept before the first byte or from the end on.
        #expect(Self.readBack(fetched, at: 999, count: 10).isEmpty)
        #expect(Self.readBack(fetched, at: kept.upperBound, count: 10).isEmpty)
    }

    @Test("a copy stops at the end of the block that holds its offset")
    func stopsAtTheBlockEnd() {
        var fetched = FetchedBytes(capacity: 16 * FetchedBytes.blockBytes)
        Self.keep(0..<(FetchedBytes.blockBytes + 100), in: 4096, into: &fetched)
        var buffer = [UInt8](repeating: 0, count: 1000)
        let got = buffer.withUnsafeMutableBufferPointer {
            fetched.copy(at: Int64(FetchedBytes.blockBytes - 10), into: $0.baseAddress!, count: 1000)
        }
        #expect(got == 10)
        #expect(Array(buffer[0..<10]) == Array(Self.source[(FetchedBytes.blockBytes - 10)..<FetchedBytes.blockBytes]))
    }

    @Test("past the budget the oldest blocks go and the newest stay")
    func evictsTheOldest() {
        var fetched = FetchedBytes(capacity: 2 * FetchedBytes.blockBytes)
        Self.keep(0..<(3 * FetchedBytes.blockBytes), in: 65_536, into: &fetched)
        #expect(Self.readBack(fetched, at: 0, count: 10).isEmpty)
        #expect(Self.readBack(fetched, at: FetchedBytes.blockBytes - 1, count: 1).isEmpty)
        let newest = FetchedBytes.blockBytes..<(3 * FetchedBytes.blockBytes)
        #expect(Self.readBack(fetched, at: newest.lowerBound, count: newest.count) == Array(Self.source[newest]))
        // Reads at scattered offsets each take a block: the count, not the bytes, is bounded.
        for offset in stride(from: 0, to: 100, by: 10) { Self.keep(offset..<(offset + 1), in: 1, into: &fetched) }
        #expect(Self.readBack(fetched, at: newest.lowerBound, count: 1).isEmpty)
        #expect(Self.readBack(fetched, at: 90, count: 1) == [Self.source[90]])
        #expect(Self.readBack(fetched, at: 80, count: 1) == [Self.source[80]])
        #expect(Self.readBack(fetched, at: 70, count: 1).isEmpty)
    }

    @Test("a budget under one block keeps nothing")
    func zeroBudget() {
        var fetched = FetchedBytes(capacity: FetchedBytes.blockBytes - 1)
        Self.keep(0..<1000, in: 100, into: &fetched)
        #expect(Self.readBack(fetched, at: 0, count: 10).isEmpty)
    }
}
