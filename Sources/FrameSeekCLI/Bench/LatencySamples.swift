/// Latencies in milliseconds and what they add up to: the one place medians and percentiles
/// are computed, for `frameseek bench` and the benchmark executables alike.
public struct LatencySamples: Sendable {
    /// The latencies, in the order measured.
    public private(set) var milliseconds: [Double]

    /// Samples already in milliseconds (empty by default).
    public init(milliseconds: [Double] = []) { self.milliseconds = milliseconds }

    /// Adds one measured duration.
    public mutating func add(_ duration: Duration) { milliseconds.append(duration.milliseconds) }

    /// How many samples there are.
    public var count: Int { milliseconds.count }
    /// The latencies, sorted.
    public var sorted: [Double] { milliseconds.sorted() }
    /// The median.
    public var median: Double { percentile(0.5) }
    /// The 95th percentile.
    public var p95: Double { percentile(0.95) }
    /// The mean.
    public var mean: Double { milliseconds.isEmpty ? .nan : milliseconds.reduce(0, +) / Double(milliseconds.count) }
    /// The worst.
    public var max: Double { milliseconds.max() ?? .nan }
    /// The total.
    public var total: Double { milliseconds.reduce(0, +) }

    /// The `p` quantile, interpolated between the two nearest ranks; NaN when empty.
    public func percentile(_ p: Double) -> Double {
        let sorted = self.sorted
        guard !sorted.isEmpty else { return .nan }
        let rank = p * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down)), high = Int(rank.rounded(.up))
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }
}

extension Duration {
    /// Milliseconds as a Double, for reports.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
