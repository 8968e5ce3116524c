import FrameSeekCore

extension FFmpegEngine {
    /// Whether landings that may go to a keyframe are decided on the keyframes the container's
    /// own index lists, without reading a packet (`listedKeyframe(for:precision:)`): a Matroska
    /// file whose Cues list the stream's keyframes (`DeferredIndex.listedKeyframes`), opened as
    /// needed (`FrameIndexing.asNeeded`), while its whole table is not built. Reads the list
    /// the first time, which seeks the active decoder's demuxer.
    package var landsOnListedKeyframes: Bool { listedKeyframes() != nil }

    /// The keyframes the container's index lists, read once (`DeferredIndex.listedKeyframes`)
    /// and checked against the stream's last GOP, read in a window as `framesEnd()` reads it:
    /// its keyframes must all be listed, the last of them last. A list that stops short (Cues
    /// cut off or absent, and only the keyframes FFmpeg's seek read on its way) fails there.
    /// Nil while the engine plans on the whole table, and where there is no such list.
    private func listedKeyframes() -> [DeferredIndex.ListedKeyframe]? {
        guard let deferredIndex, !executor.table.coversStream else { return nil }
        let table = executor.table
        let unread = deferredIndex.listIsUnread
        let listed = deferredIndex.listedKeyframes(in: pool.active.demuxer, streamIndex: table.streamIndex, seekingTo: table.originPTS) {
            let (ticks, overflow) = $0.subtractingReportingOverflow(table.originPTS)
            return overflow ? nil : table.timeBase.time(ofTicks: ticks)
        }
        guard unread else { return listed }
        // Reading the list sought the demuxer: the next landing seeks.
        executor.forgetActivePosition()
        guard let listed else { return nil }
        let tail = (try? readEndWindow()) ?? nil
        let keyframes = tail?.frames.filter(\.isKeyframe).map(\.pts) ?? []
        let pts = Set(listed.map(\.pts))
        guard let last = keyframes.last, last == listed.last?.pts, keyframes.allSatisfy(pts.contains) else {
            deferredIndex.rejectList()
            return nil
        }
        return listed
    }

    /// The window that reads to the end of the stream, from the keyframe before the stated end
    /// (the last GOP), planned on from now on; nil when none can be read.
    private func readEndWindow() throws(MediaError) -> FrameTable? {
        guard let deferredIndex, let span = windowSpan(for: .positiveInfinity, precision: .exact) else { return nil }
        if !deferredIndex.windowHolds(span.start...(span.end ?? .max)) {
            guard try readWindow(from: span.start, through: span.end, deferredIndex: deferredIndex) != nil else { return nil }
        }
        return executor.table
    }

    /// The PTS of the keyframe the landing rules choose for `time` at `precision` among the
    /// keyframes the container's index lists (`landsOnListedKeyframes`): rule 2, decided on the
    /// Cues as a streaming player's scrub preview is, before any packet is read. Nil where the
    /// index does not decide it, and the landing is planned in a seek window instead: the
    /// engine plans on the whole table, the list is not there, the target is before the first
    /// listed keyframe (where rule 1 may clamp to a frame presented before it), or no listed
    /// keyframe lies within the tolerance. Past the last one, the clamp to the last frame
    /// leaves the last listed keyframe the nearest.
    ///
    /// A file whose Cues skip keyframes (one per cluster, several keyframes to a cluster) has
    /// its landings on the nearest keyframe they list, as a player's; `FrameIndexing.full`
    /// decides on every keyframe.
    ///
    /// - Throws: `MediaError` (`.invalidRequest`) for a time or tolerance no landing can aim at.
    package func listedKeyframe(for time: MediaTime, precision: SeekPrecision) throws(MediaError) -> Int64? {
        try FrameTable.checkRequest(time, precision: precision, for: path)
        guard time.isNumeric, let listed = listedKeyframes(), let first = listed.first, first.time <= time else { return nil }
        let (before, after) = precision.window
        return FrameTable.nearestKeyframe(
            count: listed.count, time: { listed[$0].time }, to: time, before: before, after: after
        ).map { listed[$0].pts }
    }

    /// Lands on the keyframe with PTS `pts`, which `listedKeyframe(for:precision:)` chose for
    /// `requested` at `precision`, reading and decoding its packet alone
    /// (`SeekWindowReader.read(keyframeAt:)`, `LandingMode.keyframeOnly`). Where the stream has
    /// no keyframe there after all (an index that is wrong), `requested` lands at `precision`
    /// in a seek window instead.
    ///
    /// - Throws: `MediaError` as `seek(to:precision:interruption:)` does.
    package func landOnListedKeyframe(_ pts: Int64, for requested: MediaTime, precision: SeekPrecision) throws(MediaError) -> SeekLanding {
        decodeAhead.abandon()
        let clock = ContinuousClock()
        let start = clock.now
        let readsBefore = pool.reads
        var seeks = 0
        // On the whole table (built since for a landing no window could serve), the same
        // keyframe is landed on, found there by its PTS.
        if let deferredIndex, !executor.table.coversStream, !deferredIndex.windowHolds(pts...pts) {
            guard
                let window = try readWindow(deferredIndex: deferredIndex, { reader throws(MediaError) in try reader.read(keyframeAt: pts) })
            else { return try landInWindow(at: requested, precision: precision) }
            seeks = window.demuxerSeeks
        }
        // A window read before may hold the PTS without a keyframe there.
        let table = executor.table
        guard let index = table.frameIndex(ofPTS: pts), table.frames[index].isKeyframe else {
            return try landInWindow(at: requested, precision: precision)
        }
        let (windowReads, windowTime) = (pool.reads - readsBefore, clock.now - start)
        let landing = try executor.land(executor.plan(at: table.frames[index].time, precision: .exact), mode: .keyframeOnly)
        return landing.addingWindowCost(reads: windowReads, demuxerSeeks: seeks, latency: windowTime)
    }

    /// Lands on the frame at `time` by `precision`, in a seek window read for it, decoding only
    /// the landed keyframe's packet where that is all it needs (`LandingMode.keyframeOnly`):
    /// how thumbnails land while the engine plans in windows.
    ///
    /// - Throws: `MediaError` as `seek(to:precision:interruption:)` does.
    package func landInWindow(at time: MediaTime, precision: SeekPrecision) throws(MediaError) -> SeekLanding {
        decodeAhead.abandon()
        guard let deferredIndex, !executor.table.coversStream else {
            return try executor.land(executor.plan(at: time, precision: precision), mode: .keyframeOnly)
        }
        return try seekInWindow(to: time, precision: precision, interruption: nil, deferredIndex: deferredIndex, mode: .keyframeOnly)
    }

    /// Where the stream's frames end on the timeline: the whole table's end, or, in seek
    /// windows, the end of the last frame of a window read to the end of the stream (the last
    /// GOP; a truncated file is found so, as by a seek there). Nil when no frame can be found.
    ///
    /// - Throws: `MediaError` as a seek to the end does.
    package func framesEnd() throws(MediaError) -> MediaTime? {
        guard deferredIndex != nil, !executor.table.coversStream else { return frameTable.seekableRange?.upperBound }
        guard let tail = try readEndWindow() else { return try completeFrameTable().seekableRange?.upperBound }
        return tail.seekableRange?.upperBound
    }
}
