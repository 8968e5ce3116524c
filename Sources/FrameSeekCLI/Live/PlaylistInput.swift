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
        let variant = try arguments.integer("--variant").map(HLSVariantSelection.index) ?? .highestBandwidth
        let options = try LiveCommand.engineOptions(arguments, indexing: indexing)
        return try HLSEngine(url: input, variant: variant, options: options, describingAt: firstTarget)
    }

    /// `date` as JSON: ISO 8601 with milliseconds, or null.
    static func json(_ date: ProgramDate?) -> JSONValue {
        date.map { .string($0.iso8601) } ?? .null
    }
}
