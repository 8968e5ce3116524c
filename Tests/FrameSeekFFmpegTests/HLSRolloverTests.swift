// The HLS engine on a real stream whose 33-bit MPEG-TS timestamps wrap inside its fifth
// segment (shaka-player's hls-ts-rollover): every frame is ffmpeg's decode of the playlist, in
// order, each segment starts where the playlist says, and seeks and steps cross the wrap.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("HLS engine: rollover playlist", .serialized, .ffmpegLog)
struct HLSRolloverTests {
    let engine: HLSEngine
    /// `ffmpeg -i playlist.m3u8 -f framemd5`: the n-th line is the n-th frame in presentation
    /// order. ffmpeg's HLS timestamps differ from the playlist's timeline, so order is the key.
    let md5s: [String]

    init() throws {
        engine = try HLSEngine(url: Rollover.playlist)
        md5s = try ffmpegVideoMD5s(Rollover.playlist)
    }

    @Test("480 frames, 1/24 s apart, each segment's first frame at k x 2 s, a keyframe")
    func frameTable() throws {
        let table = engine.frameTable
        #expect(md5s.count == 480)
        #expect(table.frames.count == md5s.count)
        for frame in table.frames {
            #expect(frame.pts == Int64(frame.index) * Rollover.frameTicks, "frame \(frame.index) pts \(frame.pts)")
        }
        for segment in 0..<Rollover.segmentCount {
            let first = table.frames[segment * Rollover.framesPerSegment]
            #expect(first.time == MediaTime(value: Int64(2 * segment), timescale: 1))
            #expect(first.isKeyframe)
        }
        #expect(engine.media.container == "hls")
        #expect(engine.media.duration == MediaTime(value: 20, timescale: 1))
        #expect(engine.media.missingData.isEmpty)
        #expect(engine.reloadDelay == nil)
        #expect(!engine.liveSeekWindow.isLive)
    }

    @Test("exact seeks to each segment's start land on its first frame with ffmpeg's MD5")
    func segmentStarts() throws {
        for segment in 0..<Rollover.segmentCount {
            let index = segment * Rollover.framesPerSegment
            try expectLanding(
                engine, at: MediaTime(value: Int64(2 * segment), timescale: 1), frame: index,
                md5: md5s[index], "segment \(segment) start")
        }
    }

    @Test("exact seeks to the middle of every frame of segments 27-29 (both sides of the wrap)")
    func acrossTheWrap() throws {
        for index in (3 * Rollover.framesPerSegment)..<(6 * Rollover.framesPerSegment) {
            try expectLanding(
                engine, at: middle(of: index, in: engine.frameTable), frame: index, md5: md5s[index],
                "frame \(index)")
        }
    }

    @Test("exact seeks to a random sample of frames elsewhere")
    func randomSample() throws {
        var generator = SeededGenerator(seed: 12)
        let elsewhere = Array(0..<144) + Array(288..<480)
        let sample = (0..<40).map { _ in elsewhere.randomElement(using: &generator)! }
        for index in sample {
            try expectLanding(
                engine, at: middle(of: index, in: engine.frameTable), frame: index, md5: md5s[index],
                "frame \(index)")
        }
    }

    @Test("steps forward across every segment boundary and backward across the wrap")
    func steps() throws {
        for segment in 1..<Rollover.segmentCount {
            let first = segment * Rollover.framesPerSegment
            _ = try engine.seek(to: engine.frameTable.frames[first - 2].time, precision: .exact)
            for expected in (first - 1)...(first + 1) {
                let report = engine.step(.forward)
                #expect(report.result.didStep && report.frame?.index == expected, "forward to \(expected)")
                #expect(try engine.landedPicture()?.md5 == md5s[expected], "forward step to \(expected)")
            }
        }
        // The wrap: in segment 28 (the fifth) ffmpeg's PTS pass 2^33 at its 42nd frame.
        let wrap = 4 * Rollover.framesPerSegment + 41
        _ = try engine.seek(to: engine.frameTable.frames[wrap + 3].time, precision: .exact)
        for expected in stride(from: wrap + 2, through: 4 * Rollover.framesPerSegment - 2, by: -1) {
            let report = engine.step(.backward)
            #expect(report.result.didStep && report.frame?.index == expected, "backward to \(expected)")
            #expect(try engine.landedPicture()?.md5 == md5s[expected], "backward step to \(expected)")
        }
        #expect(engine.currentFrameIndex == 4 * Rollover.framesPerSegment - 2)
    }

    @Test("dates: the playlist is date-addressable and a landing carries its date")
    func dates() throws {
        let window = engine.liveSeekWindow
        #expect(window.isDateAddressable)
        _ = try engine.seek(to: MediaTime(value: 3, timescale: 1), precision: .exact)
        let expected = try ProgramDate(parsing: "2024-03-04T23:02:20.684Z")
        #expect(engine.landedDate == expected)
        if case .success(let time) = window.time(forDate: expected) {
            #expect(time == MediaTime(value: 3, timescale: 1))
        } else {
            Issue.record("date not in window")
        }
    }
}
