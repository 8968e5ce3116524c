// One tick of playback without the frame table (`Player.advanceUnindexedVideo`) on the fake
// engine: which frame it shows, and whether it steps or seeks to get there. The frame expected
// is the last one of the fake's table starting at or before the target; the engine's calls
// are what its gate saw.

import Foundation
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Playback without the table: one tick")
struct UnindexedPlaybackStepTests {
    /// A fake of `frames` frames at 30 fps; with `standingAt`, landed there first.
    static func engine(frames: Int, standingAt frame: Int? = nil) throws -> (FakePlaybackEngine, EngineGate) {
        let gate = EngineGate()
        let engine = FakePlaybackEngine(path: "\(frames).fake", frameCount: frames, gop: 10, gate: gate)
        if let frame { _ = try engine.seek(to: engine.frameTable.frames[frame].time, precision: .exact, interruption: nil) }
        return (engine, gate)
    }

    static func seeks(_ calls: [FakeEngineCall]) -> Int {
        calls.filter { if case .seek = $0 { true } else { false } }.count
    }

    @Test("an engine standing nowhere seeks once; past the last frame the tick stays there, with no second seek")
    func seeksOncePastTheEnd() throws {
        let (engine, gate) = try Self.engine(frames: 30)
        let step = Player.advanceUnindexedVideo(engine, to: MediaTime(value: 5, timescale: 1), from: .zero, heldFrame: nil)
        #expect(step.landed == engine.frameTable.frames[29].time)
        #expect(step.nextFrame == nil)
        #expect(Self.seeks(gate.entered) == 1, "\(gate.entered)")
    }

    @Test("a target within a second of the shown frame's end is stepped to, frame by frame, without a seek")
    func stepsWithinReach() throws {
        let (engine, gate) = try Self.engine(frames: 90, standingAt: 0)
        let before = gate.entered.count
        let step = Player.advanceUnindexedVideo(engine, to: MediaTime(value: 1, timescale: 2), from: .zero, heldFrame: nil)
        let calls = Array(gate.entered[before...])
        #expect(step.landed == engine.frameTable.frames[15].time)
        #expect(step.nextFrame == engine.frameTable.frames[16].time)
        #expect(calls == Array(repeating: .step(.forward), count: 15), "\(calls)")
    }

    @Test("a target more than a second past the shown frame's end is sought, not stepped to")
    func seeksBeyondReach() throws {
        let (engine, gate) = try Self.engine(frames: 90, standingAt: 0)
        let before = gate.entered.count
        let target = MediaTime(value: 2, timescale: 1)
        let step = Player.advanceUnindexedVideo(engine, to: target, from: .zero, heldFrame: nil)
        #expect(step.landed == engine.frameTable.frames[60].time)
        #expect(Array(gate.entered[before...]) == [.seek(target)])
    }

    @Test("a frame stepped to before it is due is held, and the playhead stays")
    func holdsAFrameNotDue() throws {
        let (engine, _) = try Self.engine(frames: 90, standingAt: 3)
        let held = engine.frameTable.frames[3].time
        // The engine stands on frame 3 while frame 2 is shown: the target is before frame 3.
        let playhead = engine.frameTable.frames[2].time
        let step = Player.advanceUnindexedVideo(engine, to: playhead, from: playhead, heldFrame: held)
        #expect(step.landed == playhead)
        #expect(step.heldFrame == held)
        #expect(step.nextFrame == held)
    }
}
