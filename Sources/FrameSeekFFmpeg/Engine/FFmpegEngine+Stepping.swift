import FrameSeekCore

extension FFmpegEngine {
    /// Steps `count` frames in presentation order from the current frame (the last landing;
    /// frame 0 before any).
    ///
    /// Forward steps decode on from where the decoder stands. Backward steps come from the
    /// frame cache; a backward step to a frame not cached decodes its GOP once, from the
    /// keyframe, without skipping anything, and caches the frames up to it, so the steps
    /// after it cost a cache lookup. A frame the decoder cannot produce is stepped over (see
    /// `FrameStepReport.framesStepped`). Never throws: failures are typed reasons.
    public func step(_ direction: FrameStepDirection, count: Int = 1) -> FrameStepReport {
        FrameStepLoop(table: frameTable, isVideo: media.selectedStream.mediaType == .video,
                      land: { plan, mode throws(MediaError) in try self.land(plan, mode: mode) },
                      isUndecodable: { self.undecodable[$0] != nil },
                      currentFrame: { self.landedFrameIndex.map { self.frameTable.frames[$0] } })
            .step(direction, count: count, from: landedFrameIndex ?? 0)
    }
}
