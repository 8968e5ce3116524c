import Testing
@testable import FrameSeekCore

/// Step destinations move by index in presentation order and stop at the edges.
struct StepDestinationTests {
    /// A variable-frame-rate table: gaps of 1, 2 and 3 ticks, so `duration x n` would drift.
    static let table: FrameTable = {
        let base = TimeBase(numerator: 1, denominator: 1000)
        var start: Int64 = 0
        var frames: [FrameEntry] = []
        for i in 0..<20 {
            let gap = Int64(1 + i % 3)
            frames.append(
                FrameEntry(
                    index: i, pts: start, time: base.time(ofTicks: start), durationTicks: gap,
                    duration: base.time(ofTicks: gap), isKeyframe: i % 10 == 0,
                    decodeOrder: i, packetPosition: nil))
            start += gap
        }
        return FrameTable(
            streamIndex: 0, timeBase: base, originPTS: 0, frames: frames,
            randomAccessPoints: [], source: .packetScan)
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        let from: Int, direction: FrameStepDirection, count: Int
        let expected: Result<Int, FrameStepUnavailableReason>  // destination index, or the reason
        var testDescription: String { "\(direction) \(count) from \(from)" }
    }

    static let cases: [Case] = [
        Case(from: 0, direction: .forward, count: 1, expected: .success(1)),
        Case(from: 5, direction: .forward, count: 5, expected: .success(10)),
        Case(from: 17, direction: .forward, count: 5, expected: .success(19)),  // as far as it can
        Case(from: 19, direction: .forward, count: 1, expected: .failure(.endOfStream)),
        Case(from: 19, direction: .backward, count: 1, expected: .success(18)),
        Case(from: 3, direction: .backward, count: 5, expected: .success(0)),  // as far as it can
        Case(from: 0, direction: .backward, count: 1, expected: .failure(.startOfStream)),
        Case(from: 0, direction: .backward, count: 5, expected: .failure(.startOfStream))
    ]

    @Test("steps move by index and stop at the edges", arguments: cases)
    func destinations(c: Case) {
        switch (Self.table.stepDestination(from: c.from, c.direction, count: c.count), c.expected) {
        case (.success(let got), .success(let want)):
            #expect(got.index == want)
            #expect(got.moved == abs(want - c.from))
        case (.failure(let got), .failure(let want)):
            #expect(got == want)
        case (let got, let want):
            Issue.record("got \(got), want \(want)")
        }
    }

    @Test("results derive didStep and the reason")
    func derivedProperties() {
        let stepped = FrameStepResult.stepped(.forward, landedMediaTime: .zero)
        #expect(stepped.didStep && stepped.unavailableReason == nil)
        let edge = FrameStepResult.unavailable(.endOfStream)
        #expect(!edge.didStep && edge.unavailableReason == .endOfStream)
        for reason in [
            FrameStepUnavailableReason.audioOnly, .endOfStream, .startOfStream, .noCurrentItem,
            .seekInProgress, .decodeFailed
        ] {
            #expect(!reason.explanation.isEmpty)
        }
    }
}
