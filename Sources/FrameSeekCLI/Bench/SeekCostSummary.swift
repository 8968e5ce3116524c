import FrameSeek

/// One workload's seek cost as a player pays it: the measured latencies, the bytes and
/// requests per operation, and over a modeled network (`NetworkModel`) each operation's
/// latency plus its modeled transfer. What `bench A B` compares between encodes.
struct SeekCostSummary {
    /// The measured latencies.
    let latencies: LatencySamples
    /// The bytes each counted operation read.
    let bytesPerOperation: LatencySamples
    /// Modeled network time of the open alone; nil without a network or a request count.
    let modeledOpenMilliseconds: Double?
    /// Modeled network time of every operation, added; nil as above.
    let modeledNetworkMilliseconds: Double?
    /// Each operation's latency plus its modeled network time; nil unless every operation's
    /// requests were counted.
    let modeledSeeks: LatencySamples?

    init(_ result: BenchResult, network: NetworkModel?) {
        latencies = result.latencies
        bytesPerOperation = LatencySamples(milliseconds: result.samples.compactMap { $0.reads.map { Double($0.bytes) } })
        guard let network else {
            modeledOpenMilliseconds = nil
            modeledNetworkMilliseconds = nil
            modeledSeeks = nil
            return
        }
        modeledOpenMilliseconds = network.milliseconds(of: result.openReads)
        let modeled = result.samples.map { network.milliseconds(of: $0.reads) }
        let counted = modeled.compactMap { $0 }
        guard !counted.isEmpty, counted.count == modeled.count else {
            modeledNetworkMilliseconds = nil
            modeledSeeks = nil
            return
        }
        modeledNetworkMilliseconds = counted.reduce(0, +)
        modeledSeeks = LatencySamples(milliseconds: zip(result.samples, counted).map { $0.latency.milliseconds + $1 })
    }

    /// The verdict line comparing `other` with `base` (same workload, two encodes):
    /// "B's random operations cost 3.1x A's at p95 (2.5x at the median); modeled over
    /// 50 ms / 20 Mbit/s, 2.4x at p95". Nil when either has no operations.
    static func verdict(_ other: BenchResult, against base: BenchResult, network: NetworkModel?) -> String? {
        let a = SeekCostSummary(base, network: network), b = SeekCostSummary(other, network: network)
        guard a.latencies.count > 0, b.latencies.count > 0 else { return nil }
        func ratio(_ x: Double, _ y: Double) -> String { y > 0 && x.isFinite ? "\((x / y).fixed(2))x" : "-" }
        var line =
            "\(name(other.input))'s \(other.workload.rawValue) \(other.workload.operationNoun) cost "
            + "\(ratio(b.latencies.p95, a.latencies.p95)) \(name(base.input))'s at p95 "
            + "(\(ratio(b.latencies.median, a.latencies.median)) at the median)"
        if b.bytesPerOperation.count > 0, a.bytesPerOperation.count > 0 {
            // Most scrub, backstep and sequential operations read nothing (the window is read
            // already), so their medians are 0 and say nothing: the mean then carries the reads.
            let (byteA, byteB) = (a.bytesPerOperation, b.bytesPerOperation)
            if byteA.median > 0, byteB.median > 0 {
                line += ", reading \(ratio(byteB.median, byteA.median)) the bytes at the median"
            } else if byteA.total > 0, byteB.total > 0 {
                line += ", reading \(ratio(byteB.mean, byteA.mean)) the bytes on average"
            } else if byteA.total == 0, byteB.total == 0 {
                line += ", reading nothing"
            } else {
                line += byteA.total == 0 ? ", reading bytes where \(name(base.input)) read none" : ", reading none of the bytes"
            }
        }
        if let network {
            if let modeledA = a.modeledSeeks, let modeledB = b.modeledSeeks {
                line += "; modeled over \(network.description), \(ratio(modeledB.p95, modeledA.p95)) at p95"
            } else {
                line += "; no modeled figure over \(network.description): requests are counted only over HTTP"
            }
        }
        return line
    }

    /// A file's last path component, which is what a reader tells encodes apart by; for a
    /// manifest (`.m3u8`, `.m3u`, `.mpd`), whose name is often the packager's `index.m3u8`,
    /// its folder too (`hls-cmaf/index.m3u8`).
    static func name(_ file: String) -> String {
        let parts = file.split(separator: "/")
        guard let last = parts.last else { return file }
        let isManifest = ["m3u8", "m3u", "mpd"].contains { last.lowercased().contains(".\($0)") }
        return isManifest && parts.count >= 2 && !parts[parts.count - 2].contains(":")
            ? parts.suffix(2).joined(separator: "/") : String(last)
    }
}

extension BenchWorkload {
    /// What the workload's operations are called in a sentence.
    var operationNoun: String {
        switch self {
        case .backstep: "steps"
        case .sequential: "frames"
        case .thumbnails: "thumbnails"
        case .sample: "samples"
        case .open: "opens"
        case .long: "cold seeks"
        case .random, .scrub: "seeks"
        }
    }
}
