import Foundation
import FrameSeekCore

extension FFmpegEngine {
    /// A factory the player calls to open each item with these options: an `HLSEngine` for an
    /// HLS playlist or a DASH MPD, an `FFmpegEngine` for anything else.
    ///
    /// A playlist is opened as needed (`FrameIndexing.asNeeded`) whatever `options.indexing`
    /// says, as a player opens one: the item is ready once the manifests and the init segment
    /// are read, each seek fetches the segments it needs, and steps and playback the segments
    /// around the frame shown. Only what needs the whole window's frames indexes it.
    public static func factory(options: Options = Options()) -> PlaybackEngineFactory {
        { (url: URL) throws(MediaError) -> any PlaybackEngine in
            let location = url.isFileURL ? url.path : url.absoluteString
            if HLSEngine.isPlaylist(url) {
                var playlistOptions = options
                playlistOptions.indexing = .asNeeded
                return try HLSEngine(url: location, options: playlistOptions)
            }
            return try FFmpegEngine(path: location, options: options)
        }
    }
}
