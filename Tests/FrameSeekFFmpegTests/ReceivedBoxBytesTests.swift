// ReceivedBoxBytes and ReceivedBytesSource against the bytes themselves: a walk keeps ranges
// that overlap, touch, leave gaps or are empty, within a small budget, and any read at any
// offset through the source, from the kept bytes or from the inner source, gives the file's
// bytes, asking the inner source only for bytes that were not kept.

@testable import FrameSeekFFmpeg
import Testing

/// The file's bytes in memory, counting what is asked of it.
private final class BytesInMemory: ByteSource {
    let bytes: [UInt8]
    private var offset: Int64 = 0
    /// Every offset a read asked for, and how many bytes it got.
    private(set) var reads: [(offset: Int64, count: Int)] = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 {
        guard offset < Int64(bytes.count) else { return FFmpegError.Code.endOfFile }
        let copied = min(Int(count), bytes.count - Int(offset))
        bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + Int(offset), count: copied) }
        reads.append((offset, copied))
        offset += Int64(copied)
        return Int32(copied)
    }

    func seek(to offset: Int64) throws(FFmpegError) { self.offset = offset }

    var size: Int64 { Int64(bytes.count) }
}

@Suite("The box bytes a walk keeps, read again")
struct ReceivedBoxBytesTests {
    @Test(
        "Ranges kept as a walk goes (overlapping, touching, apart, empty), within a budget or none; any read gives the file's bytes, and the inner source is asked only for bytes not kept",
        arguments: [nil, 0, 750, 2_000])
    func readsGiveTheFilesBytes(budget: Int?) throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<40 {
            let file = (0..<5_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var received = ReceivedBoxBytes(budget: budget ?? Int.max)
            // Each range starts after the one before, as the walk's reads do (a header, the body
            // it overlaps, the next header), and may overlap it, touch it or leave a gap.
            var offered = [Bool](repeating: false, count: file.count)
            var start = 0
            while true {
                start += Int.random(in: 1...100, using: &generator)
                guard start < file.count else { break }
                let end = min(file.count, start + Int.random(in: 0...150, using: &generator))
                received.keep(Array(file[start..<end]), at: Int64(start))
                for i in start..<end { offered[i] = true }
            }
            // What is kept, as the store answers for each offset.
            let kept = (0..<file.count).map { offset in
                var byte: UInt8 = 0
                return received.copy(at: Int64(offset), into: &byte, count: 1).copied == 1 && byte == file[offset]
            }
            let keptCount = kept.filter { $0 }.count
            #expect(received.count == keptCount, "round \(round): counts \(received.count), answers for \(keptCount)")
            #expect(!zip(kept, offered).contains { $0 && !$1 }, "round \(round): a byte kept that no read offered")
            if let budget {
                #expect(received.count <= budget)
            } else {
                #expect(kept == offered, "round \(round): without a budget, every byte offered is kept")
            }

            let inner = BytesInMemory(file)
            let source = ReceivedBytesSource(received, reading: inner)
            for _ in 0..<200 {
                let at = Int.random(in: 0..<file.count, using: &generator)
                try source.seek(to: Int64(at))
                var buffer = [UInt8](repeating: 0, count: Int.random(in: 1...175, using: &generator))
                let count = buffer.withUnsafeMutableBufferPointer { source.read(into: $0.baseAddress!, count: Int32($0.count)) }
                try #require(count > 0, "round \(round): a read at \(at) gave \(count)")
                #expect(Array(buffer[..<Int(count)]) == Array(file[at..<(at + Int(count))]), "round \(round): the bytes at \(at)")
            }
            for read in inner.reads {
                let asked = Int(read.offset)..<(Int(read.offset) + read.count)
                #expect(!asked.contains { kept[$0] }, "round \(round): the inner source was asked for kept bytes \(asked)")
            }
        }
    }
}
