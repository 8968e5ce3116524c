// The HLS engine on playlists the tests write: segments of two encodes joined across
// EXT-X-DISCONTINUITY, a playlist without dates, and a segment that is missing and comes back.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("HLS engine: discontinuities, dates, missing segments", .ffmpegLog)
struct HLSPlaylistEngineTests {
    @Test("segments of two encodes across a discontinuity: every frame once, times continue, ffmpeg's MD5 on both sides")
    func discontinuity() throws {
        let directory = try TemporaryDirectory()
        // The TS starts at PTS 11.4 s; the MP4's cut starts near 1.4 s (ffmpeg's TS muxer
        // offset): the second source's timestamps go back across the discontinuity.
        let first = try hlsCut(Repository.fixture("media/h264_mpegts_offset.ts"), into: directory, prefix: "a")
        var second = try hlsCut(Repository.fixture("media/h264_bframes_gop250.mp4"), into: directory, prefix: "b")
        #expect(first.count >= 2 && second.count >= 2)
        second[0].discontinuity = true
        let entries = first + second
        let target = Int(entries.map { Double($0.duration)! }.max()!.rounded(.up))
        try writePlaylist(directory.file("joined.m3u8"), entries, targetDuration: target, endList: true)
        let perSegment = try entries.map { try ffmpegVideoMD5s(directory.file($0.uri)) }
        let md5s = perSegment.flatMap { $0 }

        // ffmpeg's own VOD playlist of the cut has no EXT-X-PROGRAM-DATE-TIME.
        let vod = try HLSEngine(url: directory.file("b.m3u8"))
        #expect(!vod.liveSeekWindow.isDateAddressable && !vod.liveSeekWindow.isLive)
        #expect(vod.frameTable.frames.count == perSegment[first.count...].reduce(0) { $0 + $1.count })

        let engine = try HLSEngine(url: directory.file("joined.m3u8"))
        let table = engine.frameTable
        #expect(table.frames.count == md5s.count)
        #expect(!engine.liveSeekWindow.isDateAddressable)
        #expect(engine.landedDate == nil)
        // Each segment's first frame sits at the sum of the EXTINF durations before it, rounded
        // down to the table's 1/90000 s tick (the EXTINFs here have six decimals).
        var firstIndex = 0
        let tick = table.timeBase.time(ofTicks: 1)
        for (position, segment) in engine.liveSeekWindow.segments.enumerated() {
            let time = table.frames[firstIndex].time
            #expect(time <= segment.start && segment.start - time < tick, "segment \(position) starts at \(segment.start), not \(time)")
            firstIndex += perSegment[position].count
        }
        // Around the discontinuity, and a frame in the middle of each segment.
        let boundary = perSegment[..<first.count].reduce(0) { $0 + $1.count }
        var indices = Array((boundary - 3)...(boundary + 3))
        var start = 0
        for segment in perSegment {
            indices.append(start + segment.count / 2)
            start += segment.count
        }
        for index in indices {
            try expectLanding(engine, at: middle(of: index, in: table), frame: index, md5: md5s[index], "frame \(index)")
            try expectLanding(engine, at: table.frames[index].time, frame: index, md5: md5s[index], "frame \(index) start")
        }
        // Steps across the discontinuity both ways.
        _ = try engine.seek(to: table.frames[boundary - 1].time, precision: .exact)
        #expect(engine.step(.forward).frame?.index == boundary)
        #expect(try engine.landedPicture()?.md5 == md5s[boundary])
        #expect(engine.step(.backward).frame?.index == boundary - 1)
        #expect(try engine.landedPicture()?.md5 == md5s[boundary - 1])
    }

    @Test("a missing middle segment is missing data; a seek into it is damaged; after a reload it is indexed")
    func missingSegment() throws {
        let directory = try TemporaryDirectory()
        try Rollover.copySegments(0..<2, into: directory)
        try Rollover.copySegments(3..<5, into: directory)
        let playlist = directory.file("live.m3u8")
        try writePlaylist(playlist, (0..<5).map(Rollover.entry), targetDuration: 2, endList: false)
        let md5s = try Rollover.segmentMD5s(0..<5)

        let engine = try HLSEngine(url: playlist)
        #expect(engine.frameTable.frames.count == 4 * Rollover.framesPerSegment)
        let hole = try #require(engine.media.missingData.first)
        #expect(engine.media.missingData.count == 1)
        #expect(hole.afterFrame == 2 * Rollover.framesPerSegment - 1)
        #expect(hole.start == MediaTime(value: 4, timescale: 1) && hole.end == MediaTime(value: 6, timescale: 1))
        #expect(hole.evidence.contains(Rollover.segmentFile(2)), "\(hole.evidence)")
        let into = try engine.seek(to: MediaTime(value: 5, timescale: 1), precision: .exact)
        #expect(into.damaged && into.missingData == hole && !into.accuracy.withinRequestedTolerance)
        // The frame after the hole is clean, with ffmpeg's MD5.
        try expectLanding(
            engine, at: MediaTime(value: 6, timescale: 1), frame: 2 * Rollover.framesPerSegment,
            md5: md5s[3][0], "after the hole")

        try Rollover.copySegments(2..<3, into: directory)
        #expect(try engine.reloadPlaylist())
        #expect(engine.media.missingData.isEmpty)
        #expect(engine.frameTable.frames.count == 5 * Rollover.framesPerSegment)
        // The landed frame (segment 3's first) kept its place as frames were inserted before it.
        #expect(engine.currentFrameIndex == 3 * Rollover.framesPerSegment)
        try expectLanding(engine, at: MediaTime(value: 5, timescale: 1), frame: 120, md5: md5s[2][24], "recovered")
    }

    @Test("a file:// URL opens as its path does; a missing playlist fails naming it")
    func fileURLs() throws {
        let url = URL(fileURLWithPath: Rollover.playlist).absoluteString
        let engine = try HLSEngine(url: url)
        #expect(engine.frameTable.frames.count == Rollover.framesPerSegment * Rollover.segmentCount)
        #expect(engine.media.path == url)
        #expect {
            _ = try HLSEngine(url: Rollover.directory + "/no-such.m3u8")
        } throws: { error in
            guard let error = error as? MediaError else { return false }
            return error.reason == .readFailed && error.cause.contains("no-such.m3u8")
        }
    }

    @Test("an open fails only when no segment can be read, naming the cause")
    func nothingReadable() throws {
        let directory = try TemporaryDirectory()
        let playlist = directory.file("empty.m3u8")
        try writePlaylist(playlist, (0..<2).map(Rollover.entry), targetDuration: 2, endList: true)
        #expect {
            _ = try HLSEngine(url: playlist)
        } throws: { error in
            guard let error = error as? MediaError else { return false }
            return error.reason == .noPlayableStream && error.cause.contains(Rollover.segmentFile(0))
        }
    }
}
