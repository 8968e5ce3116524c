import Foundation
import FrameSeek

/// `thumbnails --merge-into MANIFEST`: a copy of a given multivariant playlist (`.m3u8`) or MPD
/// (`.mpd`) with the thumbnails added, written beside it as `<name>-thumbnails.<ext>` so that
/// its own relative URIs still resolve. The thumbnails are named relative to it.
struct ThumbnailsMerge {
    /// A manifest to merge into, its bytes as read before anything is decoded, and where its
    /// copy goes.
    let given: String
    let bytes: [UInt8]
    let copy: String
    let isMPD: Bool

    /// The largest manifest read: a multivariant playlist or an MPD is kilobytes.
    static let maximumBytes = 16 << 20

    /// The `--merge-into` manifests, checked before anything is decoded: each a regular file
    /// of at most `maximumBytes`, `.m3u8` with `--hls` or `.mpd` with `--dash`, its copy's
    /// folder writable.
    static func checked(_ arguments: Arguments, streaming: Storyboard.StreamingForms) throws(UsageError) -> [ThumbnailsMerge] {
        try arguments.values("--merge-into").map { path throws(UsageError) in
            let url = URL(fileURLWithPath: path)
            let isMPD: Bool
            switch url.pathExtension.lowercased() {
            case "m3u8":
                guard streaming.contains(.hls) else { throw UsageError(message: "--merge-into \(path): a playlist takes --hls") }
                isMPD = false
            case "mpd":
                guard streaming.contains(.dash) else { throw UsageError(message: "--merge-into \(path): an MPD takes --dash") }
                isMPD = true
            default: throw UsageError(message: "--merge-into \(path): give a multivariant playlist (.m3u8) or an MPD (.mpd)")
            }
            let bytes: [UInt8]
            do { bytes = Array(try FileContents.read(path, limit: maximumBytes)) } catch {
                throw UsageError(message: "--merge-into \(path): \(error)")
            }
            let copy = url.deletingPathExtension().path + "-thumbnails." + url.pathExtension
            try ThumbnailsCommand.checkOutputPath(copy)
            return ThumbnailsMerge(given: path, bytes: bytes, copy: copy, isMPD: isMPD)
        }
    }

    /// Writes the copy with `storyboard`'s thumbnails, written into `directory`, added.
    ///
    /// - Throws: `UsageError` when the manifest cannot be read or is not one the thumbnails
    ///   can join; `OutputFileError` when the copy cannot be written.
    func write(
        _ storyboard: Storyboard, directory: String, layout: Storyboard.SheetLayout, format: PictureFormat
    ) throws {
        let bandwidth = storyboard.peakBandwidth(storyboard.sheetBytes(in: directory))
        let merged: [UInt8]
        do {
            if isMPD {
                let folder = RelativePath.of(directory + "/" + Storyboard.thumbnailMPDFileName, fromDirectoryOf: copy)
                    .dropLast(Storyboard.thumbnailMPDFileName.count)
                merged = try storyboard.mpd(adding: layout, to: bytes, folder: String(folder), format: format, bandwidth: bandwidth)
            } else {
                let uri = RelativePath.of(directory + "/" + Storyboard.imagePlaylistFileName, fromDirectoryOf: copy)
                merged = Array(
                    try storyboard.multivariantPlaylist(
                        adding: uri, to: String(decoding: bytes, as: UTF8.self), bandwidth: bandwidth, format: format
                    ).utf8)
            }
        } catch {
            throw UsageError(message: "--merge-into \(given): \(error)")
        }
        try OutputFile.write(merged, to: copy)
    }
}
