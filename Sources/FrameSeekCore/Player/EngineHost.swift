import Dispatch
import Foundation

/// Makes an engine for a URL: the FFmpeg engine in the `FrameSeek` module, anything that
/// implements `PlaybackEngine` in tests.
public typealias PlaybackEngineFactory = @Sendable (URL) throws(MediaError) -> any PlaybackEngine

/// The one place a player's engine is touched: a serial queue of its own, off the
/// cooperative thread pool, because decoding blocks for as long as a GOP takes.
final class EngineHost: @unchecked Sendable {
    // Safe because `engine` is read and written only inside blocks running on `queue` (every
    // access goes through `perform` or `replace`), so the non-Sendable engine, and the FFmpeg
    // state behind it, is only ever touched by one thread at a time.
    private var engine: (any PlaybackEngine)?
    let queue = DispatchQueue(label: "frameseek.engine")

    /// Runs `body` on the engine's queue; nil when no engine is loaded.
    func perform<T: Sendable>(_ body: @escaping @Sendable (any PlaybackEngine) -> T) async -> T? {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.engine.map(body))
            }
        }
    }

    /// Opens `url` with `factory` on the engine's queue and makes it current, returning what
    /// the player keeps of it.
    func load(_ url: URL, with factory: @escaping PlaybackEngineFactory) async throws(MediaError) -> LoadedItem {
        let result: Result<LoadedItem, MediaError> = await withCheckedContinuation { continuation in
            queue.async {
                do {
                    let engine = try factory(url)
                    self.engine = engine
                    continuation.resume(returning: .success(LoadedItem(engine)))
                } catch let error as MediaError {
                    continuation.resume(returning: .failure(error))
                } catch {
                    continuation.resume(returning: .failure(MediaError(path: url.path, reason: .readFailed, detail: "\(error)")))
                }
            }
        }
        return try result.get()
    }

    /// Drops the engine (closing its files) on the engine's queue.
    func unload() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.engine = nil
                continuation.resume()
            }
        }
    }
}

/// What the player keeps of a loaded engine: enough to answer `duration` and
/// `seekableRange` without touching the engine.
struct LoadedItem: Sendable {
    let media: MediaDescription
    let seekableRange: Range<MediaTime>?
    let isVideo: Bool
    /// The first and last frames' times, for clamping without the engine.
    let firstFrame: MediaTime?
    let lastFrame: MediaTime?

    init(_ engine: any PlaybackEngine) {
        media = engine.media
        seekableRange = engine.frameTable.seekableRange
        isVideo = engine.media.selectedStream.mediaType == .video
        firstFrame = engine.frameTable.frames.first?.time
        lastFrame = engine.frameTable.frames.last?.time
    }

    /// The clamp the landing rules would apply to `target`.
    func clamp(for target: MediaTime) -> SeekClamp {
        guard let firstFrame, let lastFrame, let end = seekableRange?.upperBound else { return .seekableRangeUnknown }
        return SeekClamp.resolve(target, firstFrame: firstFrame, lastFrame: lastFrame, end: end).clamp
    }

    /// The stream's extent: the end of its last frame.
    var duration: MediaTime { seekableRange?.upperBound ?? .indefinite }
}
