// Sprite sheets and single PNG files, read back with libpng: every tile is the thumbnail's
// picture, byte for byte, at the place the storyboard names; slots past the last thumbnail
// stay black; cue times are the requested times, contiguous up to the duration.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("Thumbnails: sprite sheets and files", .ffmpegLog)
struct StoryboardTests {
    @Test("Sheets and files read back as the thumbnails, tile by tile", arguments: videoFixtures)
    func sheets(fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let generator = try makeGenerator(fixture, size: (96, 96))
        let duration = oracle.end(oracle.lastIndex)
        // Ten evenly spaced times: 0, duration/10, ...
        let times = (0..<10).map { i in MediaTime(value: duration.value * Int64(i), timescale: duration.timescale * 10) }
        let thumbnails = try generator.thumbnails(at: times)
        try #require(thumbnails.count == 10)
        let size = generator.thumbnailSize

        // (100, 100): ten tiles on a grid of ten thousand make a sheet ten tiles wide, one high.
        for (columns, rows) in [(3, 2), (4, 3), (1, 1), (100, 100), (4, 100)] as [(Int, Int)] {
            let directory = try temporaryDirectory("sheets-\(fixture.id)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let storyboard = try Storyboard.write(thumbnails, duration: duration, to: directory.path, columns: columns, rows: rows)
            let context = "\(fixture.id) \(columns)x\(rows)"
            #expect(storyboard.tileWidth == size.width && storyboard.tileHeight == size.height)
            #expect(storyboard.tiles.count == 10)
            let perSheet = columns * rows
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".png") }
            #expect(files.count == (10 + perSheet - 1) / perSheet, "\(context): \(files.sorted())")
            var sheets: [String: RGBImage] = [:]
            for file in files { sheets[file] = try readPNG(directory.appendingPathComponent(file).path) }
            var used: [String: Set<[Int]>] = [:]
            for (i, (tile, thumbnail)) in zip(storyboard.tiles, thumbnails).enumerated() {
                #expect(tile.requested == times[i] && tile.actual == thumbnail.actualTime)
                #expect(tile.end == (i + 1 < times.count ? times[i + 1] : duration), "\(context): tile \(i) ends at \(tile.end)")
                let sheet = try #require(sheets[tile.file], "\(context): tile \(i) names \(tile.file), not written")
                // Sized to the tiles it holds: as many columns as it fills, as many rows as begun.
                let sheetNumber = i / perSheet
                let held = min(perSheet, 10 - sheetNumber * perSheet)
                #expect(
                    sheet.width == min(columns, held) * size.width && sheet.height == ((held + columns - 1) / columns) * size.height,
                    "\(context): \(tile.file) is \(sheet.width)x\(sheet.height) for \(held) tiles")
                #expect(tile.x % size.width == 0 && tile.y % size.height == 0)
                #expect(tile.x + size.width <= sheet.width && tile.y + size.height <= sheet.height)
                // Filled in reading order: slot i % perSheet of sheet i / perSheet.
                let slot = i % perSheet
                #expect(
                    tile.x == (slot % columns) * size.width && tile.y == (slot / columns) * size.height,
                    "\(context): tile \(i) at (\(tile.x), \(tile.y))")
                #expect(
                    sheet.crop(x: tile.x, y: tile.y, width: size.width, height: size.height) == thumbnail.image,
                    "\(context): tile \(i) in \(tile.file) is not the thumbnail's picture")
                used[tile.file, default: []].insert([tile.x, tile.y])
            }
            // Slots past the last thumbnail are black.
            for (file, sheet) in sheets {
                for row in 0..<(sheet.height / size.height) {
                    for column in 0..<(sheet.width / size.width)
                    where !(used[file]?.contains([column * size.width, row * size.height]) ?? false) {
                        let empty = sheet.crop(x: column * size.width, y: row * size.height, width: size.width, height: size.height)
                        #expect(empty.pixels.allSatisfy { $0 == 0 }, "\(context): empty slot (\(column), \(row)) of \(file) is not black")
                    }
                }
            }
        }

        // Without a grid: one file per thumbnail, each exactly the picture.
        let directory = try temporaryDirectory("files-\(fixture.id)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storyboard = try Storyboard.write(thumbnails, duration: duration, to: directory.path)
        #expect(Set(storyboard.tiles.map(\.file)).count == 10)
        for (tile, thumbnail) in zip(storyboard.tiles, thumbnails) {
            #expect(tile.x == 0 && tile.y == 0)
            let path = directory.appendingPathComponent(tile.file).path
            let dimensions = try pngDimensions(path)
            #expect(dimensions == (size.width, size.height))
            #expect(try readPNG(path) == thumbnail.image, "\(fixture.id): \(tile.file) is not the thumbnail's picture")
        }
    }

    @Test("No thumbnails: an empty storyboard, a bare WebVTT header, no files")
    func empty() throws {
        let directory = try temporaryDirectory("empty")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storyboard = try Storyboard.write([], duration: seconds(5), to: directory.path, columns: 2, rows: 2)
        #expect(storyboard.tiles.isEmpty)
        #expect(storyboard.webVTT == "WEBVTT\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("An unwritable folder is a PNGWriteError naming the file")
    func unwritable() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let thumbnails = try makeGenerator(fixture).thumbnails(at: [.zero])
        let missing = "/nonexistent-\(UInt32.random(in: 0...UInt32.max))/sub"
        #expect(throws: PNGWriteError.self) {
            _ = try Storyboard.write(thumbnails, duration: seconds(12), to: missing)
        }
        do {
            _ = try Storyboard.write(thumbnails, duration: seconds(12), to: missing)
        } catch {
            #expect("\(error)".contains(missing), "\(error)")
        }
    }
}
