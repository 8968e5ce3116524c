import Foundation
import FrameSeekCore

extension FFmpegEngine {
    /// A factory the player calls to open each item with these options: an `HLSEngine` for an
    /// HLS playlist, an `FFmpegEngine` for anything else.
    public static func factory(options: Options = Options()) -> PlaybackEngineFactory {
        { (url: URL) throws(MediaError) -> any PlaybackEngine in
            let location = url.isFileURL ? url.path : url.absoluteString
            if HLSEngine.isPlaylist(url) { return try HLSEngine(url: location, options: options) }
            return try FFmpegEngine(path: location, options: options)
        }
    }
}
