import FrameSeekCore

extension FFmpegEngine {
    /// Whether FrameSeek installs its process-wide FFmpeg log callback; see `FFmpegLogPolicy`.
    /// Read once, when the first engine opens. `FRAMESEEK_FFMPEG_LOG` (`quiet`, `error`,
    /// `warning`, `info`, `debug`) instead keeps FFmpeg's own callback printing to stderr at
    /// that level, unless the policy is `.leaveCallbackAlone`.
    public static var logPolicy: FFmpegLogPolicy {
        get { FFmpegLog.policy.withLock { $0 } }
        set { FFmpegLog.policy.withLock { $0 = newValue } }
    }
}
