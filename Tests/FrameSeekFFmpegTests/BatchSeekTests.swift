// Batch landings (`seek(to: [MediaTime], ...)`) land every target on the frame ffprobe names,
// with ffmpeg's pixels, whatever the order of the targets, and equal single seeks frame for
// frame.

import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("Batch seeks")
struct BatchSeekTests {
    /// The orders a caller may hand over: sorted, reversed, shuffled, and shuffled with
    /// repeats (each target twice or more, some adjacent).
    enum Order: String, CaseIterable, Sendable {
        case sorted, reversed, shuffled, duplicated

        func apply(_ indices: [Int], _ generator: inout SeededGenerator) -> [Int] {
            switch self {
            case .sorted: return indices.sorted()
            case .reversed: return indices.sorted().reversed()
            case .shuffled: return indices.shuffled(using: &generator)
            case .duplicated:
                let repeated = indices + indices.prefix(indices.count / 2) + [indices[0], indices[0]]
                return repeated.shuffled(using: &generator)
            }
        }
    }

    /// Every order at one decoder thread; shuffled also at two (frame threads), the batch's
    /// default on a many-target `seek`.
    static let cases: [(Fixture, Order, Int)] = FixtureCatalog.video.flatMap { fixture in
        Order.allCases.map { (fixture, $0, 1) } + [(fixture, .shuffled, 2)]
    }

    @Test("A batch lands each target on ffprobe's frame with framemd5's pixels, in the caller's order, as single seeks do",
          arguments: cases)
    func batchEqualsSingleSeeks(_ fixture: Fixture, _ order: Order, _ threads: Int) throws {
        let oracle = try Oracle(fixture)
        var generator = SeededGenerator("batch-\(order.rawValue)-" + fixture.id)
        let indices = order.apply(oracle.seekSample(using: &generator), &generator)
        let targets = indices.map(oracle.middle)
        let engine = try FFmpegEngine(path: fixture.path, options: .init(streamIndex: fixture.stream, threads: threads))
        var reported: [Int] = []
        var landedFrames: [Int] = []
        let landings = try engine.seek(to: targets, precision: .exact) { position, landing in
            reported.append(position)
            landedFrames.append(landing.frame.index)
            // The callback runs while this target's frame is the landed frame.
            verifyExactLanding(landing, engine: engine, oracle: oracle, target: targets[position],
                               expected: indices[position], context: "\(fixture.id) \(order) \(threads)-thread batch target #\(position)")
        }
        #expect(reported.sorted() == Array(targets.indices), "every target reported once")
        #expect(landedFrames == landedFrames.sorted(), "landed in presentation order")
        #expect(landings.map(\.frame.index) == indices, "results in the caller's order")
        #expect(zip(landings, targets).allSatisfy { $0.accuracy.requestedMediaTime == $1 })
        // Each frame is decoded once: a repeat costs nothing.
        var seen = Set<Int>()
        for position in reported where !seen.insert(indices[position]).inserted {
            #expect(landings[position].framesDecoded == 0, "\(fixture.id): repeated frame \(indices[position]) decoded again")
        }

        let single = try openEngine(fixture)
        for (position, target) in targets.enumerated() {
            let landing = try single.seek(to: target, precision: .exact)
            #expect(landing.frame.index == landings[position].frame.index, "\(fixture.id) single seek #\(position)")
            #expect(try single.landedPicture()?.md5 == oracle.md5s?[indices[position]] || oracle.md5s == nil)
        }
    }

    @Test("An interrupted batch throws .interrupted and the engine lands the next seek exactly")
    func interruption() throws {
        let fixture = try #require(FixtureCatalog.video.first { $0.id.hasPrefix("h264") })
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        let flag = SeekInterruptionFlag()
        let targets = [oracle.middle(oracle.lastIndex), oracle.middle(oracle.lastIndex / 2)]
        do {
            _ = try engine.seek(to: targets, precision: .exact, interruption: flag) { _, _ in flag.interrupt(.superseded) }
            Issue.record("the batch went on after its flag was set")
        } catch let error as MediaError {
            #expect(error.reason == .interrupted)
        }
        let index = oracle.count / 3
        let landing = try engine.seek(to: oracle.middle(index), precision: .exact)
        verifyExactLanding(landing, engine: engine, oracle: oracle, target: oracle.middle(index), expected: index,
                           context: "\(fixture.id) seek after an interrupted batch")
    }
}
