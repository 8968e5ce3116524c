import FrameSeekCore

extension FFmpegEngine {
    /// The selected stream's whole table, built now if the engine opened without it
    /// (`FrameIndexing.asNeeded`): the media is read from its first packet, as a `full` open
    /// reads it, and the table is kept in the index cache. The landed frame stays landed.
    ///
    /// - Throws: `MediaError` as opening with `full` would have.
    @discardableResult
    public func completeFrameTable() throws(MediaError) -> FrameTable {
        guard let deferredIndex, !executor.table.coversStream else { return executor.table }
        let whole = try deferredIndex.wholeTable()
        executor.adopt(whole)
        // The whole table tells a truncated file, as a `full` open's does.
        if let truncation = TruncationCheck.check(
            pool.active.demuxer, table: whole.table, readError: whole.readError, stated: deferredIndex.statedDuration)
        {
            executor.noteTruncation(truncation)
        }
        return whole.table
    }

    /// Whether landings are planned on the whole stream's table: false while an engine opened
    /// with `FrameIndexing.asNeeded` lands in seek windows.
    public var indexesWholeStream: Bool { executor.table.coversStream }

    /// The whole stream's table once it is built; nil while an engine opened with
    /// `FrameIndexing.asNeeded` lands in seek windows and the header states the duration, so a
    /// player's load reads no more than the open did. Without a stated duration the table is
    /// built, since nothing else bounds where seeks may land.
    public var indexedFrameTable: FrameTable? {
        if decodeAhead.standing == nil, unindexedRange != nil { return nil }
        return frameTable
    }

    /// `0 ..< the stated duration` while the table is not built (`indexedFrameTable`), else
    /// the table's range.
    public var seekableRange: Range<MediaTime>? { unindexedRange ?? frameTable.seekableRange }

    /// Where seeks may land by the header alone, while landings are planned in seek windows.
    private var unindexedRange: Range<MediaTime>? {
        guard let deferredIndex, !executor.table.coversStream, let stated = deferredIndex.statedDuration, stated > .zero
        else { return nil }
        return .zero..<stated
    }

    /// Lands a seek in a window read for it (`SeekWindowReader`), planned there by the same
    /// landing rules as on the whole table; when no window can be read (a demuxer that cannot
    /// seek, no keyframe before the target), on the whole table instead.
    func seekInWindow(
        to time: MediaTime, precision: SeekPrecision, interruption: SeekInterruptionFlag?,
        deferredIndex: DeferredIndex, mode: LandingMode = .decode
    ) throws(MediaError) -> SeekLanding {
        try FrameTable.checkRequest(time, precision: precision, for: path)
        guard let span = windowSpan(for: time, precision: precision) else {
            try completeFrameTable()
            return try executor.land(executor.plan(at: time, precision: precision), mode: mode, interruption: interruption)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let readsBefore = pool.reads
        var seeks = 0
        var separateReads = MediaReads.none
        if !deferredIndex.windowHolds(span.start...(span.end ?? .max)) {
            if let window = try readWindow(from: span.start, through: span.end, deferredIndex: deferredIndex) {
                seeks = window.demuxerSeeks
                separateReads = window.separateReads
            } else {
                try completeFrameTable()
            }
        }
        let windowReads = pool.reads - readsBefore + separateReads
        let windowTime = clock.now - start
        let landing = try executor.land(executor.plan(at: time, precision: precision), mode: mode, interruption: interruption)
        return landing.addingWindowCost(reads: windowReads, demuxerSeeks: seeks, latency: windowTime)
    }

    /// Reads the window holding a keyframe at or before `start` and every frame through `end`
    /// (`SeekWindowReader`), and plans on it from now on; nil when none can be read.
    func readWindow(
        from start: Int64, through end: Int64?, deferredIndex: DeferredIndex
    ) throws(MediaError) -> SeekWindowReader.Window? {
        try readWindow(deferredIndex: deferredIndex) { reader throws(MediaError) in try reader.read(keyframeAtOrBefore: start, through: end)
        }
    }

    /// Reads the window `read` gives through the active decoder's demuxer, and plans on it from
    /// now on; nil when it gives none.
    func readWindow(
        deferredIndex: DeferredIndex,
        _ read: (SeekWindowReader) throws(MediaError) -> Result<SeekWindowReader.Window, SeekWindowReader.Unavailable>
    ) throws(MediaError) -> SeekWindowReader.Window? {
        var reader = deferredIndex.windowReader(pool.active.demuxer)
        if executor.table.numbersStreamFrames { reader.previousPrefixEnd = deferredIndex.window?.upperBound }
        guard case .success(let window) = try read(reader) else { return nil }
        executor.adopt(window.result)
        // A window that ran to the end of the stream holds its last frames: what tells a
        // truncated file from a whole one, as the whole scan would have.
        if window.completeThrough == .max,
            let truncation = TruncationCheck.check(
                pool.active.demuxer, table: window.result.table, readError: window.readError,
                stated: deferredIndex.statedDuration)
        {
            executor.noteTruncation(truncation)
        }
        let first = window.result.table.randomAccessPoints.first?.pts ?? window.completeThrough
        deferredIndex.plansOn(
            window: min(first, window.completeThrough)...window.completeThrough, startsStream: window.startsStream)
        return window
    }

    /// The PTS span a window for `time` at `precision` must hold: a keyframe at or before
    /// `start`, and every frame through `end` (nil: through the first keyframe at or after
    /// `start`). Rounded outward, so the window holds at least what the landing rules look at.
    /// Nil when the time cannot be placed (the end of a stream of unknown duration).
    func windowSpan(for time: MediaTime, precision: SeekPrecision) -> (start: Int64, end: Int64?)? {
        let table = executor.table
        let (before, after) = precision.window
        // Exact edges (`ExactTime`): `MediaTime`'s `-` and `+` round where the timescales'
        // multiple passes Int32, which could pull a window's edge inward past a frame's start.
        func pts(_ t: ExactTime) -> Int64? {
            guard let ticks = t.ticks(in: table.timeBase) else { return nil }
            let (value, overflow) = ticks.addingReportingOverflow(table.originPTS)
            return overflow ? nil : value
        }
        switch time.kind {
        case .negativeInfinity:
            return (.min, pts(ExactTime(.zero)))
        case .positiveInfinity:
            // The last frames: from the keyframe before the stated end to the end of the stream.
            guard let duration = media.duration, let end = pts(ExactTime(duration)) else { return nil }
            return (end, .max)
        default:
            var low = before == .positiveInfinity ? ExactTime(time) : ExactTime(time, minus: before)
            if media.selectedStream.mediaType == .audio { low = min(low, ExactTime(time, minus: SeekWindowReader.audioLeadIn)) }
            guard let start = pts(low) ?? (low < ExactTime(.zero) ? .min : nil) else { return nil }
            if after == .positiveInfinity { return (start, nil) }
            guard let end = pts(ExactTime(time, plus: after)) else { return nil }
            // One tick more: `ticks(in:)` floors, and a frame just past the end may cover it.
            let (past, overflow) = end.addingReportingOverflow(1)
            return (start, overflow ? .max : past)
        }
    }
}
