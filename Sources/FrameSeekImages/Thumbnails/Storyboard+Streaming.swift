import Foundation
import FrameSeekCore
import FrameSeekFFmpeg

/// The storyboard in the forms streaming players read: an HLS image media playlist (the Image
/// Media Playlist specification v0.4, as Roku, AWS MediaPackage and Shaka Player read it) and a
/// DASH thumbnail-tile AdaptationSet (DASH-IF IOP 6.2.6, as dash.js and Shaka read it).
///
/// Every form names the same tile for the same time as the WebVTT track. The sheets are
/// all the size of a full grid, and a tile is found by its index within its sheet:
/// `(t - sheet start) / tile duration`.
extension Storyboard {
    /// Which streaming forms to write.
    public struct StreamingForms: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `images.m3u8` and `images-stream-inf.txt` (the line for a multivariant playlist).
        public static let hls = StreamingForms(rawValue: 1)
        /// `thumbnails.mpd`.
        public static let dash = StreamingForms(rawValue: 2)
    }

    /// The grid of a full sheet.
    public struct SheetLayout: Sendable, Hashable {
        public let columns: Int
        public let rows: Int
        public init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
        }
        /// `5x4`, as EXT-X-TILES and the thumbnail_tile property spell it.
        public var text: String { "\(columns)x\(rows)" }
    }

    /// The image media playlist's file name.
    public static let imagePlaylistFileName = "images.m3u8"
    /// The file holding the `EXT-X-IMAGE-STREAM-INF` line for a multivariant playlist.
    public static let imageStreamFileName = "images-stream-inf.txt"
    /// The thumbnail MPD's file name.
    public static let thumbnailMPDFileName = "thumbnails.mpd"

    /// One picture file of the storyboard: its name, when its first tile starts, when its
    /// last ends, and how many tiles it holds.
    public struct Sheet: Sendable, Hashable {
        public let file: String
        public let start: MediaTime
        public let end: MediaTime
        public let tiles: Int
    }

    /// The picture files in order.
    public var sheets: [Sheet] {
        var sheets: [Sheet] = []
        var index = 0
        while index < tiles.count {
            var last = index
            while last + 1 < tiles.count, tiles[last + 1].file == tiles[index].file { last += 1 }
            sheets.append(Sheet(file: tiles[index].file, start: tiles[index].requested, end: tiles[last].end, tiles: last - index + 1))
            index = last + 1
        }
        return sheets
    }

    /// The time each tile covers: the step between the first two tiles' times (every step
    /// is that, within a tick of the stream's timescale for `--count`), or the whole
    /// timeline for one tile.
    public var tileDuration: MediaTime {
        guard tiles.count > 1 else { return tiles.first.map { $0.end - $0.requested } ?? duration }
        return tiles[1].requested - tiles[0].requested
    }

    /// The files of `forms`, by name, for sheets in `layout` written as `format`, whose sizes
    /// in bytes are `sheetBytes` (by file name): the peak bandwidth the HLS line and the DASH
    /// Representation state.
    ///
    /// - Throws: `XMLTextError` when the MPD cannot be written (libxml2 out of memory).
    func streamingFiles(
        _ forms: StreamingForms, layout: SheetLayout, format: PictureFormat, sheetBytes: [String: Int]
    ) throws -> [(String, String)] {
        let bandwidth = peakBandwidth(sheetBytes)
        var files: [(String, String)] = []
        if forms.contains(.hls) {
            files.append((Self.imagePlaylistFileName, try imageMediaPlaylist(layout: layout)))
            files.append(
                (Self.imageStreamFileName, imageStreamLine(uri: Self.imagePlaylistFileName, bandwidth: bandwidth, format: format) + "\n"))
        }
        if forms.contains(.dash) {
            files.append((Self.thumbnailMPDFileName, try thumbnailMPD(layout: layout, format: format, bandwidth: bandwidth)))
        }
        return files
    }

    /// The most bits a second any sheet asks for (its bytes over the time it covers), rounded
    /// up; at least 1.
    public func peakBandwidth(_ sheetBytes: [String: Int]) -> Int {
        let peak =
            sheets.map { sheet -> Double in
                let seconds = (sheet.end - sheet.start).seconds
                return seconds > 0 ? Double(sheetBytes[sheet.file] ?? 0) * 8 / seconds : 0
            }.max() ?? 0
        return max(1, Int(peak.rounded(.up)))
    }

    /// The HLS image media playlist: one `EXT-X-TILES` and `EXTINF` per sheet, the last sheet's
    /// duration ending at the end of the timeline, so the EXTINFs add up to it.
    ///
    /// - Throws: `StoryboardStreamingError` when a sheet is longer than `longestSheetSeconds`
    ///   (only a file with absurd timestamps has one).
    public func imageMediaPlaylist(layout: SheetLayout) throws(StoryboardStreamingError) -> String {
        let sheets = self.sheets
        let longest = try Self.checkedSeconds(sheets.map { ($0.end - $0.start).seconds }.max() ?? 0)
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(max(1, Int(longest.rounded(.up))))",
            "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-IMAGES-ONLY"
        ]
        for sheet in sheets {
            lines.append(
                "#EXT-X-TILES:RESOLUTION=\(tileWidth)x\(tileHeight),LAYOUT=\(layout.text),DURATION=\(Self.decimal(tileDuration))")
            lines.append("#EXTINF:\(Self.decimal(sheet.end - sheet.start)),")
            lines.append(sheet.file)
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `EXT-X-IMAGE-STREAM-INF` line that names the image playlist at `uri` in a
    /// multivariant playlist: the tile resolution, as Roku and Shaka read it.
    public func imageStreamLine(uri: String, bandwidth: Int, format: PictureFormat) -> String {
        "#EXT-X-IMAGE-STREAM-INF:BANDWIDTH=\(bandwidth),RESOLUTION=\(tileWidth)x\(tileHeight),"
            + "CODECS=\"\(format.rawValue)\",URI=\"\(uri)\""
    }

    /// The DASH MPD: one image AdaptationSet (`thumbnailAdaptationSet`) in a static
    /// presentation as long as the timeline.
    public func thumbnailMPD(layout: SheetLayout, format: PictureFormat, bandwidth: Int) throws -> String {
        let mpd = XMLText(
            "MPD",
            [
                .init("xmlns", "urn:mpeg:dash:schema:mpd:2011"), .init("profiles", "urn:mpeg:dash:profile:isoff-live:2011"),
                .init("type", "static"), .init("mediaPresentationDuration", "PT\(Self.decimal(duration))S"),
                .init("minBufferTime", "PT2S")
            ],
            children: [
                XMLText(
                    "Period", [.init("id", "0"), .init("start", "PT0S")],
                    children: [try thumbnailAdaptationSet(layout: layout, format: format, bandwidth: bandwidth)])
            ])
        return String(decoding: try mpd.document(), as: UTF8.self)
    }

    /// The image AdaptationSet: its SegmentTemplate numbering the sheets from 1
    /// (`sheet-$Number%03d$.jpg`, after `folder` when the MPD is elsewhere), each
    /// `columns x rows` tiles long, and the thumbnail_tile EssentialProperty on its
    /// Representation, whose width and height are a full sheet's.
    ///
    /// - Throws: `StoryboardStreamingError` when a sheet is longer than `longestSheetSeconds`.
    func thumbnailAdaptationSet(
        layout: SheetLayout, format: PictureFormat, bandwidth: Int, folder: String = ""
    ) throws(StoryboardStreamingError) -> XMLText {
        let (timescale, segment) = try sheetDuration(perSheet: Int64(layout.columns * layout.rows))
        let template = XMLText(
            "SegmentTemplate",
            [
                .init("media", "\(folder)sheet-$Number%03d$.\(format.fileExtension)"), .init("startNumber", "1"),
                .init("timescale", String(timescale)), .init("duration", String(segment))
            ])
        let representation = XMLText(
            "Representation",
            [
                .init("id", "thumbnails"), .init("bandwidth", String(bandwidth)),
                .init("width", String(tileWidth * layout.columns)), .init("height", String(tileHeight * layout.rows))
            ],
            children: [
                XMLText("EssentialProperty", [.init("schemeIdUri", "http://dashif.org/thumbnail_tile"), .init("value", layout.text)])
            ])
        return XMLText(
            "AdaptationSet",
            [
                .init("xmlns", "urn:mpeg:dash:schema:mpd:2011"), .init("id", "1000"), .init("contentType", "image"),
                .init("mimeType", format.mimeType)
            ],
            children: [template, representation])
    }

    /// One sheet's duration as a SegmentTemplate states it, both numbers unsignedInt as the
    /// MPD schema has them: in the tile duration's own timescale when that fits, else in the
    /// finest of microseconds, milliseconds and seconds that does.
    ///
    /// - Throws: `StoryboardStreamingError` when no timescale fits (a sheet over 136 years).
    func sheetDuration(perSheet: Int64) throws(StoryboardStreamingError) -> (timescale: Int64, duration: Int64) {
        let step = tileDuration
        let limit = Int64(UInt32.max)
        let (product, overflow) = step.value.multipliedReportingOverflow(by: perSheet)
        if !overflow, product > 0, product <= limit, step.timescale > 0 { return (Int64(step.timescale), product) }
        let seconds = try Self.checkedSeconds(step.seconds * Double(perSheet))
        for scale in [1_000_000.0, 1_000, 1] where (seconds * scale).rounded() <= Double(limit) {
            return (Int64(scale), Int64((seconds * scale).rounded()))
        }
        throw StoryboardStreamingError(message: "a sheet of \(seconds) s is longer than an MPD's SegmentTemplate can state")
    }

    /// The longest sheet a playlist or an MPD states: 10^12 s (31,700 years), which keeps its
    /// microseconds inside Int64.
    public static let longestSheetSeconds = 1e12

    /// `seconds` when a sheet may be that long.
    static func checkedSeconds(_ seconds: Double) throws(StoryboardStreamingError) -> Double {
        guard seconds.isFinite, seconds >= 0, seconds <= longestSheetSeconds else {
            throw StoryboardStreamingError(message: "a sheet of \(seconds) s is longer than a playlist or an MPD can state")
        }
        return seconds
    }

    /// Seconds with six decimals, as EXTINF, DURATION and the MPD's durations give them.
    static func decimal(_ time: MediaTime) -> String { String(format: "%.6f", time.seconds) }
}

