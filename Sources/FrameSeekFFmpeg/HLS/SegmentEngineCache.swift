/// The segment engines an `HLSEngine` keeps open, least recently used first out.
///
/// Each open segment engine holds its segment's bytes, a demuxer, a decoder and a frame cache,
/// so only a few stay open: the one landed in and its neighbours cover seeks within a segment
/// and steps across a boundary. An evicted segment is fetched and opened again when it is
/// needed; its frame table comes out the same, so the global index stays valid.
///
/// Not Sendable: it holds `FFmpegEngine`s, which belong to their owner's executor.
final class SegmentEngineCache {
    /// How many engines stay open.
    let capacity: Int
    /// Most recently used last.
    private var entries: [(sequence: Int, engine: FFmpegEngine)] = []

    init(capacity: Int) {
        precondition(capacity >= 1, "at least the landed segment's engine stays open")
        self.capacity = capacity
    }

    /// The open engine of segment `sequence`, now the most recently used; nil if not open.
    func engine(_ sequence: Int) -> FFmpegEngine? {
        guard let position = entries.firstIndex(where: { $0.sequence == sequence }) else { return nil }
        let entry = entries.remove(at: position)
        entries.append(entry)
        return entry.engine
    }

    /// The open engine of segment `sequence`, leaving the order alone; nil if not open.
    func peek(_ sequence: Int) -> FFmpegEngine? {
        entries.first { $0.sequence == sequence }?.engine
    }

    /// Keeps `engine` open for segment `sequence`, closing the least recently used beyond the
    /// capacity.
    func insert(_ engine: FFmpegEngine, for sequence: Int) {
        entries.removeAll { $0.sequence == sequence }
        entries.append((sequence, engine))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    /// Closes the engines of segments that are no longer in the window.
    func keepOnly(_ sequences: Set<Int>) {
        entries.removeAll { !sequences.contains($0.sequence) }
    }
}
