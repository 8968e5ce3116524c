import FrameSeekCore
import FrameSeekFFmpeg

/// Scrub previews from a `ThumbnailGenerator` of their own, on a queue of their own, cached
/// by the frame they show: dragging back and forth over the same keyframes decodes each once.
public final class ThumbnailPreviewProvider: ScrubPreviewProvider {
    private let generator: QueueConfined<ThumbnailGenerator>
    private let cache = Locked<[Int: ScrubPreview]>([:])
    private let capacity: Int

    /// Opens `path` for previews fitted in `maximumSize`, at `precision` (nearest keyframe
    /// by default: one packet per preview), keeping up to `cachedPreviews` pictures.
    public init(
        path: String, maximumSize: (width: Int, height: Int) = (160, 90),
        precision: SeekPrecision = .tolerance(before: .positiveInfinity, after: .positiveInfinity),
        cachedPreviews: Int = 512
    ) throws(MediaError) {
        let made = try ThumbnailGenerator(path: path)
        made.maximumSize = maximumSize
        made.precision = precision
        generator = QueueConfined(made, label: "frameseek.previews")
        capacity = cachedPreviews
    }

    /// The preview for `time`.
    public func preview(at time: MediaTime) async -> ScrubPreview? {
        let cache = self.cache
        let capacity = self.capacity
        return await generator.perform { generator -> ScrubPreview? in
            // One plan per preview: the cache is looked up by the frame it names, and the same
            // plan is what the generator carries out on a miss.
            guard let plan = try? generator.plan(at: time) else { return nil }
            if let hit = cache.withLock({ $0[plan.frameIndex] }) {
                return ScrubPreview(requestedTime: time, actualTime: hit.actualTime, image: hit.image)
            }
            guard let thumbnail = try? generator.thumbnail(for: plan) else { return nil }
            let preview = ScrubPreview(requestedTime: time, actualTime: thumbnail.actualTime, image: thumbnail.image)
            cache.withLock { entries in
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
                entries[plan.frameIndex] = preview
            }
            return preview
        }
    }
}