extension Storyboard {
    /// The sizes of the storyboard's picture files in `directory`, by name.
    public func sheetBytes(in directory: String) -> [String: Int] {
        sheetBytes { directory + "/" + $0 }
    }

    /// The sizes of the storyboard's picture files, each read at `path(name)`.
    func sheetBytes(at path: (String) -> String) -> [String: Int] {
        Dictionary(sheets.map { ($0.file, Int(FileKind.byteCount(at: path($0.file)) ?? 0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// `playlist`, the text of a multivariant playlist, with the `EXT-X-IMAGE-STREAM-INF` line
    /// naming `uri` (the image playlist, relative to where the copy is written) at its end.
    ///
    /// - Throws: `StoryboardStreamingError` when the text is not a multivariant playlist (no
    ///   `#EXTM3U` first, or no `EXT-X-STREAM-INF`).
    public func multivariantPlaylist(
        adding uri: String, to playlist: String, bandwidth: Int, format: PictureFormat
    ) throws(StoryboardStreamingError) -> String {
        let lines = playlist.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "#EXTM3U",
            lines.contains(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") })
        else { throw StoryboardStreamingError(message: "not a multivariant playlist (#EXTM3U first, with EXT-X-STREAM-INF)") }
        let text = playlist.hasSuffix("\n") ? playlist : playlist + "\n"
        return text + imageStreamLine(uri: uri, bandwidth: bandwidth, format: format) + "\n"
    }

    /// `mpd`, an MPD's bytes, with the thumbnail AdaptationSet added to its first Period, its
    /// template's files under `folder` (relative to where the copy is written, ending in `/`,
    /// or empty).
    ///
    /// - Throws: `StoryboardStreamingError` when the bytes are not XML or have no Period.
    public func mpd(
        adding layout: SheetLayout, to mpd: [UInt8], folder: String, format: PictureFormat, bandwidth: Int
    ) throws(StoryboardStreamingError) -> [UInt8] {
        let set = try thumbnailAdaptationSet(layout: layout, format: format, bandwidth: bandwidth, folder: folder)
        do { return try set.appended(toFirst: "Period", in: mpd) } catch {
            throw StoryboardStreamingError(message: "cannot add the thumbnails: \(error)")
        }
    }
}

/// A streaming form that cannot be written: a manifest given to `--merge-into` that the
/// thumbnails cannot join, or sheets longer than a playlist or an MPD can state.
public struct StoryboardStreamingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words.
    public let message: String
    public var description: String { message }
}
