import FrameSeek

/// The network a player seeks over, for `bench --network`: each request waits one round trip,
/// and each byte its share of the bandwidth. What it gives is modeled, never measured, and
/// every figure it makes is named `modeled_...` so that nobody takes it for a measurement.
package struct NetworkModel: Sendable, Hashable {
    /// One request's round trip, in milliseconds.
    package let roundTripMilliseconds: Double
    /// The link's bandwidth, in bits per second.
    package let bitsPerSecond: Double

    /// Named links, for `--network NAME`: round trips and bandwidths of the order of Chrome
    /// DevTools' throttling presets and common broadband, for comparisons, not forecasts.
    package static let profiles: [(name: String, model: NetworkModel)] = [
        ("3g", NetworkModel(roundTripMilliseconds: 300, bitsPerSecond: 1.6e6)),
        ("4g", NetworkModel(roundTripMilliseconds: 50, bitsPerSecond: 20e6)),
        ("wifi", NetworkModel(roundTripMilliseconds: 10, bitsPerSecond: 100e6))
    ]

    /// The longest round trip `--network` takes, in milliseconds: ten minutes, beyond any
    /// link's (a geostationary hop is 0.6 s). Longer would be no network, and would make
    /// figures no `Int` of milliseconds holds.
    package static let roundTripLimitMilliseconds = 600_000.0
    /// The bandwidths `--network` takes, in bits per second: from 1 kbit/s (below it no video
    /// streams) to 1,000 Gbit/s (beyond any one link), so each modeled time stays finite.
    package static let bandwidthLimits = 1e3...1e12

    /// A link with this round trip and bandwidth.
    package init(roundTripMilliseconds: Double, bitsPerSecond: Double) {
        self.roundTripMilliseconds = roundTripMilliseconds
        self.bitsPerSecond = bitsPerSecond
    }

    /// `RTT,BANDWIDTH` (`50ms,20mbit`; the round trip in `ms` or `s`, the bandwidth in
    /// `kbit`, `mbit` or `gbit`, or `/s` after them, or `kbps`, `mbps`, `gbps`) or a profile's name.
    init(parsing text: String) throws(UsageError) {
        let lowered = text.lowercased()
        if let profile = Self.profiles.first(where: { $0.name == lowered }) {
            self = profile.model
            return
        }
        let parts = lowered.split(separator: ",", omittingEmptySubsequences: false)
        let usage =
            "--network takes RTT,BANDWIDTH (for example 50ms,20mbit) or one of "
            + Self.profiles.map(\.name).joined(separator: ", ") + ", not \"\(text)\""
        guard parts.count == 2, let roundTrip = Self.quantity(parts[0], units: [("ms", 1), ("s", 1000)]),
            let bits = Self.quantity(
                parts[1].replacingOccurrences(of: "/s", with: "").replacingOccurrences(of: "bps", with: "bit"),
                units: [("kbit", 1e3), ("mbit", 1e6), ("gbit", 1e9)]),
            roundTrip >= 0, bits > 0
        else { throw UsageError(message: usage) }
        guard roundTrip <= Self.roundTripLimitMilliseconds else {
            throw UsageError(message: "--network: a round trip is at most 600 s (600000 ms), not \"\(parts[0])\"")
        }
        guard Self.bandwidthLimits.contains(bits) else {
            throw UsageError(message: "--network: a bandwidth is from 1 kbit/s to 1000 gbit/s, not \"\(parts[1])\"")
        }
        self.init(roundTripMilliseconds: roundTrip, bitsPerSecond: bits)
    }

    /// A number followed by one of `units`, scaled by it; nil otherwise.
    private static func quantity<Text: StringProtocol>(_ text: Text, units: [(suffix: String, scale: Double)]) -> Double? {
        let trimmed = String(text).trimmingCharacters(in: .whitespaces)
        // Longest suffix first, so "ms" is not read as "s".
        for unit in units.sorted(by: { $0.suffix.count > $1.suffix.count }) where trimmed.hasSuffix(unit.suffix) {
            guard let value = Double(trimmed.dropLast(unit.suffix.count)), value.isFinite else { return nil }
            return value * unit.scale
        }
        return nil
    }

    /// The modeled time on this network of `requests` requests carrying `bytes` bytes, in
    /// milliseconds: requests x RTT + bytes x 8 / bandwidth.
    package func milliseconds(requests: Int, bytes: Int64) -> Double {
        Double(requests) * roundTripMilliseconds + Double(bytes) * 8 / bitsPerSecond * 1000
    }

    /// The modeled time of `reads`, nil when its requests were not counted (a local file
    /// makes none: serve it over HTTP to model it).
    package func milliseconds(of reads: MediaReads?) -> Double? {
        guard let reads, let requests = reads.requests else { return nil }
        return milliseconds(requests: requests, bytes: reads.bytes)
    }

    /// "50 ms / 20 Mbit/s", for lines and the report.
    package var description: String {
        let megabits = bitsPerSecond / 1e6
        let bandwidth = megabits >= 1 ? "\(Self.short(megabits)) Mbit/s" : "\(Self.short(bitsPerSecond / 1e3)) kbit/s"
        return "\(Self.short(roundTripMilliseconds)) ms / \(bandwidth)"
    }

    private static func short(_ value: Double) -> String {
        Int(exactly: value).map(String.init) ?? value.fixed(1)
    }

    /// The `network` object of `bench --json`.
    package var json: JSONValue {
        .object([
            ("modeled", .bool(true)), ("rtt_ms", .number(roundTripMilliseconds)),
            ("bandwidth_bits_per_second", .number(bitsPerSecond)), ("description", .string(description))
        ])
    }
}
