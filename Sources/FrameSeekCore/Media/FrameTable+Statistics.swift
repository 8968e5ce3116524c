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
            depth = Self.reorderDepth(of: frames)
        }
        return FrameTableStatistics(
            frameCount: frames.count, keyframeCount: keys.count,
            minimumGOP: sorted.first, medianGOP: sorted.isEmpty ? nil : sorted[sorted.count / 2],
            maximumGOP: sorted.last, reorderDepth: depth)
    }

    /// The largest (decode rank - presentation index) of `frames`. Decode orders are packet
    /// numbers, so they are dense: each frame's presentation index is placed at its decode
    /// order in an array of 4-byte slots, which read in order give the ranks. Sorting the
    /// frames instead took 8 MB and a tenth of a two-hour film's open; sparse or repeated
    /// decode orders still take the sort.
    private static func reorderDepth(of frames: FrameList) -> Int {
        var highestOrder = 0
        for index in frames.indices { highestOrder = max(highestOrder, frames.decodeOrder(at: index)) }
        var depth = 0
        if highestOrder < 2 * frames.count + 64, frames.count < Int(Int32.max) {
            var indexAtOrder = [Int32](repeating: -1, count: highestOrder + 1)
            var repeated = false
            for index in frames.indices {
                let order = frames.decodeOrder(at: index)
                if indexAtOrder[order] >= 0 { repeated = true; break }
                indexAtOrder[order] = Int32(index)
            }
            if !repeated {
                var rank = 0
                for index in indexAtOrder where index >= 0 {
                    depth = max(depth, rank - Int(index))
                    rank += 1
                }
                return depth
            }
        }
        let byDecode = frames.indices.sorted { frames.decodeOrder(at: $0) < frames.decodeOrder(at: $1) }
        for (rank, index) in byDecode.enumerated() { depth = max(depth, rank - index) }
        return depth
    }
}
