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
    /// numbers, so they are dense: each frame's decode order is marked in a set of bits, and a
    /// frame's rank is the number of marks below its own. The bits of a two-hour film take 27
    /// KB, where a slot of 4 bytes per order took 0.86 MB of fresh pages, and sorting the frames
    /// 8 MB and a tenth of the open; sparse or repeated decode orders still take the sort.
    private static func reorderDepth(of frames: FrameList) -> Int {
        var highestOrder = 0
        frames.forEachDecodeOrder { _, order in highestOrder = max(highestOrder, order) }
        var depth = 0
        if highestOrder < 2 * frames.count + 64, frames.count < Int(Int32.max) {
            let words = highestOrder / 64 + 1
            var marks = [UInt64](repeating: 0, count: words)
            // Thrown at a repeated (or negative) decode order: the sort below answers then.
            struct Repeated: Error {}
            do {
                try marks.withUnsafeMutableBufferPointer { marks in
                    try frames.forEachDecodeOrder { _, order in
                        let bit = UInt64(1) << UInt64(order & 63)
                        if order < 0 || marks[order >> 6] & bit != 0 { throw Repeated() }
                        marks[order >> 6] |= bit
                    }
                }
                // Every order from 0 to the highest marked (every packet a frame, as in most
                // files): each frame's rank is its order.
                if frames.count == highestOrder + 1 {
                    frames.forEachDecodeOrder { index, order in depth = max(depth, order - index) }
                    return depth
                }
                // The marks in the words before each word.
                var marksBefore = [Int](repeating: 0, count: words)
                var total = 0
                for word in 0..<words {
                    marksBefore[word] = total
                    total += marks[word].nonzeroBitCount
                }
                frames.forEachDecodeOrder { index, order in
                    let below = (UInt64(1) << UInt64(order & 63)) &- 1
                    let rank = marksBefore[order >> 6] + (marks[order >> 6] & below).nonzeroBitCount
                    depth = max(depth, rank - index)
                }
                return depth
            } catch {}
        }
        let byDecode = frames.indices.sorted { frames.decodeOrder(at: $0) < frames.decodeOrder(at: $1) }
        for (rank, index) in byDecode.enumerated() { depth = max(depth, rank - index) }
        return depth
    }
}
