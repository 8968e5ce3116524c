// Batch landings (`seek(to: [MediaTime], ...)`) land every target on the frame ffprobe names,
// with ffmpeg's pixels, whatever the order of the targets, and equal single seeks frame for
// frame.

import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("Batch seeks", .ffmpegLog)
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

    @Test(
        "A batch lands each target on ffprobe's frame with framemd5's pixels, in the caller's order, as single seeks do",
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
            verifyExactLanding(
                landing, engine: engine, oracle: oracle, target: targets[position],
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

        // Single seeks to the same targets, once a fixture. The batch's landings are checked
        // against the oracle in every order above; single seeks are, on every fixture, by
        // ExactSeekTests.
        guard order == .shuffled, threads == 1 else { return }
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
        verifyExactLanding(
            landing, engine: engine, oracle: oracle, target: oracle.middle(index), expected: index,
            context: "\(fixture.id) seek after an interrupted batch")
    }
}

@Suite("Batch seeks split between decoders", .ffmpegLog)
struct BatchDecodersTests {
    /// What a decoder reports of a landing from its own thread: the landed frame's MD5 and
    /// which engine landed it. The checks run afterwards, on the test's thread.
    struct Landed: Sendable {
        let md5: String?
        let engine: ObjectIdentifier
    }

    static let cases: [(Fixture, BatchSeekTests.Order, Int)] = FixtureCatalog.video.flatMap { fixture in
        [(fixture, .shuffled, 2), (fixture, .duplicated, 2), (fixture, .reversed, 3)]
    }

    @Test(
        "Split between decoders, a batch lands each target on ffprobe's frame with framemd5's pixels, in the caller's order",
        arguments: cases)
    func decodersLandAsOneDoes(_ fixture: Fixture, _ order: BatchSeekTests.Order, _ decoders: Int) throws {
        let oracle = try Oracle(fixture)
        var generator = SeededGenerator("batch-decoders-\(order.rawValue)-" + fixture.id)
        // Targets spread over the whole clip, so that they fall in several GOPs.
        let indices = order.apply(oracle.seekSample(using: &generator), &generator)
        let targets = indices.map(oracle.middle)
        let engine = try openEngine(fixture)
        let landed = try engine.seek(to: targets, precision: .exact, decoders: decoders) { _, _, decoder in
            Landed(md5: try decoder.landedPicture()?.md5, engine: ObjectIdentifier(decoder))
        }
        #expect(landed.map(\.landing.frame.index) == indices, "\(fixture.id): results in the caller's order, on ffprobe's frames")
        #expect(zip(landed, targets).allSatisfy { $0.landing.accuracy.requestedMediaTime == $1 })
        if let md5s = oracle.md5s {
            for (position, result) in landed.enumerated() {
                #expect(
                    result.output.md5 == md5s[indices[position]],
                    "\(fixture.id) target #\(position) (frame \(indices[position])): framemd5's pixels")
            }
        }
        var seen = Set<Int>()
        for (position, result) in landed.enumerated() where !seen.insert(indices[position]).inserted {
            #expect(
                result.landing.framesDecoded == 0
                    || result.output.engine != landed.first { $0.landing.frame.index == indices[position] }?.output.engine,
                "\(fixture.id): repeated frame \(indices[position]) decoded again by the same decoder")
        }
    }

    @Test(
        "With the calling engine standing aside, the other decoders land every run between its first and last, as it would",
        arguments: FixtureCatalog.video)
    func helpersLandEveryRun(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        // The last frame of every GOP: one run per GOP, each decoded from its keyframe.
        let indices = oracle.keyframes.dropFirst().map { $0 - 1 } + [oracle.lastIndex]
        let engine = try openEngine(fixture)
        engine.leaveBatchRunsToHelpers()
        let caller = ObjectIdentifier(engine)
        let landed = try engine.seek(to: indices.map(oracle.middle), precision: .exact, decoders: 2) { _, _, decoder in
            Landed(md5: try decoder.landedPicture()?.md5, engine: ObjectIdentifier(decoder))
        }
        // The first run and the last are the calling engine's; every run between, the other's.
        let runs = Dictionary(grouping: landed, by: \.landing.keyframeIndex).values.sorted {
            $0[0].landing.frame.index < $1[0].landing.frame.index
        }
        for (number, run) in runs.enumerated() {
            let byCaller = number == 0 || number == runs.count - 1
            #expect(
                run.allSatisfy { ($0.output.engine == caller) == byCaller },
                "\(fixture.id): run \(number) of \(runs.count) landed \(byCaller ? "away from" : "on") the calling engine")
        }
        #expect(landed.map(\.landing.frame.index) == indices)
        if let md5s = oracle.md5s {
            #expect(landed.map(\.output.md5) == indices.map { md5s[$0] }, "\(fixture.id): framemd5's pixels from the other decoder")
        }
    }

    @Test("An error thrown for one target stops the batch on every decoder, and the engine lands the next seek exactly")
    func errorStopsEveryDecoder() throws {
        struct Refused: Error {}
        let fixture = try #require(FixtureCatalog.video.first { $0.id.hasPrefix("h264") })
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        let targets = (0..<8).map { oracle.middle(oracle.lastIndex * $0 / 7) }
        let refused = targets.count / 2
        #expect(throws: Refused.self) {
            _ = try engine.seek(to: targets, precision: .exact, decoders: 2) { position, _, _ in
                if position == refused { throw Refused() }
            }
        }
        let flag = SeekInterruptionFlag()
        flag.interrupt(.superseded)
        #expect(throws: MediaError.self) {
            _ = try engine.seek(to: targets, precision: .exact, decoders: 2, interruption: flag) { _, _, _ in }
        }
        let index = oracle.count / 3
        let landing = try engine.seek(to: oracle.middle(index), precision: .exact)
        verifyExactLanding(
            landing, engine: engine, oracle: oracle, target: oracle.middle(index), expected: index,
            context: "\(fixture.id) seek after a refused batch")
    }
}

