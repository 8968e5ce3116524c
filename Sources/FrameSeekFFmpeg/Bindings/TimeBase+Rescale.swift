internal import CFFmpeg
import FrameSeekCore

extension TimeBase {
    /// FFmpeg's internal time base, microseconds (`AV_TIME_BASE_Q`): what a container's start
    /// time and duration are stated in.
    static var microseconds: TimeBase { TimeBase(numerator: 1, denominator: fs_time_base()) }

    /// One tick a sample at `sampleRate` samples a second: 1/`sampleRate`.
    static func samples(at sampleRate: Int32) -> TimeBase { TimeBase(numerator: 1, denominator: sampleRate) }

    /// `ticks` of this time base in ticks of `other`, rounded to the nearest as FFmpeg rounds
    /// (`av_rescale_q`), so that a count agrees with FFmpeg's own.
    func rescale(_ ticks: Int64, to other: TimeBase) -> Int64 {
        av_rescale_q(ticks, rational, other.rational)
    }

    /// `ticks` of this time base in ticks of `other`, rounded up to the next whole tick when
    /// they fall between two (`av_rescale_q_rnd` with `AV_ROUND_UP`).
    func rescaleRoundingUp(_ ticks: Int64, to other: TimeBase) -> Int64 {
        av_rescale_q_rnd(ticks, rational, other.rational, AV_ROUND_UP)
    }

    /// This time base as FFmpeg's `AVRational`.
    var rational: AVRational { AVRational(num: numerator, den: denominator) }
}
