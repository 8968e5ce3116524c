// A live stream that rotates its EXT-X-MAP sections: the engine keeps the bytes of the maps its
// window names and no others, so the cache cannot grow for as long as the stream runs. The
// truth is the playlist the test wrote: which maps its window names.

import Foundation
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@testable import FrameSeekFFmpeg

@Suite("HLS: the EXT-X-MAP cache", .ffmpegLog)
struct HLSMapCacheTests {
    /// One MPEG-TS null packet (PID 0x1FFF): a map section every TS demuxer passes over.
    static let nullPacket: [UInt8] = [0x47, 0x1F, 0xFF, 0x10] + [UInt8](repeating: 0xFF, count: 184)

    /// A live playlist of segments `positions`, each with a map of its own (map<N>.ts).
    static func writeLive(_ path: String, _ positions: Range<Int>) throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(positions.lowerBound)\n"
        for position in positions {
            text += "#EXT-X-MAP:URI=\"map\(position).ts\"\n#EXTINF:2.000,\n\(Rollover.segmentFile(position))\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Segments 0 to 5 and their maps in a folder, a live engine opened on the window of 0 to
    /// 2, and a function that moves the window to 3 to 5 and reloads.
    static func openLive() throws -> (directory: TemporaryDirectory, engine: HLSEngine, moveWindow: () throws -> Void) {
        let directory = try TemporaryDirectory()
        try Rollover.copySegments(0..<6, into: directory)
        for position in 0..<6 {
            try Data(Self.nullPacket).write(to: URL(fileURLWithPath: directory.file("map\(position).ts")))
        }
        let playlist = directory.file("live.m3u8")
        try Self.writeLive(playlist, 0..<3)
        let engine = try HLSEngine(url: playlist)
        return (
            directory, engine,
            {
                try Self.writeLive(playlist, 3..<6); _ = try engine.reloadPlaylist()
            }
        )
    }

    @Test("A reload that moves the window drops the maps no segment of it names")
    func rotatingMapsAreEvicted() throws {
        let (directory, engine, moveWindow) = try Self.openLive()
        defer { withExtendedLifetime(directory) {} }
        let names = { Set(engine.mapSections.sections.keys.map(\.uri.lastPathComponent)) }
        #expect(names() == ["map0.ts", "map1.ts", "map2.ts"])
        try moveWindow()
        #expect(names() == ["map3.ts", "map4.ts", "map5.ts"], "after the window moved: \(names().sorted())")
        // Every segment of the window still reads: the maps it names are the ones kept.
        #expect(engine.media.missingData.isEmpty, "\(engine.media.missingData)")
    }

    @Test("The maps kept stay within the cache's limit even when the window names more")
    func mapsStayWithinTheLimit() throws {
        let (directory, engine, moveWindow) = try Self.openLive()
        defer { withExtendedLifetime(directory) {} }
        // Room for two of the window's three 188-byte maps.
        engine.mapSections.limit = 2 * Self.nullPacket.count
        try moveWindow()
        let sections = engine.mapSections.sections
        let kept = sections.values.reduce(0) { $0 + $1.count }
        #expect(kept <= engine.mapSections.limit && !sections.isEmpty, "\(kept) bytes in \(sections.count) maps")
        #expect(engine.mapSections.byteCount == kept)
        // Maps dropped from the cache are fetched again: every segment of the window reads.
        #expect(engine.media.missingData.isEmpty, "\(engine.media.missingData)")
    }
}
