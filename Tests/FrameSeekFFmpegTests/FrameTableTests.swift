// The engine's frame table against ffprobe's, and stream selection.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("Frame table versus ffprobe", .ffmpegLog)
struct FrameTableTests {
    @Test("The fixture manifest lists video and audio entries whose files exist")
    func manifestIsReadable() throws {
        let all = FixtureCatalog.all
        #expect(all.count >= 10, "Fixtures/fixtures.json could not be read or is short (\(all.count) entries)")
        #expect(!FixtureCatalog.video.isEmpty)
        #expect(!FixtureCatalog.audio.isEmpty)
        for fixture in all {
            #expect(FileManager.default.fileExists(atPath: fixture.path), "\(fixture.id): \(fixture.path) missing")
        }
    }

    @Test(
        "Same frames, PTS, keyframe flags, durations, packet positions and time base as ffprobe",
        arguments: FixtureCatalog.all)
    func tableMatchesFFprobe(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        let table = engine.frameTable

        #expect(table.streamIndex == fixture.stream)
        #expect(
            Int64(table.timeBase.numerator) == oracle.timeBaseNumerator
                && Int64(table.timeBase.denominator) == oracle.timeBaseDenominator,
            "\(fixture.id): time base \(table.timeBase), probe.json says \(oracle.timeBaseNumerator)/\(oracle.timeBaseDenominator)")
        #expect(table.originPTS == oracle.originPTS, "\(fixture.id): origin PTS (format start_time in the stream time base)")
        #expect(engine.media.selectedStreamIndex == fixture.stream)
        #expect(engine.media.selectedStream.mediaType == (fixture.isVideo ? .video : .audio))
        #expect(table.frames.count == oracle.count, "\(fixture.id): \(table.frames.count) frames, ffprobe has \(oracle.count)")
        guard table.frames.count == oracle.count else { return }

        var mismatches: [String] = []
        for (i, (frame, expected)) in zip(table.frames, oracle.frames).enumerated() {
            var problems: [String] = []
            if frame.index != i { problems.append("index \(frame.index)") }
            if frame.pts != expected.pts { problems.append("pts \(frame.pts) != \(expected.pts)") }
            if frame.isKeyframe != expected.isKey { problems.append("key \(frame.isKeyframe) != \(expected.isKey)") }
            if let duration = expected.packetDuration, frame.durationTicks != duration {
                problems.append("duration \(frame.durationTicks) != ffprobe's \(duration)")
            }
            // Decode-scanned tables know no positions on FFmpeg versions that deprecate the
            // frame's packet position (nil); a position that is known must be ffprobe's.
            if let position = frame.packetPosition, position != expected.packetPosition {
                problems.append("packet position \(position) != ffprobe's \(expected.packetPosition.map(String.init) ?? "none")")
            }
            if frame.time != oracle.time(i) { problems.append("time \(frame.time) != \(oracle.time(i))") }
            if !problems.isEmpty { mismatches.append("frame \(i): " + problems.joined(separator: ", ")) }
        }
        #expect(
            mismatches.isEmpty, "\(fixture.id): \(mismatches.count) frames differ; first: \(mismatches.prefix(5).joined(separator: "; "))")
        #expect(table.keyframeIndices == oracle.keyframes)
    }

    @Test("The framemd5 oracle has one line per ffprobe frame", arguments: FixtureCatalog.video)
    func framemd5MatchesFrameCount(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        #expect(oracle.md5s?.count == oracle.count)
    }
}

@Suite("Stream selection", .ffmpegLog)
struct StreamSelectionTests {
    static let nasa = Repository.fixture("media/nasa_13013.mp4")

    @Test("Without a stream index a video stream is picked, and its table is ffprobe's")
    func defaultStreamIsVideo() throws {
        let engine = try FFmpegEngine(path: Self.nasa, options: .init(streamIndex: nil, threads: 1))
        #expect(engine.media.selectedStream.mediaType == .video)
        let index = engine.frameTable.streamIndex
        #expect(index == 0 || index == 3, "picked stream \(index); the file's video streams are 0 and 3")
        let fixture = try #require(FixtureCatalog.all.first { $0.name == "nasa_13013" && $0.stream == index })
        let oracle = try Oracle(fixture)
        #expect(engine.frameTable.frames.map(\.pts) == oracle.frames.map(\.pts))
    }

    @Test("streamIndex 3 selects the second video stream, not the first")
    func secondVideoStream() throws {
        let engine = try FFmpegEngine(path: Self.nasa, options: .init(streamIndex: 3, threads: 1))
        #expect(engine.frameTable.streamIndex == 3)
        #expect(engine.media.selectedStream.width == 480 && engine.media.selectedStream.height == 270)
    }

    @Test("streamIndex 1 selects the AAC stream, in probe.json's time base")
    func audioStreamByIndex() throws {
        let probe = try JSON.file("oracle/nasa_13013.mp4.probe.json")
        let stream = try #require((probe["streams"] as? [[String: Any]])?.first { JSON.int($0["index"]) == 1 })
        #expect(stream["codec_type"] as? String == "audio")
        let engine = try FFmpegEngine(path: Self.nasa, options: .init(streamIndex: 1, threads: 1))
        #expect(engine.frameTable.streamIndex == 1)
        #expect(engine.media.selectedStream.mediaType == .audio)
        #expect(engine.frameTable.timeBase.description == stream["time_base"] as? String)
        #expect(!engine.frameTable.frames.isEmpty)
    }

    @Test("A subtitle stream or a stream that does not exist is refused", arguments: [2, 5, 99, -1])
    func unavailableStreams(_ index: Int) throws {
        do {
            _ = try FFmpegEngine(path: Self.nasa, options: .init(streamIndex: index, threads: 1))
            Issue.record("stream \(index) opened; expected MediaError.streamUnavailable")
        } catch {
            #expect(error.reason == .streamUnavailable, "stream \(index): \(error.reason) (\(error))")
            #expect(error.path == Self.nasa)
            #expect(error.description.hasPrefix(Self.nasa + ": "))
        }
    }
}
