import Foundation
import FrameSeekCore

extension HLSEngine {
    /// Re-reads the media playlist (RFC 8216 6.3.4), or a dynamic MPD's listing now, places it on the timeline, indexes the
    /// segments that arrived, retries segments that were missing, and forgets the segments that
    /// left the window. Segments still in the window keep their times, and the landed frame
    /// keeps its place (its global index follows it through its segment and local frame).
    ///
    /// A playlist that is not live (EXT-X-ENDLIST, or EXT-X-PLAYLIST-TYPE:VOD) is final and is
    /// not fetched again; its missing segments are still retried.
    ///
    /// - Returns: whether the window changed (the playlist did, or a missing segment could be
    ///   read this time).
    /// - Throws: `MediaError` naming the playlist when it cannot be read or parsed, is not a
    ///   media playlist, or cannot follow the previous load (a Media Sequence Number that went
    ///   back); the previous window stays current.
    public func reloadPlaylist() throws(MediaError) -> Bool {
        // A VOD playlist read as needed has nothing to reload; its missing segments are tried
        // again when a seek needs them.
        if indexesAsNeeded, !indexesWholeWindow { return false }
        var reloaded = timeline
        var playlistChanged = false
        let previousOffsets = mediaTimeOffsets
        if timeline.playlist.isLive {
            let playlist = try readMediaPlaylistAgain()
            do {
                playlistChanged = try reloaded.reload(with: playlist)
            } catch {
                mediaTimeOffsets = previousOffsets
                throw MediaError(path: url, reason: .unsupported, cause: "cannot reload: \(error.description)")
            }
        }
        let previousTimeline = timeline
        let previousSegments = segments
        let wasMissing = Set(segments.filter { $0.frames == nil }.map(\.segment.mediaSequence))
        timeline = reloaded
        segments = indexWindow(reusing: previousSegments)
        do {
            try rebuildIndex()
        } catch {
            timeline = previousTimeline
            segments = previousSegments
            mediaTimeOffsets = previousOffsets
            throw error
        }
        let recovered = segments.contains { wasMissing.contains($0.segment.mediaSequence) && $0.frames != nil }
        return playlistChanged || recovered
    }
}