/// A batch's `each` may use the engine it is handed: a forward step there decodes the next one
/// ahead on another thread (`DecodeAhead`), which the batch's next landing must stop first, and
/// the picture read in the next `each` is that landing's, not the step's.
@Suite("Batch seeks whose each steps", .ffmpegLog)
struct BatchEachStepsTests {
    /// What `each` saw: the landing's picture, then the frame and picture a step from it landed on.
    struct Seen: Sendable {
        let landedMD5: String?
        let stepFrame: Int?
        let stepMD5: String?
    }

    /// Targets three frames apart over the whole long-GOP clip, so that every landing
    /// decodes on from the one before, as the step's decoder does too.
    static func targets(_ oracle: Oracle) -> [Int] { Array(stride(from: 1, to: oracle.count - 2, by: 3)) }

    /// Steps forward once from the landed frame, reading the landed picture before and after.
    static func seeStep(on engine: FFmpegEngine) throws -> Seen {
        let landedMD5 = try engine.landedPicture()?.md5
        let step = engine.step(.forward)
        return Seen(landedMD5: landedMD5, stepFrame: step.frame?.index, stepMD5: try engine.landedPicture()?.md5)
    }

    static func check(_ seen: [Seen], landed: [Int], indices: [Int], oracle: Oracle, context: String) throws {
        let md5s = try #require(oracle.md5s)
        #expect(landed == indices, "\(context): ffprobe's frames")
        for (position, (seen, index)) in zip(seen, indices).enumerated() {
            #expect(seen.landedMD5 == md5s[index], "\(context) target #\(position) (frame \(index)): the landing's picture")
            #expect(seen.stepFrame == index + 1, "\(context) target #\(position): the step from it")
            #expect(seen.stepMD5 == md5s[index + 1], "\(context) target #\(position): the step's picture")
        }
    }

    @Test("A batch whose each steps forward lands every target with framemd5's pixels, and each step after it")
    func eachSteps() throws {
        let fixture = try #require(FixtureCatalog.fixture(FrameStepTests.longGOP))
        let oracle = try Oracle(fixture)
        let indices = Self.targets(oracle)
        let engine = try openEngine(fixture)
        var seen = [Seen?](repeating: nil, count: indices.count)
        let landings = try engine.seek(to: indices.map(oracle.middle), precision: .exact) { position, _ in
            seen[position] = try Self.seeStep(on: engine)
        }
        try Self.check(seen.map { $0! }, landed: landings.map(\.frame.index), indices: indices, oracle: oracle, context: fixture.id)
        #expect(engine.stepsDecodedAhead == 0, "no step decoded ahead is taken: the batch lands elsewhere after each")
    }

    @Test("Split between decoders, a batch whose each steps forward on its decoder lands every target with framemd5's pixels")
    func eachStepsOnItsDecoder() throws {
        let fixture = try #require(FixtureCatalog.fixture(FrameStepTests.longGOP))
        let oracle = try Oracle(fixture)
        // Several runs, one per GOP, so that a second decoder lands some of them.
        let indices = oracle.keyframes.flatMap { keyframe in [keyframe + 4, keyframe + 7] }.filter { $0 < oracle.lastIndex }
        let engine = try openEngine(fixture)
        // The other decoder then lands the run between the first and the last.
        engine.leaveBatchRunsToHelpers()
        let landed = try engine.seek(to: indices.map(oracle.middle), precision: .exact, decoders: 2) { _, _, decoder in
            try Self.seeStep(on: decoder)
        }
        try Self.check(
            landed.map(\.output), landed: landed.map(\.landing.frame.index), indices: indices, oracle: oracle,
            context: "\(fixture.id), 2 decoders")
    }
}
