// `seek --sample N` and `--every S`: the targets spread as peers.py's sample workload spreads
// them, computed here from ffprobe's frame table, landed on the frame covering each target
// with framemd5's pixels, and printed in order.

import FrameSeekTestSupport
import Testing

@Suite("CLI: seek --sample and --every", .ffmpegLog)
struct CLISampleTests {
    /// The frame covering tick `pts`: the last frame starting at or before it.
    static func covering(_ oracle: Oracle, pts: Int64) -> Int {
        let sorted = oracle.frames.indices.sorted { oracle.frames[$0].pts < oracle.frames[$1].pts }
        return sorted.last { oracle.frames[$0].pts <= pts } ?? sorted[0]
    }

    @Test(
        "--sample 7 lands on the frames covering first + span x (i + 1/2) / 7, with framemd5's MD5s",
        arguments: FixtureCatalog.video)
    func sample(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let ptsInOrder = oracle.frames.map(\.pts).sorted()
        let first = ptsInOrder[0], span = ptsInOrder.last! - first
        let expected = (0..<7).map { Self.covering(oracle, pts: first + span * Int64(2 * $0 + 1) / 14) }
        let lines = jsonLines(["seek", fixture.path, "--sample", "7", "--stream", String(fixture.stream), "--json", "--md5"])
        #expect(lines.map { JSON.int($0["frame_index"]) } == expected, "\(fixture.id)")
        if let md5s = oracle.md5s {
            #expect(lines.map { $0["md5"] as? String } == expected.map { md5s[$0] }, "\(fixture.id) md5s")
        }
    }

    @Test("--every 1 lands once per second from the first frame; TIMEs come first, in the order given")
    func every() throws {
        let fixture = try #require(FixtureCatalog.video.first { $0.id.hasPrefix("h264") })
        let oracle = try Oracle(fixture)
        let firstSeconds = oracle.seconds(0)
        let lastSeconds = oracle.frames.indices.map(oracle.seconds).max()!
        let seconds = stride(from: 0.0, through: lastSeconds - firstSeconds, by: 1.0).map { firstSeconds + $0 }
        let ticksPerSecond = Double(oracle.timeBaseDenominator) / Double(oracle.timeBaseNumerator)
        let expected = seconds.map { Self.covering(oracle, pts: oracle.originPTS + Int64(($0 * ticksPerSecond).rounded())) }
        let before = oracle.count - 1
        let lines = jsonLines(["seek", fixture.path, oracle.middleText(before), "--every", "1", "--json"])
        #expect(lines.map { JSON.int($0["frame_index"]) } == [before] + expected)
    }

    @Test(
        "--sample and --every reject nonsense with exit 2 and one line",
        arguments: [["--sample", "0"], ["--sample", "x"], ["--every", "0"], ["--every", "0.0001"], ["--every", "-1"]])
    func rejects(_ option: [String]) throws {
        let fixture = try #require(FixtureCatalog.video.first)
        let run = frameseek(["seek", fixture.path] + option)
        #expect(run.code == .usageOrInput)
        #expect(run.err.count == 1, "\(run.err)")
    }
}
