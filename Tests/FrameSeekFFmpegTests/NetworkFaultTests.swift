// Playlists read from an origin that fails on purpose (scripts/range-http-server.py --faults):
// each fault kind at the first, a middle and the last segment of a four-segment VOD window of
// the rollover fixture. The truth is the fault-free window: 48 frames a segment at 24 fps,
// and ffmpeg's decode of each segment for the pixels.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Network faults", .ownThread, .ffmpegLog)
struct NetworkFaultTests {
    /// The first, a middle and the last of four segments.
    static let positions = [0, 1, 3]

    /// The rollover fixture's first four segments and a VOD playlist of them, served with `faults`.
    static func serve(faults: String, into directory: TemporaryDirectory) throws -> HTTPServer {
        try Rollover.copySegments(0..<4, into: directory)
        try writePlaylist(directory.file("vod.m3u8"), (0..<4).map(Rollover.entry), targetDuration: 2, endList: true)
        return try HTTPServer(directory: directory.path, arguments: ["--faults", faults])
    }

    static func seconds(_ value: Int) -> MediaTime { MediaTime(value: Int64(value), timescale: 1) }

    @Test(
        "A request that fails once is made again, and the window reads as if nothing had failed",
        arguments: ["503", "500", "408", "429", "404", "cut", "reset", "stall:1.5"], positions)
    func failsOnce(kind: String, position: Int) throws {
        let directory = try TemporaryDirectory()
        let segment = Rollover.segmentFile(position)
        let server = try Self.serve(
            faults: #"{"rules": [{"path": "\#(segment)", "kind": "\#(kind)", "times": 1}]}"#,
            into: directory)
        defer { server.stop() }
        let engine = try HLSEngine(url: "http://127.0.0.1:\(server.port)/vod.m3u8")
        let context = "\(kind) once at segment \(position)"
        #expect(engine.frameTable.frames.count == 4 * Rollover.framesPerSegment, "\(context)")
        #expect(engine.frameTable.missingData.isEmpty, "\(context): \(engine.frameTable.missingData)")
        let stats = try server.requestsAndFaults()
        #expect(stats.faults[kind] == 1, "\(context): \(stats.faults)")
        // A stall is answered in the end (within the read timeout): one request. The rest, two.
        #expect(stats.paths[segment] == (kind.hasPrefix("stall") ? 1 : 2), "\(context): \(stats.paths)")
        let md5s = try Rollover.segmentMD5s(position..<(position + 1))
        try expectLanding(
            engine, at: Self.seconds(2 * position + 1), frame: position * Rollover.framesPerSegment + 24,
            md5: md5s[0][24], context)
    }

    @Test(
        "A segment that keeps failing is missing data at its place in the playlist: flagged, never a clamp",
        arguments: ["404", "403", "503", "cut"], positions)
    func keepsFailing(kind: String, position: Int) throws {
        let directory = try TemporaryDirectory()
        let segment = Rollover.segmentFile(position)
        let server = try Self.serve(faults: #"{"rules": [{"path": "\#(segment)", "kind": "\#(kind)"}]}"#, into: directory)
        defer { server.stop() }
        let engine = try HLSEngine(url: "http://127.0.0.1:\(server.port)/vod.m3u8")
        let context = "\(kind) always at segment \(position)"
        let table = engine.frameTable
        #expect(table.frames.count == 3 * Rollover.framesPerSegment, "\(context)")
        let hole = try #require(table.missingData.first, "\(context): no missing data")
        #expect(table.missingData.count == 1)
        // The segment's EXTINF span, where the playlist puts it.
        #expect(hole.start == Self.seconds(2 * position) && hole.end == Self.seconds(2 * position + 2), "\(context): \(hole)")
        #expect(hole.evidence.contains(segment), "\(context): \(hole.evidence)")
        #expect(hole.evidence.contains(["503": "5XX", "cut": "ends prematurely"][kind] ?? kind), "\(context): \(hole.evidence)")
        #expect(engine.media.truncation == nil, "\(context): a hole is not a truncation")
        let landing = try engine.seek(to: Self.seconds(2 * position + 1), precision: .exact)
        #expect(landing.damaged && landing.missingData == hole, "\(context)")
        #expect(landing.plan.clamp == .none, "\(context): reported as a clamp")
        // Frames before the hole keep their numbers; after it they are numbered by what was read.
        let firstAfter = position == 0 ? 0 : position * Rollover.framesPerSegment
        if firstAfter < table.frames.count { #expect(table.missingData(before: firstAfter) == hole, "\(context)") }
        if position > 0 { #expect(table.missingData(before: firstAfter - 1) == nil, "\(context)") }
        // 403 is never asked again, 404 once more (live origins publish late), a 5xx or a body
        // cut short until the retries run out.
        let asked = try server.requestsAndFaults().paths[segment]
        #expect(
            asked == ["403": 1, "404": 2, "503": 1 + NetworkPolicy().retries, "cut": 1 + NetworkPolicy().retries][kind],
            "\(context): asked \(asked ?? 0) times")
        // Around the hole, the intact segments land with ffmpeg's pixels of the intact stream:
        // after a lost first segment, before a lost last one, on either side of a middle one.
        for intact in 0..<4 where intact != position {
            let landing = try engine.seek(to: Self.seconds(2 * intact + 1), precision: .exact)
            let framesBefore = (intact < position ? intact : intact - 1) * Rollover.framesPerSegment
            #expect(landing.frame.index == framesBefore + 24, "\(context): segment \(intact)")
            #expect(!landing.damaged, "\(context): segment \(intact) damaged")
            let md5 = try Rollover.segmentMD5s(intact..<(intact + 1))[0][24]
            #expect(try engine.landedPicture()?.md5 == md5, "\(context): segment \(intact)'s MD5 differs from ffmpeg's")
        }
    }
}
