import FrameSeekCore

extension LandingExecutor {
    /// Tells a demuxer reading over HTTP which bytes the landing reads, from an MP4's index:
    /// the keyframe's sample alone, or from it through the samples past the target in decode
    /// order that the decoder needs before it gives the target out (`reorderSlack`). The span
    /// ends before the first sample the index does not place within 64 bits.
    func announceReads(from point: RandomAccessPoint, to target: FrameEntry, keyframeOnly: Bool) {
        let demuxer = pool.active.demuxer
        guard demuxer.ranged != nil, table.source == .sampleTable || table.source == .containerIndex else { return }
        let first = point.decodeOrder, last = keyframeOnly ? first : max(first, target.decodeOrder) + Self.reorderSlack
        var span: Range<Int64>?
        for order in first...last {
            guard let sample = demuxer.indexEntry(of: table.streamIndex, at: order)?.bytes else { break }
            span = span.map { min($0.lowerBound, sample.lowerBound)..<max($0.upperBound, sample.upperBound) } ?? sample
        }
        demuxer.expectReads(in: span)
    }
}
