// Storyboards are written as whole sets: temporary names renamed into place, earlier sets
// replaced without touching other files, a failed run leaving the previous set as it was;
// and the limits on counts and sheet sizes hold before anything is allocated.

import Foundation
import FrameSeekFFmpeg
@testable import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("Thumbnails: whole sets and limits", .ffmpegLog)
struct StoryboardOutputTests {
    static func names(_ directory: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
    }

    static func thumbnails(_ count: Int) throws -> [Thumbnail] {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let times = (0..<count).map { MediaTime(value: Int64($0), timescale: 1) }
        return try makeGenerator(fixture, size: (32, 18)).thumbnails(at: times)
    }

    @Test("A new set replaces an earlier one: stale pictures go, other files stay, no temporary file remains")
    func replacesEarlierSet() throws {
        let directory = try temporaryDirectory("replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let others = ["notes.txt", "thumb-abc.png", "sheet-1.png", "thumb-0001.jpg", "my-storyboard.json"]
        for name in others { try Data("keep".utf8).write(to: directory.appendingPathComponent(name)) }
        let five = try Self.thumbnails(5)
        _ = try Storyboard.write(five, duration: MediaTime(value: 12, timescale: 1), to: directory.path, withTrack: true)
        #expect(
            try Self.names(directory)
                == Set(
                    others + [
                        "thumb-0001.png", "thumb-0002.png", "thumb-0003.png", "thumb-0004.png",
                        "thumb-0005.png", "thumbnails.vtt", "storyboard.json"
                    ]))
        _ = try Storyboard.write(
            Array(five.prefix(2)), duration: MediaTime(value: 12, timescale: 1), to: directory.path,
            columns: 4, rows: 4, withTrack: true)
        #expect(try Self.names(directory) == Set(others + ["sheet-001.png", "thumbnails.vtt", "storyboard.json"]))
        for name in others {
            #expect(try Data(contentsOf: directory.appendingPathComponent(name)) == Data("keep".utf8), "\(name) was touched")
        }
        // Sized to its two tiles, not to the 4x4 grid.
        #expect(
            try pngDimensions(directory.appendingPathComponent("sheet-001.png").path) == (2 * five[0].image.width, five[0].image.height))
    }

    @Test("A run that fails part-way leaves the previous set as it was and no temporary file")
    func failedRunKeepsPreviousSet() throws {
        let directory = try temporaryDirectory("interrupted")
        defer { try? FileManager.default.removeItem(at: directory) }
        let three = try Self.thumbnails(3)
        _ = try Storyboard.write(three, duration: MediaTime(value: 12, timescale: 1), to: directory.path, withTrack: true)
        var before: [String: Data] = [:]
        for name in try Self.names(directory) { before[name] = try Data(contentsOf: directory.appendingPathComponent(name)) }
        // The fourth picture cannot be encoded (libpng refuses a zero height): the run fails
        // after three new pictures were written, as a run killed there would stop.
        let broken = Thumbnail(
            requestedTime: MediaTime(value: 4, timescale: 1), actualTime: .zero, frameIndex: 0,
            fromKeyframeOnly: true, image: RGBImage(width: 1, height: 0, pixels: []))
        let later = Array(three.reversed()) + [broken, three[0]]
        #expect(throws: (any Error).self) {
            _ = try Storyboard.write(later, duration: MediaTime(value: 12, timescale: 1), to: directory.path, withTrack: true)
        }
        var after: [String: Data] = [:]
        for name in try Self.names(directory) { after[name] = try Data(contentsOf: directory.appendingPathComponent(name)) }
        #expect(after == before)
    }

    @Test("Leftover temporary files of a finished, interrupted run are removed by the next run; others' are not")
    func leftoverTemporaries() throws {
        let directory = try temporaryDirectory("leftover")
        defer { try? FileManager.default.removeItem(at: directory) }
        // 999999999 is above any pid_max: that process is gone. Process 1 is alive.
        let leftover = OutputFile.temporaryPrefix + "999999999-456-thumb-0009.png"
        let foreign = OutputFile.temporaryPrefix + "999999999-456-holiday.png"
        let running = OutputFile.temporaryPrefix + "1-456-thumb-0009.png"
        for name in [leftover, foreign, running] { try Data().write(to: directory.appendingPathComponent(name)) }
        _ = try Storyboard.write(try Self.thumbnails(1), duration: MediaTime(value: 12, timescale: 1), to: directory.path)
        #expect(try Self.names(directory) == ["thumb-0001.png", foreign, running])
    }

    @Test("Sheet sizes: sized to the tiles held, overflow-checked")
    func sheetSizes() {
        #expect(Storyboard.sheetSize(tiles: 3, columns: 100, tileWidth: 160, tileHeight: 90)! == (480, 90))
        #expect(Storyboard.sheetSize(tiles: 7, columns: 3, tileWidth: 10, tileHeight: 5)! == (30, 15))
        #expect(Storyboard.sheetSize(tiles: Int.max, columns: 1, tileWidth: 2, tileHeight: 2) == nil)
    }

    @Test(
        "Limits: more than 100000 thumbnails, or a sheet side over 16384 px, is refused",
        arguments: [
            (100_001, nil, nil, false), (100_000, nil, nil, true), (1000, 1000, 1000, false),
            (3, 1_000_000_000, 1_000_000_000, true), (102, 102, 1, true), (103, 103, 1, false),
            (100_000, Int.max, Int.max, false), (10, Int.max, 1, true)
        ] as [(Int, Int?, Int?, Bool)])
    func limits(_ count: Int, _ columns: Int?, _ rows: Int?, _ allowed: Bool) {
        // Tiles of 160x90: 102 side by side are 16320 px, 103 are 16480.
        let refused = (try? Storyboard.checkLimits(count: count, tileWidth: 160, tileHeight: 90, columns: columns, rows: rows)) == nil
        #expect(refused != allowed)
    }

    @Test("Pictures held for one run are bounded: 100000 of 160x90 pass, 1000 of 8192x8192 do not")
    func memoryBound() {
        #expect((try? Storyboard.checkLimits(count: 100_000, tileWidth: 160, tileHeight: 90, columns: nil, rows: nil)) != nil)
        #expect((try? Storyboard.checkLimits(count: 1000, tileWidth: 8192, tileHeight: 8192, columns: nil, rows: nil)) == nil)
        #expect((try? Storyboard.checkLimits(count: 100_000, tileWidth: Int.max, tileHeight: Int.max, columns: nil, rows: nil)) == nil)
    }

    @Test(
        "Full sheets (--hls, --dash) are checked at their whole grid, however few tiles there are",
        arguments: [
            (3, 100, 100, 320, 180, false), (3, 316, 316, 1920, 1080, false), (3, 400, 400, 1, 1, false),
            (3, 100_001, 1, 1, 1, false), (3, Int.max, 2, 1, 1, false), (30, 5, 4, 160, 90, true), (3, 102, 1, 160, 90, true)
        ] as [(Int, Int, Int, Int, Int, Bool)])
    func fullSheetLimits(_ count: Int, _ columns: Int, _ rows: Int, _ width: Int, _ height: Int, _ allowed: Bool) {
        // Sized to 3 tiles every one of these fits; as a full grid 100x100 of 320x180 is
        // 32000x18000 px, 400x400 is 160000 tiles, over the 100000 a storyboard holds.
        #expect((try? Storyboard.checkLimits(count: count, tileWidth: width, tileHeight: height, columns: columns, rows: rows)) != nil)
        let fullAllowed =
            (try? Storyboard.checkLimits(
                count: count, tileWidth: width, tileHeight: height, columns: columns, rows: rows, fullSheets: true)) != nil
        #expect(fullAllowed == allowed)
        let writer = try? StoryboardWriter(
            directory: "/nonexistent", count: count, tileWidth: width, tileHeight: height, columns: columns, rows: rows,
            streaming: .hls)
        #expect((writer != nil) == allowed)
    }
}
