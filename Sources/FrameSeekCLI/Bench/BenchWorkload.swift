import Foundation
import FrameSeek

/// The benchmark workloads: what a player does to an encode, each a list of operations.
public enum BenchWorkload: String, Sendable, CaseIterable {
    /// Exact seeks to uniformly random times over the stream.
    case random
    /// A drag back and forth over 6 s, an exact seek at each sample (as `peers.py --workload scrub`).
    case scrub
    /// Single-frame steps backward from a random frame.
    case backstep
    /// Every frame in order.
    case sequential
    /// One picture every 10 s, from the nearest keyframe before it.
    case thumbnails
    /// N frames spread evenly over the stream, landed as one batch (as `peers.py --workload
    /// sample`, where torchcodec uses its batch call).
    case sample
    /// The file opened again and again, no index cache: what building its table costs.
    case open
    /// A cold exact seek, as a player resuming a long file pays it: the file opened (no index
    /// cache), then one exact seek to a random time, each sample a new open.
    case long

    /// What the workload measures, for reports.
    public var summary: String {
        switch self {
        case .random: return "exact seeks to random times"
        case .scrub: return "a drag back and forth over 6 s, an exact seek per sample"
        case .backstep: return "single-frame steps backward from a random frame"
        case .sequential: return "every frame in order"
        case .thumbnails: return "a 160x90 thumbnail every 10 s, from the nearest keyframe"
        case .sample: return "frames spread evenly over the clip, landed as one batch"
        case .open: return "the file opened, without an index cache"
        case .long: return "the file opened, then one exact seek to a random time"
        }
    }
}

/// One operation of a workload.
enum BenchOperation: Sendable {
    case seek(MediaTime)
    /// Exact landings on all these times in one batch call (`FFmpegEngine.seek(to:precision:decoders:...)`):
    /// one sample per time, in the order given, each timed as an even share of the call.
    case batch([MediaTime])
    /// A seek that puts the decoder where the measured operations start (backstep's
    /// landing): done, never counted.
    case setUp(MediaTime)
    /// A 160x90 thumbnail from the thumbnail generator (its own decoder).
    case thumbnail(MediaTime)
    case stepBackward
    case stepForward
    /// The file opened by an engine of its own; with a time, an exact seek there follows.
    case open(seekingTo: MediaTime?)

    /// Whether this is a batch, whose decoders the run's settings report.
    var isBatch: Bool {
        if case .batch = self { return true }
        return false
    }
}

extension BenchWorkload {
    /// The operations for `table`, drawn with `seed`. `count` is the number of operations
    /// (for sequential, the number of frames; nil means all of them).
    func operations(for table: FrameTable, count: Int, seed: UInt64) -> [BenchOperation] {
        let frames = table.frames
        guard let first = frames.first, let last = frames.last else { return [] }
        if let seeks = seekOperations(from: first.time, to: last.time, count: count, seed: seed) { return seeks }
        var generator = SeededGenerator(seed: seed)
        switch self {
        case .random, .scrub, .long:
            return []  // answered above
        case .backstep:
            let startIndex = Int.random(in: min(frames.count - 1, count + 1)...(frames.count - 1), using: &generator)
            return [.setUp(frames[startIndex].time)] + Array(repeating: .stepBackward, count: min(count, startIndex))
        case .sequential:
            let steps = min(count, frames.count) - 1
            return [.seek(first.time)] + Array(repeating: .stepForward, count: max(0, steps))
        case .sample:
            return [.batch(table.evenlySpacedTimes(count: count))]
        case .open:
            return Array(repeating: .open(seekingTo: nil), count: count)
        case .thumbnails:
            var operations: [BenchOperation] = []
            var time = first.time
            let every = MediaTime(value: 10, timescale: 1)
            // A hostile file's last timestamp may lie ages away: no more thumbnails than a
            // `thumbnails` run makes.
            while time <= last.time, operations.count < min(count, Storyboard.maximumCount) {
                operations.append(.thumbnail(time))
                time = time + every
            }
            return operations
        }
    }

    /// The operations for given `targets` (`--targets`, or the first file's side by side): a
    /// seek to each; `long` opens for each; `sample` lands them as one batch; `backstep` lands on
    /// the first, then steps back once per remaining target, as the peers' backstep targets are
    /// the frames before a start, newest first.
    func operations(given targets: [MediaTime]) -> [BenchOperation] {
        switch self {
        case .backstep where !targets.isEmpty:
            return [.setUp(targets[0])] + Array(repeating: .stepBackward, count: targets.count - 1)
        case .sample: return [.batch(targets)]
        case .long: return targets.map(BenchOperation.open)
        default: return targets.map(BenchOperation.seek)
        }
    }

    /// The operations of the workloads that need only the stream's span, from its first frame's
    /// time to its last's (random, scrub, long), drawn with `seed`; nil for the others. A
    /// playlist read as needed knows its span from the playlist alone.
    func seekOperations(from start: MediaTime, to end: MediaTime, count: Int, seed: UInt64) -> [BenchOperation]? {
        var generator = SeededGenerator(seed: seed)
        let span = end - start
        /// Seconds as a target on a microsecond grid (as fine as a peer's float targets),
        /// saturating rather than trapping on a hostile file's huge span.
        func target(seconds: Double) -> MediaTime {
            start + MediaTime(seconds: seconds, preferredTimescale: 1_000_000)
        }
        func at(fraction: Double) -> MediaTime { target(seconds: span.seconds * fraction) }
        switch self {
        case .random:
            return (0..<count).map { _ in .seek(at(fraction: Double.random(in: 0...1, using: &generator))) }
        case .scrub:
            let window = min(6.0, span.seconds)
            let low = Double.random(in: 0...max(0, span.seconds - window), using: &generator)
            return (0..<count).map { i in
                return .seek(target(seconds: low + window / 2 + window / 2 * sin(Double(i) / 4)))
            }
        case .long:
            return (0..<count).map { _ in .open(seekingTo: at(fraction: Double.random(in: 0...1, using: &generator))) }
        case .backstep, .sequential, .sample, .open, .thumbnails:
            return nil
        }
    }

    /// The default number of operations.
    var defaultCount: Int {
        switch self {
        case .random, .scrub: return 20
        case .backstep: return 60
        case .sequential: return Int.max
        case .thumbnails: return Int.max
        case .sample: return 32
        case .open, .long: return 5
        }
    }

    /// The precision a workload's seeks use unless told otherwise.
    var defaultPrecision: SeekPrecision {
        self == .thumbnails ? .tolerance(before: .positiveInfinity, after: .positiveInfinity) : .exact
    }
}
