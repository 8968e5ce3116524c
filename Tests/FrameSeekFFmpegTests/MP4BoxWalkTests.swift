// The walk over an MP4's top-level boxes on sizes a hostile server states: a resource claimed
// to be 2^63-1 bytes long (scripts/range-http-server.py's "claimsize") with a box whose 64-bit
// size ends a few bytes short of it must end the walk, not trap on the next header's offset.

@testable import FrameSeekFFmpeg
import Testing

@Suite("The MP4 box walk on stated sizes near 2^63")
struct MP4BoxWalkTests {
    @Test("A box ending within 8 bytes of a stated size of 2^63-1 ends the walk short of the end", arguments: [1, 4, 7, 8])
    func boxNearTheLargestSize(shortBy: Int64) {
        let fileSize = Int64.max
        let boxSize = fileSize - shortBy
        // A `free` box with a 64-bit size at 0; past it nothing is readable.
        var header: [UInt8] = [0, 0, 0, 1] + Array("free".utf8)
        header += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(boxSize) >> (56 - 8 * $0)) }
        var visited: [Int64] = []
        let bodies = MP4SampleTable.mediaDataBodies(
            fileSize: fileSize, using: { offset, count in offset == 0 ? Array(header.prefix(count)) : nil },
            visiting: { visited.append($0.start) })
        #expect(visited == [0])
        // The walk did not reach the end the server stated, so it gives nothing to skip.
        #expect(bodies == nil)
    }
}
