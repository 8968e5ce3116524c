/// Frames kept as runs: in each run every frame is a keyframe, lasts the same number of ticks
/// and starts where the one before it ends, in decode order. That is how an audio stream's
/// frames come (an MP3 is one run, less the frames its priming and padding trim), so a frame
/// costs only its packet position, 8 bytes.
struct FrameRuns: Sendable {
    /// Frames from `firstIndex` until the next run's: frame `firstIndex + k` has PTS
    /// `firstPTS + k * durationTicks` and decode order `firstDecodeOrder + k`.
    private struct Run: Sendable {
        let firstIndex: Int
        let firstPTS: Int64
        let durationTicks: Int64
        let firstDecodeOrder: Int
    }

    private var runs: [Run] = []
    /// Each frame's packet position, -1 when unknown.
    private var positions: [Int64] = []

    /// The number of frames.
    var count: Int { positions.count }

    /// Whether runs take less memory than packing the frames would (16 bytes each, 24 with positions).
    var pays: Bool { runs.count * 4 <= positions.count }

    /// The bytes the runs and positions hold.
    var residentBytes: Int { runs.count * MemoryLayout<Run>.stride + positions.count * MemoryLayout<Int64>.stride }

    /// Adds the next frame; false, adding nothing, when it is not a keyframe or runs no longer
    /// pay (more than one run per four frames, after the first hundred).
    mutating func append(pts: Int64, durationTicks: Int64, isKeyframe: Bool, decodeOrder: Int, position: Int64?) -> Bool {
        guard isKeyframe else { return false }
        if let run = runs.last, durationTicks == run.durationTicks, follows(run, pts: pts, decodeOrder: decodeOrder) {
            positions.append(position ?? -1)
            return true
        }
        guard positions.count < 100 || runs.count * 4 < positions.count else { return false }
        runs.append(Run(firstIndex: positions.count, firstPTS: pts, durationTicks: durationTicks, firstDecodeOrder: decodeOrder))
        positions.append(position ?? -1)
        return true
    }

    /// Whether a frame with `pts` and `decodeOrder` is the next of `run`.
    private func follows(_ run: Run, pts: Int64, decodeOrder: Int) -> Bool {
        let k = positions.count - run.firstIndex
        let (span, overflow) = Int64(k).multipliedReportingOverflow(by: run.durationTicks)
        guard !overflow else { return false }
        let (expected, overflowed) = run.firstPTS.addingReportingOverflow(span)
        return !overflowed && expected == pts && run.firstDecodeOrder + k == decodeOrder
    }

    /// Frame `index`'s numbers.
    subscript(index: Int) -> (pts: Int64, durationTicks: Int64, decodeOrder: Int, position: Int64?) {
        var low = 0, high = runs.count  // the last run starting at or before `index`
        while low + 1 < high {
            let mid = (low + high) / 2
            if runs[mid].firstIndex <= index { low = mid } else { high = mid }
        }
        let run = runs[low], k = index - run.firstIndex
        let position = positions[index]
        return (run.firstPTS + Int64(k) * run.durationTicks, run.durationTicks, run.firstDecodeOrder + k, position < 0 ? nil : position)
    }
}
