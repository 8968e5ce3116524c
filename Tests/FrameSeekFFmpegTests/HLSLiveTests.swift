// A live playlist that the test grows and slides while the engine reloads it: from files, and
// the same served over HTTP by a real server on 127.0.0.1, with one segment request failing.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("HLS engine: live playlists", .serialized, .ffmpegLog)
struct HLSLiveTests {
    static let two = MediaTime(value: 2, timescale: 1)

    /// Writes the live playlist of rollover segments `positions`, their first as MEDIA-SEQUENCE.
    func writeWindow(_ path: String, _ positions: Range<Int>, endList: Bool = false) throws {
        try writePlaylist(
            path, positions.map(Rollover.entry), mediaSequence: positions.lowerBound,
            targetDuration: 2, endList: endList)
    }

    /// A directory holding rollover `segments` and `playlist.m3u8` listing `window` live, with
    /// ffmpeg's MD5s of each segment.
    func liveDirectory(segments: Range<Int>, window: Range<Int>) throws -> (TemporaryDirectory, [[String]]) {
        let directory = try TemporaryDirectory()
        try Rollover.copySegments(segments, into: directory)
        try writeWindow(directory.file("playlist.m3u8"), window)
        return (directory, try Rollover.segmentMD5s(segments))
    }

    @Test("the window slides on reload: kept times stay, new frames seek with ffmpeg's MD5, dropped ones clamp")
    func slidingFromFiles() throws {
        let (directory, md5s) = try liveDirectory(segments: 0..<6, window: 0..<3)
        let playlist = directory.file("playlist.m3u8")
        let perSegment = Rollover.framesPerSegment

        let engine = try HLSEngine(url: playlist)
        #expect(engine.liveSeekWindow.isLive)
        #expect(engine.frameTable.frames.count == 3 * perSegment)
        #expect(engine.reloadDelay == Self.two)
        _ = try engine.seek(to: MediaTime(value: 5, timescale: 1), precision: .exact)
        #expect(engine.currentFrameIndex == 120)

        // Unchanged: half the target duration.
        #expect(try engine.reloadPlaylist() == false)
        #expect(engine.reloadDelay == MediaTime(value: 1, timescale: 1))

        // Slide by one: segment 0 leaves, segment 3 arrives.
        try writeWindow(playlist, 1..<4)
        #expect(try engine.reloadPlaylist())
        #expect(engine.reloadDelay == Self.two)
        let window = engine.liveSeekWindow
        #expect(window.seekableRange == Self.two..<MediaTime(value: 8, timescale: 1))
        #expect(engine.frameTable.frames.count == 3 * perSegment)
        #expect(engine.frameTable.frames[0].time == Self.two, "segment 1 keeps its start")
        #expect(engine.currentFrameIndex == 120 - perSegment, "the landed frame follows its segment")
        try expectLanding(
            engine, at: MediaTime(value: 7, timescale: 1), frame: 2 * perSegment + 24,
            md5: md5s[3][24], "new segment")
        let before = try engine.seek(to: MediaTime(value: 1, timescale: 1), precision: .exact)
        #expect(before.plan.clamp == .clampedToStart(Self.two), "segment 0 is no longer seekable")
        #expect(before.frame.index == 0)
        #expect(try engine.landedPicture()?.md5 == md5s[1][0])

        // Slide by two, then the playlist ends.
        try writeWindow(playlist, 3..<6, endList: true)
        #expect(try engine.reloadPlaylist())
        #expect(engine.reloadDelay == nil)
        #expect(engine.currentFrameIndex == nil, "the landed segment left the window")
        #expect(engine.liveSeekWindow.seekableRange == MediaTime(value: 6, timescale: 1)..<MediaTime(value: 12, timescale: 1))
        try expectLanding(
            engine, at: MediaTime(value: 11, timescale: 1), frame: 2 * perSegment + 24,
            md5: md5s[5][24], "after the end")
    }

    @Test(
        "A reload listing another segment under a known Media Sequence Number is refused; the window and its frames stay",
        arguments: [
            ("another URI", PlaylistEntry(uri: Rollover.segmentFile(3), duration: "2.000000")),
            ("another duration", PlaylistEntry(uri: Rollover.segmentFile(0), duration: "1.5"))
        ])
    func changedSegmentOnReload(change: String, replacement: PlaylistEntry) throws {
        let (directory, md5s) = try liveDirectory(segments: 0..<4, window: 0..<2)
        // Every load after the first gets changed.m3u8: segment 0 replaced, segment 2 added.
        try writePlaylist(
            directory.file("changed.m3u8"), [replacement, Rollover.entry(1), Rollover.entry(2)], targetDuration: 2,
            endList: false)
        let server = try HTTPServer(
            directory: directory.path,
            arguments: ["--faults", #"{"rules": [{"path": "playlist.m3u8", "kind": "as:changed.m3u8", "after": 1}]}"#])
        defer { server.stop() }
        let engine = try HLSEngine(url: "http://127.0.0.1:\(server.port)/playlist.m3u8")
        let window = engine.liveSeekWindow
        #expect(throws: MediaError.self, "\(change)") { try engine.reloadPlaylist() }
        #expect(try server.requestsAndFaults().paths["playlist.m3u8"] == 2, "\(change): the reload fetched the playlist")
        #expect(engine.liveSeekWindow == window, "\(change)")
        try expectLanding(
            engine, at: MediaTime(value: 1, timescale: 1), frame: 24, md5: md5s[0][24], "\(change): segment 0 as first listed")
        try expectLanding(engine, at: MediaTime(value: 3, timescale: 1), frame: 72, md5: md5s[1][24], "\(change): segment 1")
    }

    @Test("over HTTP from python3 -m http.server: seek, grow, and a 404 segment as missing data")
    func overHTTP() throws {
        let (directory, md5s) = try liveDirectory(segments: 0..<5, window: 0..<3)
        let playlist = directory.file("playlist.m3u8")
        let server = try HTTPServer(directory: directory.path)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/playlist.m3u8"

        let engine = try HLSEngine(url: url)
        #expect(engine.media.path == url)
        #expect(engine.frameTable.frames.count == 3 * Rollover.framesPerSegment)
        try expectLanding(engine, at: MediaTime(value: 3, timescale: 1), frame: 72, md5: md5s[1][24], "over HTTP")

        // Grow by two segments, one of which the server no longer has.
        try FileManager.default.removeItem(atPath: directory.file(Rollover.segmentFile(3)))
        try writeWindow(playlist, 0..<5)
        #expect(try engine.reloadPlaylist())
        #expect(engine.frameTable.frames.count == 4 * Rollover.framesPerSegment)
        let hole = try #require(engine.media.missingData.first)
        let missingURL = "http://127.0.0.1:\(server.port)/\(Rollover.segmentFile(3))"
        #expect(hole.evidence.contains(missingURL) && hole.evidence.contains("404"), "\(hole.evidence)")
        #expect(hole.start == MediaTime(value: 6, timescale: 1) && hole.end == MediaTime(value: 8, timescale: 1))
        let into = try engine.seek(to: MediaTime(value: 7, timescale: 1), precision: .exact)
        #expect(into.damaged && into.missingData == hole)
        try expectLanding(
            engine, at: MediaTime(value: 9, timescale: 1), frame: 3 * Rollover.framesPerSegment + 24,
            md5: md5s[4][24], "after the 404")
    }
}
