import Foundation

extension HLSEngine {
    /// Whether `url` names an HLS playlist: its path ends in `.m3u8` or `.m3u`, or it is a
    /// local file that starts with `#EXTM3U` (RFC 8216 requires that first line). FFmpeg would
    /// open a playlist too, but through its own HLS demuxer, which ignores the playlist's
    /// dates and cannot seek in a live window.
    public static func isPlaylist(_ url: URL) -> Bool {
        if PlaylistName.matches(url) { return true }
        // Only a regular file is sniffed: opening a FIFO to read would block until a writer
        // came, and a device may never end.
        guard url.isFileURL,
            (try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeRegular,
            let handle = FileHandle(forReadingAtPath: url.path)
        else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1024)) ?? Data()
        let text = String(decoding: head, as: UTF8.self)
        return text.hasPrefix("#EXTM3U") || text.hasPrefix("\u{FEFF}#EXTM3U") || text.contains("<MPD")
    }
}
