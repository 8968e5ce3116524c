// The cluster headers MatroskaClusterBisection reads: against the packets ffprobe lists in a
// Matroska file muxed here (each cluster's timestamp is its first block's PTS, and that block
// starts after the cluster's header), and against hostile bytes, which must give nil, never
// a trap.

import Foundation
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Matroska clusters found by their headers", .ffmpegLog)
struct MatroskaClusterBisectionTests {
    @Test("Every cluster found in a file muxed to a pipe starts just before a block whose PTS is its timestamp")
    func clustersAgreeWithFFprobe() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("recording.mkv")
        try runTool([
            "sh", "-c",
            "ffmpeg -nostdin -v error -f lavfi -i testsrc2=size=320x240:rate=25:duration=20 -c:v libx264 -preset veryfast "
                + "-g 50 -bf 2 -pix_fmt yuv420p -f matroska - > \"$0\"", path
        ])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var clusters: [(position: Int, timestamp: Int64)] = []
        var offset = 0
        while let (index, timestamp) = MatroskaClusterBisection.firstClusterHeader(
            in: Array(bytes[offset...]), before: bytes.count - offset)
        {
            clusters.append((offset + index, timestamp))
            offset += index + 4
        }
        let packets = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,pos", "-of", "csv=p=0", path
        ]).split(whereSeparator: \.isNewline).compactMap { line -> (pts: Int64, position: Int)? in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let pts = Int64(fields[0]), let position = Int(fields[1]) else { return nil }
            return (pts, position)
        }
        try #require(packets.count == 500 && clusters.count > 10, "\(packets.count) packets, \(clusters.count) clusters")
        for (n, cluster) in clusters.enumerated() {
            let next = n + 1 < clusters.count ? clusters[n + 1].position : bytes.count
            let first = packets.filter { $0.position > cluster.position && $0.position < next }.min { $0.position < $1.position }
            #expect(first?.pts == cluster.timestamp, "cluster \(n) at \(cluster.position)")
            #expect(first.map { $0.position - cluster.position < 64 } == true, "cluster \(n) at \(cluster.position)")
        }
        // Every packet lies in a cluster found.
        #expect(packets.allSatisfy { $0.position > clusters[0].position })
    }

    @Test("Headers: the size known or not, a CRC-32 first, the timestamp's own length; anything else is no cluster")
    func headers() {
        let id: [UInt8] = [0x1F, 0x43, 0xB6, 0x75]
        let knownSize: [UInt8] = [0x01, 0, 0, 0, 0, 0, 0x12, 0x34]
        let unknownSize: [UInt8] = [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(MatroskaClusterBisection.firstClusterHeader(in: id + knownSize + [0xE7, 0x81, 0x05], before: 1)?.timestamp == 5)
        #expect(MatroskaClusterBisection.firstClusterHeader(in: id + unknownSize + [0xE7, 0x82, 0x01, 0x00], before: 1)?.timestamp == 256)
        let crc: [UInt8] = [0xBF, 0x84, 1, 2, 3, 4]
        #expect(MatroskaClusterBisection.firstClusterHeader(in: id + [0x83] + crc + [0xE7, 0x81, 0x07], before: 1)?.timestamp == 7)
        // A false ID in the payload, then a real one.
        let bytes = [0x00] + id + [0x00, 0x00] + id + [0x90, 0xE7, 0x81, 0x09]
        #expect(MatroskaClusterBisection.firstClusterHeader(in: bytes, before: bytes.count).map { [$0.index, Int($0.timestamp)] } == [7, 9])
        // Not below the limit.
        #expect(MatroskaClusterBisection.firstClusterHeader(in: bytes, before: 7) == nil)
        let hostile: [[UInt8]] = [
            [], id, id + [0x00], id + [0x81], id + [0x81, 0xE7], id + [0x81, 0xE7, 0x89] + Array(repeating: 0xFF, count: 9),
            id + [0x81, 0xE7, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], id + [0x81, 0xE7, 0x84, 0x01],
            id + [0x01, 0xFF], Array(repeating: 0xFF, count: 64), id + [0x81, 0xBF, 0x84, 1]
        ]
        for bytes in hostile {
            #expect(MatroskaClusterBisection.firstClusterHeader(in: bytes, before: bytes.count) == nil, "\(bytes)")
        }
    }

    @Test("A SeekHead entry naming the Cues is found in ffmpeg's Matroska, and not in one muxed to a pipe")
    func seekHead() throws {
        let directory = try TemporaryDirectory()
        let seekable = directory.file("seekable.mkv"), piped = directory.file("piped.mkv")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=4", "-c:v", "libx264",
            "-preset", "veryfast", seekable
        ])
        try runTool(["sh", "-c", "ffmpeg -nostdin -v error -i \"$0\" -c copy -f matroska - > \"$1\"", seekable, piped])
        let head = { (path: String) in [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()).prefix(64 * 1024) }
        #expect(MatroskaClusterBisection.seekHeadListsCues(Array(head(seekable))))
        #expect(!MatroskaClusterBisection.seekHeadListsCues(Array(head(piped))))
    }
}
