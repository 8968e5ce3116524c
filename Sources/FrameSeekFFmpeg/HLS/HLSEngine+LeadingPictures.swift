import FrameSeekCore

extension HLSEngine {
    /// Lands on the frame at `location`, which its segment's engine cannot decode, with an
    /// engine opened on the segment before it and this segment in one stream: an open GOP's
    /// leading pictures (HEVC's RASL pictures after a CRA at the segment's start) refer to
    /// pictures of the GOP before, so a player that played on, and ffmpeg's continuous decode,
    /// show them, and a decoder that starts at the CRA drops them.
    ///
    /// The frame is found in that engine by its PTS (the same media, the same time base), and
    /// the landing is reported on the segment's own frame, with the keyframe it decoded from.
    /// Nil when there is no segment before it to decode after: the first of the window, a gap,
    /// a discontinuity or another initialization section. The segment before is fetched again
    /// and counted; the engine is kept for the next leading picture of the same segment.
    ///
    /// - Throws: `MediaError` when the segments cannot be read or the frame is not decoded
    ///   even so.
    func landLeadingPicture(
        _ location: HLSWindowIndex.Location, of engine: FFmpegEngine, mode: LandingMode,
        interruption: SeekInterruptionFlag?
    ) throws(MediaError) -> (SeekLanding, (engine: FFmpegEngine, localIndex: Int, keyframe: (sequence: Int, localIndex: Int)?))? {
        guard let position = segments.firstIndex(where: { $0.segment.mediaSequence == location.sequence }), position > 0
        else { return nil }
        let segment = segments[position].segment, previous = segments[position - 1].segment
        guard HLSWindowIndex.continues(segment, from: previous) else { return nil }
        let joined: FFmpegEngine
        if let kept = leadingPictureEngine, kept.sequence == location.sequence {
            joined = kept.engine
        } else {
            var joinedOptions = options
            joinedOptions.memoryOrigin = segmentOrigin
            joined = try FFmpegEngine(
                bytes: try bytes(of: previous, withMap: true) + bytes(of: segment, withMap: false),
                name: SegmentFetcher.location(of: segment.uri), options: joinedOptions)
            leadingPictureEngine = (location.sequence, joined)
        }
        let pts = engine.frameTable.frames[location.localIndex].pts
        guard let joinedIndex = joined.frameTable.frameIndex(ofPTS: pts) else { return nil }
        let plan: LandingPlan
        do { plan = try joined.frameTable.planLanding(onFrame: joinedIndex) } catch { return nil }
        let landing = try joined.land(plan, mode: mode, interruption: interruption)
        // The keyframe it decoded from is the previous segment's, or this one's.
        let keyframe = landing.keyframeIndex.flatMap { index -> (sequence: Int, localIndex: Int)? in
            let keyPTS = joined.frameTable.frames[index].pts
            if let own = engine.frameTable.frameIndex(ofPTS: keyPTS) { return (location.sequence, own) }
            return engines.peek(previous.mediaSequence)?.frameTable.frameIndex(ofPTS: keyPTS).map { (previous.mediaSequence, $0) }
        }
        let landedPTS = joined.frameTable.frames[landing.frame.index].pts
        return (landing, (joined, engine.frameTable.frameIndex(ofPTS: landedPTS) ?? location.localIndex, keyframe))
    }
}
