import FrameSeekCore

extension HLSEngine {
    /// Reads every segment of the window not read yet and builds the whole window's table, as
    /// a `full` open would have; the landed frame keeps its place. Nothing to do once the
    /// table is built.
    ///
    /// - Throws: `MediaError` (`.noPlayableStream`) when no segment of the window can be read
    ///   (an engine described by its init section alone may have read none); the table then
    ///   stays empty.
    func indexWholeWindow() throws(MediaError) {
        guard !indexesWholeWindow else { return }
        if segments.contains(where: { $0.content == nil }) { segments = indexWindow(reusing: segments) }
        try rebuildIndex()
    }

    /// The position in the window of the segment whose playlist span holds `time`: the first
    /// segment for a time before the window, the last for one after it.
    func segmentPosition(holding time: MediaTime) -> Int {
        let starts = timeline.segmentStarts
        guard !starts.isEmpty else { return 0 }
        switch time.kind {
        case .negativeInfinity: return 0
        case .positiveInfinity: return starts.count - 1
        default: return (starts.lastIndex { $0 <= time }) ?? 0
        }
    }

    /// The frames of the segment at `position`, fetched and opened now if it was not read
    /// yet; nil when it cannot be read (its cause is kept in `segments`).
    @discardableResult
    func indexSegment(at position: Int) -> IndexedSegment.Frames? {
        let indexed = segments[position]
        if indexed.content == nil { segments[position] = read(indexed.segment, listedAt: indexed.start) }
        return segments[position].frames
    }

    /// Lands a seek on the run of segments its landing needs, read now if they were not, as a
    /// player fetches them: the landing rules look only at the frames within the precision's
    /// tolerances of the target, so the run is the segments whose playlist spans hold those
    /// times, grown
    /// - back by a segment while its first frame comes after the earliest time the rules look
    ///   at (a segment whose first frames were left out: they are in the segment before),
    /// - forward by a segment while the latest time they look at is past the run's last frame's
    ///   own end (the window's table has the next segment's first frame there, or the last
    ///   frame's interval reaching to it), or for DASH past that frame's start
    ///   (`nextSegmentMayFollow`: the next segment's first frame may start before the MPD's
    ///   start for it, and so before the last frame's own end), and
    /// - forward by a segment while a precision with no bound after the target finds no
    ///   keyframe after it.
    /// Each segment's frames are placed as in the whole window (`HLSWindowIndex`), the run's
    /// last one bounded by the next segment's start, so the run's table lists the same frames
    /// at the same times as the window's table would there, and the landing is the same. Its
    /// frame numbers are the run's, so the landing says it is not indexed. Where a segment of
    /// the run cannot be read, the whole window is indexed and the seek lands on it, missing
    /// data and all, as a `full` open would.
    func seekInSegments(
        to time: MediaTime, precision: SeekPrecision, interruption: SeekInterruptionFlag?
    ) throws(MediaError) -> SeekLanding {
        try FrameTable.checkRequest(time, precision: precision, for: url)
        let clock = ContinuousClock()
        let start = clock.now
        let readsBefore = reads
        let (before, after) = precision.window
        let isNumeric = time.kind == .numeric
        let low = !isNumeric || before == .positiveInfinity ? time : time - before
        let high: MediaTime? = !isNumeric ? time : after == .positiveInfinity ? nil : time + after
        // `low` and `high` choose segments and may be rounded (`MediaTime`'s `-` and `+`); whether
        // the run holds the window is decided on the exact edges, as the landing is.
        let exactLow = before == .positiveInfinity ? ExactTime(time) : ExactTime(time, minus: before)
        let exactHigh = after == .positiveInfinity ? nil : ExactTime(time, plus: after)
        var first = segmentPosition(holding: low)
        var last = high.map(segmentPosition(holding:)) ?? first
        while true {
            guard let run = run(first...last), let firstFrame = run.table.frames.first else {
                return try seekOnWholeWindow(
                    to: time, precision: precision, interruption: interruption, readsBefore: readsBefore,
                    since: start)
            }
            if isNumeric, first > 0, ExactTime(firstFrame.time) > exactLow {
                first -= 1
                continue
            }
            if isNumeric, last + 1 < segments.count, let lastFrame = run.table.frames.last,
                nextSegmentMayFollow(lastFrame, before: exactHigh ?? ExactTime(time))
            {
                last += 1
                continue
            }
            if isNumeric, high == nil, last + 1 < segments.count,
                !run.table.randomAccessPoints.contains(where: { $0.frameIndex.map { run.table.frames[$0].time >= time } ?? false })
            {
                last += 1
                continue
            }
            let plan = try run.table.planLanding(at: time, precision: precision, for: url)
            let fetching = clock.now - start
            return try land(
                plan, on: run, isWholeWindow: false, mode: .decode, interruption: interruption, readsBefore: readsBefore
            )
            .addingWindowCost(reads: nil, demuxerSeeks: 0, latency: fetching)
        }
    }

    /// Whether the window's table may have a frame of the segment after a run, or the run's
    /// last frame `lastFrame` reaching to one, at or before `reach`, the latest time the
    /// landing rules look at: the run then needs that segment.
    ///
    /// Past the last frame's own end, it may: the window's table has the next segment's first
    /// frame there, or that last frame's interval reaching to it. An HLS segment is placed at
    /// its listed start, which is also what chose the run's segments: a `reach` at or past it
    /// already has the segment in the run. A DASH segment's frames sit at their own media
    /// times, which need not start where the MPD starts the segment (ffmpeg's muxer writes a
    /// VFR keyframe's composition time early, before a `$Number$` template's nominal start):
    /// its first frame may be anywhere after the run's last frame, cutting that frame's
    /// interval short, and is known only once the segment is read; so the run needs it for any
    /// `reach` past that frame's start.
    func nextSegmentMayFollow(_ lastFrame: FrameEntry, before reach: ExactTime) -> Bool {
        reach >= ExactTime(lastFrame.time, plus: lastFrame.duration)
            || (mediaTimeOffsets != nil && reach > ExactTime(lastFrame.time))
    }

    /// The table of the window's segments at `positions`, read now if they were not, listing
    /// the frames the whole window's table lists there at the same times (its last segment
    /// bounded by the next one's start); nil when one of them cannot be read.
    func run(_ positions: ClosedRange<Int>) -> HLSWindowIndex? {
        guard !positions.contains(where: { indexSegment(at: $0) == nil }) else { return nil }
        return HLSWindowIndex.build(
            Array(segments[positions]), timeBase: timeBase,
            nextStart: segments.indices.contains(positions.upperBound + 1) ? segments[positions.upperBound + 1].start : nil,
            limitsByNextStart: mediaTimeOffsets == nil)
    }

    /// Indexes the whole window and lands there, the time since `start` and the reads since
    /// `readsBefore` counted in the landing.
    private func seekOnWholeWindow(
        to time: MediaTime, precision: SeekPrecision, interruption: SeekInterruptionFlag?,
        readsBefore: MediaReads, since start: ContinuousClock.Instant
    ) throws(MediaError) -> SeekLanding {
        let clock = ContinuousClock()
        try indexWholeWindow()
        let plan = try index.table.planLanding(at: time, precision: precision, for: url)
        let indexing = clock.now - start
        return try land(plan, on: index, mode: .decode, interruption: interruption, readsBefore: readsBefore)
            .addingWindowCost(reads: nil, demuxerSeeks: 0, latency: indexing)
    }
}
