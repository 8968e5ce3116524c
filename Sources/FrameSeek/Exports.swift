// `import FrameSeek` is all a user writes: it brings the value types, the player, the FFmpeg
// engine, the image export and landing manifests, and makes the FFmpeg engine the player's default.
@_exported import FrameSeekCore
@_exported import FrameSeekFFmpeg
@_exported import FrameSeekImages
@_exported import FrameSeekLanding
import Dispatch
import Foundation

extension Player {
    /// A player that decodes with FFmpeg: any file or URL FFmpeg's I/O layer reads.
    public convenience init(callbackQueue: DispatchQueue = .main, clock: any PlayerClock = ContinuousPlayerClock(),
                            engineOptions: FFmpegEngine.Options = FFmpegEngine.Options()) {
        self.init(engineFactory: FFmpegEngine.factory(options: engineOptions), callbackQueue: callbackQueue, clock: clock)
    }
}

extension FFmpegEngine {
    /// A factory the player calls to open each item with these options.
    public static func factory(options: Options = Options()) -> PlaybackEngineFactory {
        { (url: URL) throws(MediaError) -> any PlaybackEngine in
            try FFmpegEngine(path: url.isFileURL ? url.path : url.absoluteString, options: options)
        }
    }
}
