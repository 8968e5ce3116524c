// A deterministic engine for the Player's race tests: an in-memory frame table, landings
// decided by the real rules (`FrameTable.planLanding`), no decoding, and a gate that holds
// every seek and step inside the engine until the test releases it. With it a test puts a
// close, a load or a newer seek at an exact point of another call's life, without sleeping.

import Dispatch
import Foundation
import FrameSeekCore

/// What the fake engine was asked to do.
package enum FakeEngineCall: Sendable, Equatable {
    case seek(MediaTime)
    case step(FrameStepDirection)
}

/// Holds calls inside the fake engines until the test releases them, and lets the test wait
/// until a call has entered. Shared by the test and every engine a factory makes.
package final class EngineGate: Sendable {
    private struct State {
        var holding = false
        var entered: [FakeEngineCall] = []
        /// One semaphore per held call, in the order they entered.
        var held: [DispatchSemaphore] = []
    }

    private let state = Locked(State())

    package init() {}

    /// From now on, calls wait inside the engine until released.
    package func hold() { state.withLock { $0.holding = true } }

    /// Calls pass through from now on, and every held call goes on.
    package func open() {
        let released = state.withLock { s -> [DispatchSemaphore] in
            s.holding = false
            defer { s.held.removeAll() }
            return s.held
        }
        released.forEach { $0.signal() }
    }

    /// Lets the oldest held call go on.
    package func releaseNext() {
        let next = state.withLock { s in s.held.isEmpty ? nil : s.held.removeFirst() }
        next?.signal()
    }

    /// Every call that entered an engine, in order.
    package var entered: [FakeEngineCall] { state.withLock { $0.entered } }

    /// Returns once `count` calls have entered (and, while holding, are waiting there).
    package func waitForEntries(_ count: Int, timeout: Duration = deadlockGuard) async throws {
        try await waitUntil("\(count) calls to enter the engine", timeout: timeout) { entered.count >= count }
    }

    /// Called by an engine on its queue: records the call and, while holding, blocks there.
    fileprivate func enter(_ call: FakeEngineCall) {
        let wait = state.withLock { s -> DispatchSemaphore? in
            s.entered.append(call)
            guard s.holding else { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            s.held.append(semaphore)
            return semaphore
        }
        wait?.wait()
    }
}

/// An in-memory `PlaybackEngine`: `frameCount` frames at 30 fps (time base 1/30), a keyframe
/// every `gop` frames, landings by the landing rules. Every seek and step passes the gate.
package final class FakePlaybackEngine: PlaybackEngine {
    package let media: MediaDescription
    package let frameTable: FrameTable
    package private(set) var currentFrameIndex: Int?
    private let gate: EngineGate

    package init(
        path: String, frameCount: Int, gop: Int, gate: EngineGate,
        mediaType: StreamDescription.MediaType = .video
    ) {
        let timeBase = TimeBase(numerator: 1, denominator: 30)
        let frames = (0..<frameCount).map { i in
            FrameEntry(
                index: i, pts: Int64(i), time: timeBase.time(ofTicks: Int64(i)), durationTicks: 1,
                duration: timeBase.time(ofTicks: 1), isKeyframe: i % gop == 0, decodeOrder: i, packetPosition: nil)
        }
        let points = frames.filter(\.isKeyframe).map {
            RandomAccessPoint(pts: $0.pts, dts: $0.pts, decodeOrder: $0.index, frameIndex: $0.index)
        }
        frameTable = FrameTable(
            streamIndex: 0, timeBase: timeBase, originPTS: 0, frames: frames,
            randomAccessPoints: points, source: .packetScan)
        let stream = StreamDescription(
            index: 0, mediaType: mediaType, codec: "fake", timeBase: timeBase,
            width: 16, height: 16, pixelFormat: "gray", sampleRate: nil, channels: nil,
            orientation: .identity, sampleAspectRatio: nil)
        media = MediaDescription(
            path: path, container: "fake", startTime: .zero,
            duration: timeBase.time(ofTicks: Int64(frameCount)), streams: [stream],
            selectedStreamIndex: 0)
        self.gate = gate
    }

    /// A factory for `Player(engineFactory:)`: `frames.fake` names a file of that many frames;
    /// `frames.audio` an audio-only one of that many 1/30 s packets.
    package static func factory(gate: EngineGate, gop: Int = 10) -> PlaybackEngineFactory {
        { (url: URL) throws(MediaError) -> any PlaybackEngine in
            guard let count = Int(url.deletingPathExtension().lastPathComponent), count > 0 else {
                throw MediaError(path: url.path, reason: .fileNotFound, cause: "no such fake media")
            }
            return FakePlaybackEngine(
                path: url.path, frameCount: count, gop: gop, gate: gate,
                mediaType: url.pathExtension == "audio" ? .audio : .video)
        }
    }

    /// Lands by the rules, after the gate. A flag set while held does not stop the landing:
    /// the worst case for the player, a frame that comes out just as its seek is ended.
    package func seek(
        to time: MediaTime, precision: SeekPrecision,
        interruption: SeekInterruptionFlag?
    ) throws(MediaError) -> SeekLanding {
        gate.enter(.seek(time))
        let plan: LandingPlan
        do { plan = try frameTable.planLanding(at: time, precision: precision) } catch {
            throw MediaError(path: media.path, reason: .invalidRequest, cause: error.description)
        }
        currentFrameIndex = plan.frameIndex
        return SeekLanding(
            plan: plan, frame: frameTable.frames[plan.frameIndex], keyframeIndex: plan.randomAccessPoint.frameIndex,
            framesDecoded: 1, demuxerSeeks: 1, latency: .zero)
    }

    /// Steps by the frame table, after the gate.
    package func step(_ direction: FrameStepDirection, count: Int) -> FrameStepReport {
        gate.enter(.step(direction))
        let current = currentFrameIndex ?? 0
        switch frameTable.stepDestination(from: current, direction, count: max(1, count)) {
        case .failure(let reason):
            return FrameStepReport(
                result: .unavailable(reason), direction: direction, requestedCount: count,
                framesStepped: 0, frame: frameTable.frames[current], framesDecoded: 0, latency: .zero)
        case .success(let destination):
            currentFrameIndex = destination.index
            let frame = frameTable.frames[destination.index]
            return FrameStepReport(
                result: .stepped(direction, landedMediaTime: frame.time), direction: direction,
                requestedCount: count, framesStepped: destination.moved, frame: frame,
                framesDecoded: 1, latency: .zero)
        }
    }
}
