// Date seeks in windows whose EXT-X-PROGRAM-DATE-TIME goes back, jumps ahead and overlaps, checked
// against a brute-force oracle that reads the window's segments one by one: the first segment
// covering a date gives its time; a date no segment covers is before the earliest date, after the
// latest end, or in a gap that goes to the segment dated next after it.

import Foundation
import FrameSeekCore
import Testing

/// SplitMix64: the same windows on every run, so a failure names a seed that reproduces it.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Live seek window: dates that go back")
struct LiveDateOrderTests {
    static let url = URL(string: "https://example.com/live.m3u8")!
    /// 2024-03-04T10:00:00Z.
    static let base = try! ProgramDate(parsing: "2024-03-04T10:00:00Z")

    /// `seconds` after `base`, in quarter seconds.
    static func date(quarters: Int) -> ProgramDate { base.advanced(by: MediaTime(value: Int64(quarters), timescale: 4)) }

    /// A window of segments `(duration text, own date in quarter seconds after base, or nil)`.
    static func window(_ segments: [(String, Int?)]) throws -> LiveSeekWindow {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:3\n"
        for (duration, quarters) in segments {
            if let quarters { text += "#EXT-X-PROGRAM-DATE-TIME:\(date(quarters: quarters).iso8601)\n" }
            text += "#EXTINF:\(duration),\ns.ts\n"
        }
        return HLSTimeline(playlist: try HLSMediaPlaylist(parsing: text, url: url)).window
    }

    /// What the window must answer for `date`, found by reading every segment.
    enum Answer: Equatable {
        case time(MediaTime)
        case before, after
    }

    static func oracle(_ window: LiveSeekWindow, _ date: ProgramDate) -> Answer {
        let dated = window.segments.map { (segment: $0, date: $0.date!) }
        if let covering = dated.first(where: { $0.date <= date && date < $0.date.advanced(by: $0.segment.duration) }) {
            return .time(covering.segment.start + covering.date.interval(to: date))
        }
        if dated.allSatisfy({ date < $0.date }) { return .before }
        if dated.allSatisfy({ $0.date.advanced(by: $0.segment.duration) <= date }) { return .after }
        let nextDate = dated.filter { date < $0.date }.map(\.date).min()!
        return .time(dated.first { $0.date == nextDate }!.segment.start)
    }

    static func answer(_ window: LiveSeekWindow, _ date: ProgramDate) -> Answer? {
        switch window.time(forDate: date) {
        case .success(let time): return .time(time)
        case .failure(.dateBeforeWindow): return .before
        case .failure(.dateAfterWindow): return .after
        case .failure: return nil
        }
    }

    @Test("The reviewer's windows: a date jumping back, and one covered after a later date")
    func examples() throws {
        let back = try Self.window([("2", 14_400), ("2", 0)])  // 11:00:00, then 10:00:00
        #expect(back.time(forDate: Self.date(quarters: 4)) == .success(MediaTime(value: 3, timescale: 1)))
        #expect(back.startProgramDate == Self.base && back.endProgramDate == Self.date(quarters: 14_408))
        let covered = try Self.window([("2", 0), ("2", 40), ("2", 16)])  // 10:00:00, :10, :04
        #expect(covered.time(forDate: Self.date(quarters: 20)) == .success(MediaTime(value: 5, timescale: 1)))
        #expect(covered.date(forTime: MediaTime(value: 5, timescale: 1)) == Self.date(quarters: 20))
    }

    @Test("Random windows with dates out of order: every date maps as the brute-force oracle says", arguments: 0..<8)
    func randomWindows(seed: UInt64) throws {
        var generator = SplitMix64(state: seed)
        let durations = ["0.5", "1", "1.5", "2", "3"]
        for round in 0..<40 {
            let count = Int.random(in: 1...6, using: &generator)
            let segments = (0..<count).map { index -> (String, Int?) in
                let dated = index == 0 || Bool.random(using: &generator)
                return (durations.randomElement(using: &generator)!, dated ? Int.random(in: 0..<48, using: &generator) : nil)
            }
            let window = try Self.window(segments)
            let dates = window.segments.map { $0.date! }
            let ends = window.segments.map { $0.date!.advanced(by: $0.duration) }
            #expect(window.startProgramDate == dates.min() && window.endProgramDate == ends.max(), "seed \(seed) round \(round)")
            for quarters in -4..<130 {
                let requested = Self.date(quarters: quarters)
                let answer = Self.answer(window, requested)
                #expect(answer == Self.oracle(window, requested), "seed \(seed) round \(round): \(segments), \(requested)")
                if case .time(let time)? = answer, dates.indices.contains(where: { dates[$0] <= requested && requested < ends[$0] }) {
                    #expect(window.date(forTime: time) == requested, "seed \(seed) round \(round): \(segments), \(requested)")
                }
            }
        }
    }
}
