// An MP4's top-level boxes, read here with nothing of FrameSeek's box reader, so that a test of
// what FrameSeek reads from a fragmented MP4 counts the boxes independently.

import Foundation

/// The type and size of each of an MP4's top-level boxes, in file order.
package func topLevelBoxSizes(_ path: String) throws -> [(type: String, size: Int)] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    func bigEndian(_ at: Int, _ count: Int) -> Int { bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) } }
    var boxes: [(type: String, size: Int)] = []
    var offset = 0
    while offset + 8 <= bytes.count {
        let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
        var size = bigEndian(offset, 4)
        if size == 1, offset + 16 <= bytes.count { size = bigEndian(offset + 8, 8) }
        if size == 0 { size = bytes.count - offset }
        guard size >= 8 else { throw OracleError("\(path): box of \(size) bytes at \(offset)") }
        boxes.append((type, size))
        offset += size
    }
    return boxes
}

/// The names of an MP4's top-level boxes, in file order.
package func topLevelBoxes(_ path: String) throws -> [String] { try topLevelBoxSizes(path).map(\.type) }
