// libavcodec's trimming rule as the audio packet table follows it, on packet numbers a hostile
// file can state: a Matroska BlockGroup with a BlockDuration of 10^18 ms and a negative
// DiscardPadding (which FFmpeg makes a skip of samples from the start) has more samples than
// Int64 holds, and a PTS near Int64.max moved later by the skip passes it. Each is a packet the
// rule cannot follow (nil: the table is left to a decode scan), never a trap.

import FrameSeekCore
@testable import FrameSeekFFmpeg
import Testing

@Suite("The audio trimming rule on numbers past Int64")
struct AudioFrameTrimmerTests {
    private func trimmer() -> AudioFrameTrimmer {
        AudioFrameTrimmer(timeBase: TimeBase(numerator: 1, denominator: 1000), sampleRate: 48_000)
    }

    private let skip48 = SampleTrim(start: 48, end: 0)

    @Test("A duration of 10^18 ms, 4.8 * 10^19 samples, with samples to skip: the rule cannot follow it", arguments: [false, true])
    func durationBeyondSamples(isDiscarded: Bool) {
        var rule = trimmer()
        let outcome = rule.frame(pts: 0, duration: 1_000_000_000_000_000_000, isKeyframe: true, isDiscarded: isDiscarded, trim: skip48)
        #expect(outcome == nil)
    }

    @Test("A PTS that the skip would move past Int64.max: the rule cannot follow it")
    func startPastTheLargestPTS() {
        var rule = trimmer()
        // 21 ms is 1,008 samples; skipping 48 of them (1 ms) moves the start 1 ms later.
        #expect(rule.frame(pts: .max, duration: 21, isKeyframe: true, isDiscarded: false, trim: skip48) == nil)
    }

    @Test("The same skip on ordinary numbers moves the frame 1 ms later and shortens it by as much")
    func ordinarySkip() {
        var rule = trimmer()
        #expect(rule.frame(pts: 1000, duration: 21, isKeyframe: true, isDiscarded: false, trim: skip48) == .shown(pts: 1001, duration: 20))
    }
}
