import FrameSeekCore
import FrameSeekFFmpeg

/// Scrub previews from a `ThumbnailGenerator` of their own, on a queue of their own, cached
/// by the frame they show: dragging back and forth over the same keyframes decodes each once.
///
/// The generator opens as needed (`FrameIndexing.asNeeded`), as a player's previews do: a
/// Matroska file with Cues decides each preview's keyframe on them and reads that keyframe
/// alone, where the whole table would read the film first (Thumbnails, "Matroska and WebM").
public final class ThumbnailPreviewProvider: ScrubPreviewProvider {
    private let generator: QueueConfined<ThumbnailGenerator>
    private let cache = Locked<[ThumbnailFrame: ScrubPreview]>([:])
    private let capacity: Int

    /// Opens `path` for previews fitted in `maximumSize`, at `precision` (nearest keyframe
    /// by default: one packet per preview), keeping up to `cachedPreviews` pictures.
    public init(
        path: String, maximumSize: (width: Int, height: Int) = (160, 90),
        precision: SeekPrecision = .tolerance(before: .positiveInfinity, after: .positiveInfinity),
        cachedPreviews: Int = 512
    ) throws(MediaError) {
        var options = FFmpegEngine.Options()
        options.indexing = .asNeeded
        let made = try ThumbnailGenerator(path: path, options: options, precision: precision)
        made.maximumSize = maximumSize
        generator = QueueConfined(made, label: "frameseek.previews")
        capacity = cachedPreviews
    }

    /// The preview for `time`.
    public func preview(at time: MediaTime) async -> ScrubPreview? {
        let cache = self.cache
        let capacity = self.capacity
        return await generator.perform { generator -> ScrubPreview? in
            // One job per preview: the cache is looked up by the frame it names, and the same
            // job is what the generator carries out on a miss. A job whose frame is known only
            // once landed (a seek window's) is not cached.
            guard let job = try? generator.job(at: time) else { return nil }
            if let frame = job.frame, let hit = cache.withLock({ $0[frame] }) {
                return ScrubPreview(requestedTime: time, actualTime: hit.actualTime, image: hit.image)
            }
            guard let thumbnail = try? generator.thumbnail(for: job, inForwardPass: false) else { return nil }
            let preview = ScrubPreview(requestedTime: time, actualTime: thumbnail.actualTime, image: thumbnail.image)
            if let frame = job.frame {
                cache.withLock { entries in
                    if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
                    entries[frame] = preview
                }
            }
            return preview
        }
    }
}
