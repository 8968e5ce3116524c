// `import FrameSeek` is all a user writes: it brings the value types, the player, the FFmpeg
// engine, the image export, landing manifests and the SQLite progress store, and makes the
// FFmpeg engine the player's default.
@_exported import FrameSeekCore
@_exported import FrameSeekFFmpeg
@_exported import FrameSeekImages
@_exported import FrameSeekManifest
@_exported import FrameSeekResume
import Dispatch
import Foundation

extension Player {
    /// A player that decodes with FFmpeg: any file or URL FFmpeg's I/O layer reads, and HLS
    /// playlists (`.m3u8`) through `HLSEngine`, which gives the player its live seek window.
    /// `reloadScheduler` times the reloads of live playlists (a real timer by default).
    public convenience init(
        callbackQueue: DispatchQueue = .main, clock: any PlayerClock = ContinuousPlayerClock(),
        engineOptions: FFmpegEngine.Options = FFmpegEngine.Options(),
        reloadScheduler: any PlayerScheduler = DispatchPlayerScheduler(qos: .utility)
    ) {
        self.init(
            engineFactory: FFmpegEngine.factory(options: engineOptions), callbackQueue: callbackQueue, clock: clock,
            reloadScheduler: reloadScheduler)
    }
}

extension ResumeTracker {
    /// A key from the file's identity (`SQLiteProgressStore.defaultKey(forFileAt:)`: its real
    /// path, size and modification time) for local files, so a file renamed through a symlink
    /// keeps its position and a file replaced by another encode starts over; the URL itself
    /// for anything else.
    public static let fileIdentityKey: @Sendable (URL) -> String = { url in
        url.isFileURL ? SQLiteProgressStore.defaultKey(forFileAt: url.path) : url.absoluteString
    }
}
