import Foundation
import FrameSeek

/// `Benchmarks/compare_peers.py --json` read back: per workload, per decoder (FrameSeek
/// included), the median and p95 seek latency on the same file and targets.
package struct PeerComparison: Sendable {
    /// One decoder's numbers on one workload.
    package struct Entry: Sendable {
        /// The decoder's name as the peers file spells it (`frameseek`, `pyav`, ...).
        package let peer: String
        /// Median latency in seconds; nil when the decoder did not run (see `errors`).
        package let medianSeconds: Double?
        /// 95th percentile latency in seconds, when given.
        package let p95Seconds: Double?
        /// Operations measured.
        package let count: Int?
        /// Landings that disagreed with ffprobe's frame table.
        package let wrongLandings: Int?
        /// Why the decoder did not run, or what went wrong on the way.
        package let errors: [String]
    }

    /// One workload's entries, in the peers file's peer order.
    package struct Workload: Sendable {
        /// The workload's name (`random`, `scrub`, ...).
        package let name: String
        /// One entry per decoder.
        package let entries: [Entry]
    }

    /// The file the peers measured.
    package let file: String?
    /// Operations per workload asked for, the seed and the decoder threads.
    package let count: Int?, seed: Int?, threads: Int?
    /// Where and when, when the peers file says.
    package let cpuModel: String?, date: String?
    /// The workloads, in the order a reader expects (random, scrub, backstep, sample, then by name).
    package let workloads: [Workload]

    /// Reads and checks a peers file; any problem is one `UsageError` naming the file and the cause.
    static func read(_ path: String) throws(UsageError) -> PeerComparison {
        let data: Data
        do { data = try FileContents.read(path, limit: 16 << 20) } catch {
            throw UsageError(message: "\(path): the peers file \(error)")
        }
        do { return try parse(data) } catch { throw UsageError(message: "\(path): not a compare_peers.py --json file: \(error.reason)") }
    }

    /// Why a peers file was refused.
    package struct FormatError: Error { package let reason: String }

    /// Parses the JSON `compare_peers.py --json` writes.
    package static func parse(_ data: Data) throws(FormatError) -> PeerComparison {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw FormatError(reason: "not a JSON object")
        }
        guard let workloadObjects = object["workloads"] as? [String: Any] else {
            throw FormatError(reason: "no \"workloads\" object")
        }
        guard !workloadObjects.isEmpty else { throw FormatError(reason: "\"workloads\" is empty") }
        let peerOrder = object["peers"] as? [String] ?? []
        var workloads: [Workload] = []
        for name in workloadObjects.keys.sorted(by: workloadOrder) {
            guard let peers = workloadObjects[name] as? [String: Any] else {
                throw FormatError(reason: "workloads.\(name) is not an object of peers")
            }
            let names = peers.keys.sorted { peerRank($0, peerOrder) < peerRank($1, peerOrder) }
            var entries: [Entry] = []
            for peer in names {
                guard let fields = peers[peer] as? [String: Any] else {
                    throw FormatError(reason: "workloads.\(name).\(peer) is not an object")
                }
                entries.append(try entry(peer, fields, at: "workloads.\(name).\(peer)"))
            }
            workloads.append(Workload(name: name, entries: entries))
        }
        return PeerComparison(
            file: object["file"] as? String, count: integer(object["n"]), seed: integer(object["seed"]),
            threads: integer(object["threads"]), cpuModel: object["cpu_model"] as? String,
            date: object["date"] as? String, workloads: workloads)
    }

    /// The longest latency a peers file may give, in seconds: about 11.6 days, far beyond any
    /// seek measured, and small enough that the chart's axis (in ms) and its labels stay whole
    /// numbers an `Int` holds. A larger value is a broken file, not a slow decoder.
    package static let maximumSeconds = 1_000_000.0

    private static func entry(_ peer: String, _ fields: [String: Any], at place: String) throws(FormatError) -> Entry {
        func seconds(_ key: String) throws(FormatError) -> Double? {
            guard let value = fields[key], !(value is NSNull) else { return nil }
            guard let number = value as? NSNumber, (0...maximumSeconds).contains(number.doubleValue) else {
                throw FormatError(reason: "\(place).\(key) is not a number of seconds from 0 to \(Int(maximumSeconds))")
            }
            return number.doubleValue
        }
        var errors = fields["errors"] as? [String] ?? []
        // peers.py itself writes one "error" string for a decoder that is not installed.
        if let error = fields["error"] as? String { errors.append(error) }
        let median = try seconds("median_s")
        if median == nil && errors.isEmpty {
            throw FormatError(reason: "\(place) has neither median_s nor errors")
        }
        return Entry(
            peer: peer, medianSeconds: median, p95Seconds: try seconds("p95_s"), count: integer(fields["n"]),
            wrongLandings: integer(fields["wrong_landings"]), errors: errors)
    }

    /// The workloads compare_peers.py runs come first, in its order; others follow by name.
    private static func workloadOrder(_ a: String, _ b: String) -> Bool {
        let known = ["random", "scrub", "backstep", "sample"]
        let ra = known.firstIndex(of: a) ?? known.count, rb = known.firstIndex(of: b) ?? known.count
        return ra != rb ? ra < rb : a < b
    }

    /// The file's own peer order when it gives one; else FrameSeek first, then by name.
    private static func peerRank(_ peer: String, _ order: [String]) -> String {
        if let position = order.firstIndex(of: peer) { return String(format: "0%04d", position) }
        return peer == "frameseek" ? "1" : "2" + peer
    }

    /// A whole number within 2^53, nil for anything else: `intValue` would make 1e300 Int.min.
    private static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double == double.rounded(), double.magnitude <= 0x1p53 else { return nil }
        return number.intValue
    }
}
