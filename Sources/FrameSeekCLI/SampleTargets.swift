import FrameSeek

/// The targets `--sample N` and `--every S` ask for, which only the opened clip's frame table
/// can turn into times.
struct SampleTargets {
    /// The most targets one run takes: the thumbnails' limit, for the same reason (each
    /// landing's result is held until the pass ends).
    static let limit = 100_000
    /// The shortest `--every`, as for thumbnails.
    static let shortestInterval = MediaTime(value: 1, timescale: 1000)

    /// `--sample`'s count.
    let count: Int?
    /// `--every`'s interval.
    let interval: MediaTime?

    /// Whether the arguments ask for sampled targets at all.
    static func isRequested(_ arguments: Arguments) -> Bool {
        arguments.value("--sample") != nil || arguments.value("--every") != nil
    }

    /// Reads `--sample` and `--every`.
    ///
    /// - Throws: `UsageError` for a count outside 1...`limit`, or an interval that is not a
    ///   time or is shorter than `shortestInterval`.
    init(_ arguments: Arguments) throws(UsageError) {
        count = try arguments.integer("--sample")
        if let text = arguments.value("--every") {
            let parsed: MediaTime
            do { parsed = try MediaTime(parsing: text) } catch { throw UsageError(message: "--every: \(error)") }
            guard parsed >= Self.shortestInterval else {
                throw UsageError(message: "--every takes at least 0.001 s, not \"\(text)\"")
            }
            interval = parsed
        } else {
            interval = nil
        }
    }

    /// Whether any target is asked for: only then is the whole stream's table needed.
    var asksForTargets: Bool { count != nil || interval != nil }

    /// The sampled times in `table`'s timeline: `--sample`'s, then `--every`'s.
    func times(in table: FrameTable) -> [MediaTime] {
        var times = count.map(table.evenlySpacedTimes(count:)) ?? []
        if let interval { times += table.times(every: interval, limit: Self.limit + 1) }
        return times
    }
}
