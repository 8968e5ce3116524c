import Foundation
import FrameSeek

/// Recognises HLS playlists on the command line and opens them with `HLSEngine`.
///
/// FFmpeg's own HLS demuxer ignores EXT-X-PROGRAM-DATE-TIME and cannot seek in a live window, so
/// `seek` and `live` read playlists themselves instead of handing them to `FFmpegEngine`.
enum PlaylistInput {
    /// Whether `input` is an HLS playlist (`HLSEngine.isPlaylist`): a path or URL whose path
    /// ends in `.m3u8` or `.m3u`, or a local file that starts with `#EXTM3U`.
    static func isPlaylist(_ input: String) -> Bool {
        let url = input.contains("://") ? URL(string: input) : URL(fileURLWithPath: input)
        return url.map(HLSEngine.isPlaylist) ?? false
    }

    /// Opens `input` as a playlist with `--variant`, `--stream`, `--threads` and `--index`
    /// (`indexing` when it is not given). A VOD playlist opened as needed fetches the segment
    /// holding `firstTarget` to describe its streams, the one the first seek needs.
    ///
    /// - Throws: `UsageError` for a bad `--variant`, `MediaError` naming the playlist when it
    ///   cannot be read or names no such variant.
    static func open(
        _ input: String, _ arguments: Arguments, indexing: FrameIndexing = .full, firstTarget: MediaTime? = nil
    ) throws -> HLSEngine {
        var variant = HLSVariantSelection.highestBandwidth
        if let text = arguments.value("--variant") {
            guard let chosen = HLSVariantSelection(parsing: text) else {
                throw UsageError(message: "--variant takes N, bandwidth:BPS or resolution:WxH, not '\(text)'")
            }
            variant = chosen
        }
        let options = try LiveCommand.engineOptions(arguments, indexing: indexing)
        return try HLSEngine(url: input, variant: variant, options: options, describingAt: firstTarget)
    }

    /// The variant a playlist's landings are in, as JSON: its position, BANDWIDTH, RESOLUTION
    /// and URI; null for a media playlist.
    static func json(_ variant: (position: Int, variant: HLSVariant)?) -> JSONValue {
        guard let (position, chosen) = variant else { return .null }
        return .object([
            ("position", .integer(Int64(position))), ("bandwidth", .integer(Int64(chosen.bandwidth))),
            ("resolution", chosen.resolution.map { .string($0.description) } ?? .null),
            ("uri", .string(chosen.uri.absoluteString))
        ])
    }

    /// The variant in words for a text line: `variant 1 (1280000 bit/s, 1280x720)`.
    static func text(_ variant: (position: Int, variant: HLSVariant)) -> String {
        "variant \(variant.position) (\(variant.variant.bandwidth) bit/s"
            + (variant.variant.resolution.map { ", \($0)" } ?? "") + ")"
    }

    /// `date` as JSON: ISO 8601 with milliseconds, or null.
    static func json(_ date: ProgramDate?) -> JSONValue {
        date.map { .string($0.iso8601) } ?? .null
    }
}
