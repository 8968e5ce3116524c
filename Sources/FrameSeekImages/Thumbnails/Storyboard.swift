#if canImport(Glibc)
    import Glibc
#endif
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

    /// Most thumbnails one storyboard holds: beyond it a run is refused before decoding,
    /// rather than filling a disk with pictures 1 ms apart.
    public static let maximumCount = 100_000
    /// The longest side of a sprite sheet, in pixels (a 16384x16384 RGB sheet is 768 MiB
    /// in memory while it is assembled).
    public static let maximumSheetSide = 16_384
    /// The most RGB bytes the pictures of one run may add up to (count x width x height x 3):
    /// they are held in memory until the set is written, so `--count 100000 --size 8192x8192`
    /// is refused up front rather than ending in the out-of-memory killer.
    public static let maximumTotalBytes = 8 << 30
    /// The WebVTT track's file name in the output folder.
    public static let trackFileName = "thumbnails.vtt"
    /// The JSON storyboard's file name in the output folder.
    public static let storyboardFileName = "storyboard.json"

    /// The size of a sheet holding `tiles` tiles of `tileWidth` x `tileHeight` in rows of
    /// `columns`: only as many columns and rows as the tiles fill, so 3 tiles on a 100x100
    /// grid make a sheet 3 tiles wide and 1 high. Nil when the size overflows `Int`.
    public static func sheetSize(tiles: Int, columns: Int, tileWidth: Int, tileHeight: Int) -> (width: Int, height: Int)? {
        guard tiles > 0, columns > 0, tileWidth > 0, tileHeight > 0 else { return (0, 0) }
        let usedColumns = min(columns, tiles)
        let usedRows = tiles / columns + (tiles % columns == 0 ? 0 : 1)
        let (width, wide) = usedColumns.multipliedReportingOverflow(by: tileWidth)
        let (height, tall) = usedRows.multipliedReportingOverflow(by: tileHeight)
        return wide || tall ? nil : (width, height)
    }

    /// Checks a storyboard of `count` tiles of `tileWidth` x `tileHeight` against the limits
    /// (`maximumCount`, `maximumSheetSide`, `maximumTotalBytes`) before anything is decoded.
    /// With `fullSheets` (the streaming forms', `StoryboardWriter`'s `streaming`), every sheet
    /// is as large as the whole `columns` x `rows` grid however few tiles it holds, so the grid
    /// itself is checked: at most `maximumCount` tiles, its sides within `maximumSheetSide`,
    /// and its bytes counted with the pictures'. Every product is overflow-checked, so no
    /// argument can trap.
    ///
    /// - Throws: `StoryboardLimitError` saying which limit and by how much.
    public static func checkLimits(
        count: Int, tileWidth: Int, tileHeight: Int, columns: Int?, rows: Int?, fullSheets: Bool = false
    ) throws(StoryboardLimitError) {
        guard count <= maximumCount else {
            throw StoryboardLimitError(message: "\(count) thumbnails; at most \(maximumCount) are made in one run")
        }
        var sheetTiles = 0
        if let columns, let rows {
            sheetTiles = try checkSheet(
                count: count, tileWidth: tileWidth, tileHeight: tileHeight, columns: columns, rows: rows, full: fullSheets)
        }
        // A full sheet is assembled beside the pictures still waiting for the encoder.
        let held = count + (fullSheets ? sheetTiles : 0)
        let (pixels, tooMany) = tileWidth.multipliedReportingOverflow(by: tileHeight)
        let (bytes, tooLarge) = pixels.multipliedReportingOverflow(by: 3 * max(0, held))
        guard !tooMany, !tooLarge, bytes <= maximumTotalBytes else {
            throw StoryboardLimitError(
                message: "\(count) thumbnails of \(tileWidth)x\(tileHeight)\(held > count ? " and a full sheet" : "") are more than "
                    + "\(maximumTotalBytes >> 30) GiB of pictures; use fewer or a smaller --size")
        }
    }

    /// Checks the largest sheet of `count` tiles in `columns` x `rows` (the whole grid when
    /// `full`) against `maximumSheetSide`, and a full grid against `maximumCount`, so the
    /// grid a playlist or MPD states is the one the sheets are cut in. Returns the tiles of
    /// that sheet.
    private static func checkSheet(
        count: Int, tileWidth: Int, tileHeight: Int, columns: Int, rows: Int, full: Bool
    ) throws(StoryboardLimitError) -> Int {
        guard columns > 0, rows > 0 else { throw StoryboardLimitError(message: "a sheet needs at least 1 column and 1 row") }
        let (perSheet, overflow) = columns.multipliedReportingOverflow(by: rows)
        if full, overflow || perSheet > maximumCount {
            throw StoryboardLimitError(
                message: "a grid of \(columns)x\(rows) is more than \(maximumCount) tiles a sheet; "
                    + "use fewer --columns or --rows")
        }
        let tiles = full ? perSheet : overflow ? count : min(count, perSheet)
        guard let size = sheetSize(tiles: tiles, columns: columns, tileWidth: tileWidth, tileHeight: tileHeight),
            size.width <= maximumSheetSide, size.height <= maximumSheetSide
        else {
            let sheet = full ? "a full grid of \(columns)x\(rows), as every --hls and --dash sheet is," : "a sheet"
            throw StoryboardLimitError(
                message: "\(tiles) tiles of \(tileWidth)x\(tileHeight) in rows of \(columns) make \(sheet) larger than "
                    + "\(maximumSheetSide) px on a side; use fewer --columns or --rows, or a smaller --size")
        }
        return tiles
    }

    /// Lays out `thumbnails` (in time order, all the same size) as single files when
    /// `columns` and `rows` are nil, else as sheets of at most `columns` x `rows` tiles,
    /// each sized to the tiles it holds, and writes the images into `directory`; with
    /// `withTrack`, also `thumbnails.vtt` and `storyboard.json`.
    ///
    /// The set is written as a whole: every file under a temporary name first, then each
    /// renamed into place, then the files of an earlier set that the new one does not
    /// replace (`thumb-NNNN.png` and `sheet-NNN.png`, or their JPEG or WebP forms when that is
    /// the format written; the track, the storyboard, the streaming forms; temporary files
    /// an interrupted run left) are removed. No other file in `directory` is touched. An
    /// interrupted run leaves the previous set as it was, and at most hidden temporary files.
    ///
    /// Each picture is encoded in `format`: PNG with `compression`, JPEG or WebP at `quality`
    /// (see `StoryboardWriter`, which this uses).
    ///
    /// - Throws: `StoryboardLimitError` beyond the limits (see `checkLimits`), `PNGWriteError`
    ///   or `OutputFileError` naming the file that could not be written.
    public static func write(
        _ thumbnails: [Thumbnail], duration: MediaTime, to directory: String,
        columns: Int? = nil, rows: Int? = nil, withTrack: Bool = false,
        compression: PNGCompression = .default, format: PictureFormat = .png, quality: Int = PictureQuality.default
    ) throws -> Storyboard {
        let (w, h) = thumbnails.first.map { ($0.image.width, $0.image.height) } ?? (0, 0)
        let writer = try StoryboardWriter(
            directory: directory, count: thumbnails.count, tileWidth: w, tileHeight: h,
            columns: columns, rows: rows, withTrack: withTrack, compression: compression, format: format, quality: quality)
        for thumbnail in thumbnails { try writer.add(thumbnail) }
        return try writer.finish(duration: duration)
    }

    /// One sheet of `images` (tiles of `tileWidth` x `tileHeight`, in order) in rows of
    /// `columns`, only as large as the tiles it holds, or as large as `slots` tiles (black
    /// beyond the last) when given: every sheet of an HLS image playlist or a DASH thumbnail
    /// Representation is the same size.
    static func sheet(of images: [RGBImage], columns: Int, tileWidth: Int, tileHeight: Int, slots: Int? = nil) -> RGBImage {
        // checkLimits has bounded every sheet's sides, the full grid's with `slots`, so these
        // products fit.
        let size = sheetSize(tiles: max(images.count, slots ?? 0), columns: columns, tileWidth: tileWidth, tileHeight: tileHeight)!
        var sheet = [UInt8](repeating: 0, count: size.width * size.height * 3)
        for (slot, image) in images.enumerated() {
            blit(image, into: &sheet, sheetWidth: size.width, x: (slot % columns) * tileWidth, y: (slot / columns) * tileHeight)
        }
        return RGBImage(width: size.width, height: size.height, pixels: sheet)
    }

    /// Removes what an earlier run wrote into `directory` and this one did not: pictures named
    /// as this type names them in `format`, the track, the storyboard, the streaming forms and
    /// leftover temporary files. Nothing else is touched: pictures in another format may be
    /// someone's own, and stay.
    static func removeStaleFiles(in directory: String, keeping kept: Set<String>, format: PictureFormat = .png) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where !kept.contains(name) && isOwnFile(name, format: format) {
            unlink(directory + "/" + name)
        }
    }

    /// `thumb-` and four or more digits, `sheet-` and three or more, then `.png` (or the
    /// extension of `format`); the track, the storyboard, the image playlist, its stream line
    /// and the MPD; and temporary files whose final name is one of those, left by a process
    /// that is gone (a run still writing into the folder keeps its own).
    static func isOwnFile(_ name: String, format: PictureFormat = .png) -> Bool {
        if [trackFileName, storyboardFileName, imagePlaylistFileName, imageStreamFileName, thumbnailMPDFileName].contains(name) {
            return true
        }
        if name.hasPrefix(OutputFile.temporaryPrefix) {
            // .frameseek-tmp-PID-RANDOM-NAME
            let parts = name.dropFirst(OutputFile.temporaryPrefix.count).split(separator: "-", maxSplits: 2)
            guard parts.count == 3, let pid = Int32(parts[0]) else { return false }
            let gone = pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
            return gone && isOwnFile(String(parts[2]), format: format)
        }
        let suffix = "." + format.fileExtension
        for (prefix, digits) in [("thumb-", 4), ("sheet-", 3)] where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
            let number = name.dropFirst(prefix.count).dropLast(suffix.count)
            return number.count >= digits && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
        }
        return false
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
            (
                "tiles",
                .array(
                    tiles.map { tile in
                        .object([
                            ("start", .number(tile.requested.seconds)), ("x", .integer(Int64(tile.x))),
                            ("y", .integer(Int64(tile.y))), ("url", .string(tile.file))
                        ])
                    })
            )
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

/// A storyboard beyond the documented limits (`Storyboard.maximumCount`,
/// `Storyboard.maximumSheetSide`), found before anything is decoded.
public struct StoryboardLimitError: Error, Sendable, CustomStringConvertible {
    /// Which limit, and what was asked.
    public let message: String
    /// The message.
    public var description: String { message }
}
