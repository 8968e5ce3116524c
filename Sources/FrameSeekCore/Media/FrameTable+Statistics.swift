/// Summary numbers of a frame table, as `frameseek probe` reports them.
public struct FrameTableStatistics: Sendable, Hashable {
    /// Frames in the table.
    public let frameCount: Int
    /// Keyframes among them.
    public let keyframeCount: Int
    /// Fewest frames from one keyframe to the next (nil with fewer than two keyframes).
    public let minimumGOP: Int?
    /// Median frames from one keyframe to the next.
    public let medianGOP: Int?
    /// Most frames from one keyframe to the next, the last GOP (to the end) included.
    public let maximumGOP: Int?
    /// How many frames the decoder must hold back to put frames in presentation order:
    /// the largest (decode rank - presentation index) over all frames, 0 without B-frames.
    public let reorderDepth: Int
}

extension FrameTable {
    /// Counts and GOP lengths of this table.
    public var statistics: FrameTableStatistics {
        let keys = keyframePositions
        var gops: [Int] = []
        if frames.isEveryFrameAKeyframe {
            gops = frames.isEmpty ? [] : [1]  // every GOP one frame: the minimum, median and maximum
        } else {
            for (a, b) in zip(keys, keys.dropFirst()) { gops.append(b - a) }
            if let lastKey = keys.last { gops.append(frames.count - lastKey) }
        }
        let sorted = gops.sorted()
        // Rank of each frame among frames (discarded packets excluded) in decode order; frames
        // decoded in presentation order (audio, streams without B-frames) need no sort.
        var depth = 0
        let inOrder = frames.indices.dropFirst().allSatisfy { frames.decodeOrder(at: $0 - 1) < frames.decodeOrder(at: $0) }
        if !inOrder {
            let byDecode = frames.indices.sorted { frames.decodeOrder(at: $0) < frames.decodeOrder(at: $1) }
            for (rank, index) in byDecode.enumerated() { depth = max(depth, rank - index) }
        }
        return FrameTableStatistics(
            frameCount: frames.count, keyframeCount: keys.count,
            minimumGOP: sorted.first, medianGOP: sorted.isEmpty ? nil : sorted[sorted.count / 2],
            maximumGOP: sorted.last, reorderDepth: depth)
    }
}
