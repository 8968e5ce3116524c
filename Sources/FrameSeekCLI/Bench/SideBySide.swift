import FrameSeek

/// `bench A B [C...]`: the same workloads on the same targets in every encode, and the
/// verdicts that compare them.
enum SideBySide {
    /// Workloads whose seeks go to the first file's targets in every file; the others are
    /// defined by each file itself (every frame, every 10 s, N spread evenly, each open).
    static func sharesTargets(_ workload: BenchWorkload) -> Bool { [.random, .scrub, .long].contains(workload) }

    /// The first file's targets, for a file `duration` seconds long: the same times when the
    /// durations agree within `tolerance` seconds (a frame), else the same fractions of each
    /// duration.
    static func targets(_ first: BenchResult, forDuration duration: Double, within tolerance: Double) -> [MediaTime] {
        let times = first.samples.map(\.target)
        guard first.durationSeconds > 0, abs(duration - first.durationSeconds) > tolerance else { return times }
        let scale = duration / first.durationSeconds
        return times.map { MediaTime(seconds: $0.seconds * scale, preferredTimescale: 1_000_000) }
    }

    /// A verdict line per workload for each file after the first, against the first.
    static func verdicts(_ results: [BenchResult], network: NetworkModel?) -> [String] {
        var lines: [String] = []
        var firstOfWorkload: [BenchWorkload: BenchResult] = [:]
        for result in results {
            guard let base = firstOfWorkload[result.workload] else {
                firstOfWorkload[result.workload] = result
                continue
            }
            if let line = SeekCostSummary.verdict(result, against: base, network: network) { lines.append(line) }
        }
        return lines
    }
}
