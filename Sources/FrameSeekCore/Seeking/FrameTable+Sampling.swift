extension FrameTable {
    /// `count` times spread evenly over the stream, one in the middle of each of `count` equal
    /// parts of the span from the first frame's start to the last frame's start: the times
    /// `peers.py --workload sample` and dataset samplers use, `first + span × (i + ½) / count`.
    ///
    /// Computed on the stream's tick grid (rounded down to a tick), so each time is exact and
    /// the frame covering it is the one a float computation of the same formula names, but
    /// for a time within a tick of a frame boundary. Empty for an empty table or `count` < 1.
    public func evenlySpacedTimes(count: Int) -> [MediaTime] {
        guard let first = frames.first, let last = frames.last, count > 0 else { return [] }
        let span = last.pts &- first.pts
        return (0..<count).map { i in
            let numerator = Int64(2 * i + 1), denominator = Int64(2 * count)
            // span × (2i + 1) can overflow on a hostile file's span; the quotient cannot.
            let product = span.multipliedFullWidth(by: numerator)
            let offset =
                product.high == 0 && product.low <= UInt64(Int64.max)
                ? Int64(product.low) / denominator
                : Int64(Double(span) * Double(numerator) / Double(denominator))
            return time(ofPTS: first.pts &+ offset)
        }
    }

    /// One time every `interval` from the first frame's start, up to the last frame's start:
    /// a frame per interval for a contact sheet. Empty for an empty table or an interval that
    /// is not positive; at most `limit` times.
    public func times(every interval: MediaTime, limit: Int = 1_000_000) -> [MediaTime] {
        guard let first = frames.first, let last = frames.last, interval > .zero else { return [] }
        var times: [MediaTime] = []
        var time = first.time
        while time <= last.time, times.count < limit {
            times.append(time)
            time = time + interval
        }
        return times
    }
}
