// A step registered before a live reload and one registered after it: the second counts from
// where the first will land, on the reloaded window's table, whose frame numbers moved as a
// segment left. The truth is the fake stream's own layout: 30 frames a segment at 30 fps, each
// segment starting where the one before it ends.

import Foundation
import FrameSeekTestSupport
import Testing

@testable import FrameSeekCore

struct PendingStepAcrossReloadTests {
    @Test("A step pending across a reload that drops a segment counts from its frame's time, not its old number")
    func pendingStepSurvivesTheReload() throws {
        let segments = (0..<4).map { FakeLiveSegment(sequence: $0, frameCount: 30, date: nil) }
        let stream = FakeLiveStream(segments: segments, published: 0..<3, targetDuration: 1)
        let engine = try FakeLiveEngine(url: URL(string: "https://origin/live.m3u8")!, stream: stream)
        var state = PlayerState()
        var events: [PlayerEmission] = []
        state.item = LoadedItem(engine, generation: 1)
        // The playhead on the window's last frame, 89 (2 29/30 s).
        state.playhead = MediaTime(value: 89, timescale: 30)
        let forward = PendingStep(direction: .forward, count: 1, reply: .direct { _ in })
        guard case .answered = state.registerStep(id: state.makeID(), forward, refusingFromTable: true, into: &events) else {
            Issue.record("a forward step from the last frame was queued")
            return
        }
        // Back one, pending: it will land on frame 88, at 88/30 s.
        let back = PendingStep(direction: .backward, count: 1, reply: .direct { _ in })
        guard case .queued(let first) = state.registerStep(id: state.makeID(), back, refusingFromTable: true, into: &events) else {
            Issue.record("the first step was not queued")
            return
        }
        #expect(first == MediaTime(value: 88, timescale: 30))
        // The window slides by one segment: frame 88's time is frame 58 of the new table.
        stream.publish(1..<4)
        _ = try engine.reloadPlaylist()
        #expect(state.commitReload(LoadedItem(engine, generation: 1), into: &events))
        guard case .queued(let second) = state.registerStep(id: state.makeID(), back, refusingFromTable: true, into: &events) else {
            Issue.record("the second step was not queued")
            return
        }
        // From 88/30 s, one back: 87/30 s, whatever the frames are numbered now.
        #expect(second == MediaTime(value: 87, timescale: 30))
    }
}
