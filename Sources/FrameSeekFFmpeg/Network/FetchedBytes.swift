/// The bytes a `RangedHTTPReader` received most recently, up to a budget, so that reading them
/// again costs no request: what a player's buffer does.
///
/// Why: a seek reads its window twice through the same demuxer, once to find the keyframe and
/// the frames up to the target and again to decode them, and demuxers seek back a few
/// kilobytes at a time (Matroska at every cluster, past the 32 KiB its context buffered). Each
/// of those was a new request, and the one it replaced, a closed range, was sent whole: one
/// exact seek into a Matroska film cost 2.5 times its window.
///
/// Kept in blocks of `blockBytes`, oldest first, as many as the budget holds: the oldest block
/// goes when another is needed. A read at a new offset starts a block of its own, so the blocks,
/// not the bytes in them, are counted; a block's unwritten tail is never touched. Not Sendable:
/// its reader's thread owns it.
struct FetchedBytes {
    static let blockBytes = 256 * 1024
    /// The most blocks kept.
    let blockLimit: Int

    private struct Block {
        let start: Int64
        var bytes: [UInt8]
        var end: Int64 { start + Int64(bytes.count) }
    }

    /// Oldest first; blocks may overlap where the same bytes were fetched twice.
    private var blocks: [Block] = []

    /// Keeps up to `capacity` bytes (rounded down to whole blocks).
    init(capacity: Int) { blockLimit = max(0, capacity) / Self.blockBytes }

    /// Keeps `bytes`, received at `offset`, evicting the oldest blocks past the budget.
    mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int64) {
        guard blockLimit > 0 else { return }
        var rest = bytes[...]
        var at = offset
        while !rest.isEmpty {
            if let last = blocks.last, last.end == at, last.bytes.count < Self.blockBytes {
                let taken = rest.prefix(Self.blockBytes - last.bytes.count)
                blocks[blocks.count - 1].bytes.append(contentsOf: taken)
                rest = rest.dropFirst(taken.count)
                at += Int64(taken.count)
            } else {
                if blocks.count == blockLimit { blocks.removeFirst() }
                var block = Block(start: at, bytes: [])
                block.bytes.reserveCapacity(Self.blockBytes)
                blocks.append(block)
            }
        }
    }

    /// Forgets every block: the reader's owner stopped reading through it for now.
    mutating func forgetAll() { blocks = [] }

    /// Copies what is kept from `offset` on, up to `count` bytes and the end of the block that
    /// holds it, into `buffer`; 0 when no kept block holds `offset`.
    func copy(at offset: Int64, into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        guard count > 0, let block = blocks.last(where: { $0.start <= offset && offset < $0.end }) else { return 0 }
        let from = Int(offset - block.start)
        let copied = min(count, block.bytes.count - from)
        block.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + from, count: copied) }
        return copied
    }
}
