import Foundation
import FrameSeekCore

/// Thumbnails laid out for players: PNG files or sprite sheets, a WebVTT track whose cues
/// point into them with `#xywh=` fragments (as Video.js, JW Player and Bitmovin read them),
/// and a JSON storyboard (`{url, tile_width, tile_height, duration, tiles: [{start, x, y}]}`).
public struct Storyboard: Sendable {
    /// One thumbnail's place.
    public struct Tile: Sendable {
        /// The time asked for; the cue starts here.
        public let requested: MediaTime
        /// The cue's end: the next tile's time, or the duration for the last.
        public let end: MediaTime
        /// The time of the frame shown.
        public let actual: MediaTime
        /// The image file, relative to the storyboard's folder.
        public let file: String
        /// Where the tile sits in its file.
        public let x: Int, y: Int
    }

    /// Width of every tile.
    public let tileWidth: Int
    /// Height of every tile.
    public let tileHeight: Int
    /// The media's duration (the end of the last cue).
    public let duration: MediaTime
    /// The tiles in time order.
    public let tiles: [Tile]

    /// Lays out `thumbnails` (in time order, all the same size) as single files when
    /// `columns` and `rows` are nil, else as sheets of `columns` x `rows` tiles, and writes
    /// the images into `directory`.
    public static func write(_ thumbnails: [Thumbnail], duration: MediaTime, to directory: String,
                             columns: Int? = nil, rows: Int? = nil) throws(PNGWriteError) -> Storyboard {
        guard let first = thumbnails.first else {
            return Storyboard(tileWidth: 0, tileHeight: 0, duration: duration, tiles: [])
        }
        let (w, h) = (first.image.width, first.image.height)
        var tiles: [Tile] = []
        func end(_ i: Int) -> MediaTime { i + 1 < thumbnails.count ? thumbnails[i + 1].requestedTime : max(duration, thumbnails[i].requestedTime) }
        if let columns, let rows {
            let perSheet = columns * rows
            for sheetStart in stride(from: 0, to: thumbnails.count, by: perSheet) {
                let name = String(format: "sheet-%03d.png", sheetStart / perSheet + 1)
                var sheet = [UInt8](repeating: 0, count: columns * w * rows * h * 3)
                for i in sheetStart..<min(sheetStart + perSheet, thumbnails.count) {
                    let slot = i - sheetStart
                    let (x, y) = ((slot % columns) * w, (slot / columns) * h)
                    blit(thumbnails[i].image, into: &sheet, sheetWidth: columns * w, x: x, y: y)
                    tiles.append(Tile(requested: thumbnails[i].requestedTime, end: end(i), actual: thumbnails[i].actualTime,
                                      file: name, x: x, y: y))
                }
                try PNGFile.write(RGBImage(width: columns * w, height: rows * h, pixels: sheet), to: directory + "/" + name)
            }
        } else {
            for (i, thumbnail) in thumbnails.enumerated() {
                let name = String(format: "thumb-%04d.png", i + 1)
                try PNGFile.write(thumbnail.image, to: directory + "/" + name)
                tiles.append(Tile(requested: thumbnail.requestedTime, end: end(i), actual: thumbnail.actualTime, file: name, x: 0, y: 0))
            }
        }
        return Storyboard(tileWidth: w, tileHeight: h, duration: duration, tiles: tiles)
    }

    private static func blit(_ image: RGBImage, into sheet: inout [UInt8], sheetWidth: Int, x: Int, y: Int) {
        let rowBytes = image.width * 3
        image.pixels.withUnsafeBufferPointer { source in
            sheet.withUnsafeMutableBufferPointer { destination in
                for row in 0..<image.height {
                    let from = row * rowBytes
                    let to = ((y + row) * sheetWidth + x) * 3
                    destination.baseAddress!.advanced(by: to).update(from: source.baseAddress!.advanced(by: from), count: rowBytes)
                }
            }
        }
    }

    /// The WebVTT track: one cue per tile, contiguous, `file#xywh=x,y,w,h`.
    public var webVTT: String {
        var text = "WEBVTT\n"
        for tile in tiles {
            text += "\n\(Self.timestamp(tile.requested)) --> \(Self.timestamp(tile.end))\n"
            text += "\(tile.file)#xywh=\(tile.x),\(tile.y),\(tileWidth),\(tileHeight)\n"
        }
        return text
    }

    /// The JSON storyboard as text, one line:
    /// `{url, tile_width, tile_height, duration, tiles: [{start, x, y, url}]}`.
    public var jsonText: String { json.serialized }

    /// The JSON storyboard. `url` is the first image; each tile also names its own `url`,
    /// since a long video needs more than one sheet.
    package var json: JSONValue {
        .object([
            ("url", .string(tiles.first?.file)),
            ("tile_width", .integer(Int64(tileWidth))), ("tile_height", .integer(Int64(tileHeight))),
            ("duration", .number(duration.seconds)),
            ("tiles", .array(tiles.map { tile in
                .object([("start", .number(tile.requested.seconds)), ("x", .integer(Int64(tile.x))),
                         ("y", .integer(Int64(tile.y))), ("url", .string(tile.file))])
            })),
        ])
    }

    /// `HH:MM:SS.mmm`, milliseconds rounded down, so consecutive cues meet exactly.
    static func timestamp(_ time: MediaTime) -> String {
        let milliseconds = max(0, TimeBase(numerator: 1, denominator: 1000).ticks(in: time) ?? 0)
        let (h, rest) = (milliseconds / 3_600_000, milliseconds % 3_600_000)
        let (m, rest2) = (rest / 60_000, rest % 60_000)
        return String(format: "%02lld:%02lld:%02lld.%03lld", h, m, rest2 / 1000, rest2 % 1000)
    }
}
