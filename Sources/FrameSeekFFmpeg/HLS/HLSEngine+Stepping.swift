import FrameSeekCore

extension HLSEngine {
    /// Steps `count` frames in presentation order across the whole window, from the current
    /// frame (frame 0 before any landing), crossing segment boundaries as if the window were
    /// one file. The step is `FFmpegEngine`'s (`FrameStepLoop`) on the window's table: each
    /// destination is landed by its segment's engine, backward steps refilling that engine's
    /// cache, and a frame its segment engine knows it cannot decode is stepped over and
    /// counted in `decodeErrors`. Never throws: failures are typed reasons.
    public func step(_ direction: FrameStepDirection, count: Int = 1) -> FrameStepReport {
        FrameStepLoop(
            table: frameTable, isVideo: media.selectedStream.mediaType == .video,
            land: { plan, mode throws(MediaError) in
                try self.land(plan, on: self.index, mode: mode, interruption: nil, readsBefore: self.reads)
            },
            isUndecodable: { self.isUndecodable($0) },
            currentFrame: { self.currentFrameIndex.map { self.frameTable.frames[$0] } }
        )
        .step(direction, count: count, from: currentFrameIndex ?? 0)
    }

    /// Whether global frame `index` is one its segment's open engine found it cannot decode.
    private func isUndecodable(_ frame: Int) -> Bool {
        let location = index.locations[frame]
        return engines.peek(location.sequence)?.undecodable[location.localIndex] != nil
    }
}
