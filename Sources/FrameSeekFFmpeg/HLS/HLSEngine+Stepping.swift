import FrameSeekCore

extension HLSEngine {
    /// Steps `count` frames in presentation order across the whole window, from the current
    /// frame (frame 0 before any landing), crossing segment boundaries as if the window were
    /// one file. The step is `FFmpegEngine`'s (`FrameStepLoop`) on the window's table: each
    /// destination is landed by its segment's engine, backward steps refilling that engine's
    /// cache, and a frame its segment engine knows it cannot decode is stepped over and
    /// counted in `decodeErrors`. Never throws: failures are typed reasons.
    ///
    /// An engine that indexes as needed steps on the run of segments around the landed frame
    /// instead (`stepInSegments`), fetching only those, as a player does; its frames are then
    /// not indexed.
    public func step(_ direction: FrameStepDirection, count: Int = 1) -> FrameStepReport {
        if indexesAsNeeded, !indexesWholeWindow, let report = stepInSegments(direction, count: count) { return report }
        try? indexWholeWindow()
        let index = self.index
        return FrameStepLoop(
            table: index.table, isVideo: media.selectedStream.mediaType == .video,
            land: { plan, mode throws(MediaError) in
                try self.land(plan, on: index, mode: mode, interruption: nil, readsBefore: self.reads)
            },
            isUndecodable: { self.isUndecodable($0, in: index) },
            currentFrame: { self.currentFrameIndex.map { index.table.frames[$0] } }
        )
        .step(direction, count: count, from: currentFrameIndex ?? 0)
    }

    /// The most segments a step's run grows to before the whole window answers instead.
    static let stepRunLimit = 16

    /// The step on the run of segments that holds the landed frame (the window's first segment
    /// before any landing), grown a segment at a time until it holds the destination and a
    /// frame beyond it in the step's direction, or reaches the window's edge. The run lists the window's frames at the
    /// window's times (`HLSWindowIndex.build`, as `seekInSegments` lands), so the step lands
    /// where the window's would. Nil, for the whole window to answer, when a segment of the
    /// run cannot be read or the step stopped at the run's edge inside the window.
    private func stepInSegments(_ direction: FrameStepDirection, count: Int) -> FrameStepReport? {
        let origin = landedLocation
        guard let position = origin.map({ location in segments.firstIndex { $0.segment.mediaSequence == location.sequence } }) ?? 0
        else { return nil }
        var (first, last) = (position, position)
        let wanted = max(1, count)
        while true {
            guard let run = run(first...last) else { return nil }
            // A leading picture of the run's first segment is listed only with the segment before.
            guard let current = origin.map({ run.globalIndex(sequence: $0.sequence, localIndex: $0.localIndex) }) ?? 0 else {
                guard first > 0 else { return nil }
                first -= 1
                continue
            }
            // Far steps are the whole window's: growing a run a segment at a time rebuilds it each time.
            guard last - first < Self.stepRunLimit else { return nil }
            if direction == .forward, wanted >= run.table.frames.count - 1 - current, last + 1 < segments.count {
                last += 1
                continue
            }
            if direction == .backward, wanted >= current, first > 0 {
                first -= 1
                continue
            }
            let report = FrameStepLoop(
                table: run.table, isVideo: media.selectedStream.mediaType == .video,
                land: { plan, mode throws(MediaError) in
                    try self.land(plan, on: run, isWholeWindow: false, mode: mode, interruption: nil, readsBefore: self.reads)
                },
                isUndecodable: { self.isUndecodable($0, in: run) },
                currentFrame: {
                    self.landedLocation.flatMap { run.globalIndex(sequence: $0.sequence, localIndex: $0.localIndex) }.map {
                        run.table.frames[$0]
                    }
                },
                isIndexed: false
            )
            .step(direction, count: count, from: current)
            switch report.result.unavailableReason {
            case .endOfStream? where last + 1 < segments.count, .startOfStream? where first > 0: return nil
            default: return report
            }
        }
    }

    /// Whether frame `frame` of `index` is one its segment's open engine found it cannot
    /// decode, or a leading picture the segment before did not decode.
    private func isUndecodable(_ frame: Int, in index: HLSWindowIndex) -> Bool {
        let location = index.locations[frame]
        return undecodableLeadingPictures.contains(location)
            || engines.peek(location.sequence)?.undecodable[location.localIndex] != nil
    }
}
