import Foundation

/// The names HLS playlists go by: a path ending in `.m3u8` or `.m3u`. Known before anything is
/// read, so it decides whether a URL is opened as a playlist (`HLSEngine`) or read in ranges
/// as a plain file (`RangedHTTPReader`).
enum PlaylistName {
    static func matches(_ url: URL) -> Bool {
        ["m3u8", "m3u"].contains(url.pathExtension.lowercased())
    }
}
