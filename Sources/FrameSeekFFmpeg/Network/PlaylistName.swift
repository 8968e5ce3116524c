import Foundation

/// The names HLS playlists and DASH MPDs go by: a path ending in `.m3u8`, `.m3u` or `.mpd`. Known before anything is
/// read, so it decides whether a URL is opened as a playlist (`HLSEngine`) or read in ranges
/// as a plain file (`RangedHTTPReader`).
enum PlaylistName {
    static func matches(_ url: URL) -> Bool {
        ["m3u8", "m3u", "mpd"].contains(url.pathExtension.lowercased())
    }
}
