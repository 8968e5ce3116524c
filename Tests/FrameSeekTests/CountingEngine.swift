// A decorator engine for the Player tests: it forwards to a real `FFmpegEngine`, counts the
// seeks and steps that reach it, records what each inner seek did (and, when asked, the MD5 of
// the picture it landed on), and runs hooks on the engine's queue around the inner seek and
// before a step, so a test can act at an exact point of a seek or a step.

import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

/// What a `CountingEngine` saw: how many seeks and steps reached the engine, what each inner
/// seek did, and hooks that run on the engine's queue around the inner seek and before a step.
final class EngineProbe: Sendable {
    /// One call of the inner engine's seek. `md5` is the landed picture's, when the probe
    /// hashes pictures; nil otherwise.
    enum InnerSeek: Sendable, Equatable {
        case landed(frameIndex: Int, framesDecoded: Int, md5: String?)
        case threw(MediaError)
    }

    typealias Hook = @Sendable (_ number: Int) -> Void
    private struct State {
        var seeks = 0
        var steps = 0
        var inner: [InnerSeek] = []
        var beforeSeek: Hook?
        var afterSeek: Hook?
        var beforeStep: Hook?
    }

    /// Whether each landing's picture is hashed into `InnerSeek.landed`'s `md5`.
    let hashesPictures: Bool
    private let state = Locked(State())

    init(hashesPictures: Bool = false) { self.hashesPictures = hashesPictures }

    var seekCount: Int { state.withLock { $0.seeks } }
    var stepCount: Int { state.withLock { $0.steps } }
    /// Every inner seek, in the order the engine ran them.
    var innerSeeks: [InnerSeek] { state.withLock { $0.inner } }

    /// Runs on the engine queue after a seek reaches the engine, before the FFmpeg engine starts.
    func setBeforeSeek(_ hook: Hook?) { state.withLock { $0.beforeSeek = hook } }
    /// Runs on the engine queue after the FFmpeg engine landed, before the player sees it.
    func setAfterSeek(_ hook: Hook?) { state.withLock { $0.afterSeek = hook } }
    /// Runs on the engine queue after a step reaches the engine, before the FFmpeg engine steps.
    func setBeforeStep(_ hook: Hook?) { state.withLock { $0.beforeStep = hook } }

    fileprivate func nextSeek() -> (Int, Hook?) {
        state.withLock { s in
            s.seeks += 1; return (s.seeks, s.beforeSeek)
        }
    }
    fileprivate var afterSeek: Hook? { state.withLock { $0.afterSeek } }
    fileprivate func nextStep() -> (Int, Hook?) {
        state.withLock { s in
            s.steps += 1; return (s.steps, s.beforeStep)
        }
    }
    fileprivate func record(_ seek: InnerSeek) { state.withLock { $0.inner.append(seek) } }
}

/// A `PlaybackEngine` that forwards to a real `FFmpegEngine` and counts what reaches it.
final class CountingEngine: PlaybackEngine {
    let inner: FFmpegEngine
    let probe: EngineProbe

    init(_ inner: FFmpegEngine, probe: EngineProbe) {
        self.inner = inner
        self.probe = probe
    }

    var media: MediaDescription { inner.media }
    var frameTable: FrameTable { inner.frameTable }
    var currentFrameIndex: Int? { inner.currentFrameIndex }

    func seek(
        to time: MediaTime, precision: SeekPrecision,
        interruption: SeekInterruptionFlag?
    ) throws(MediaError) -> SeekLanding {
        let (number, hook) = probe.nextSeek()
        hook?(number)
        do {
            let landing = try inner.seek(to: time, precision: precision, interruption: interruption)
            probe.record(
                .landed(
                    frameIndex: landing.frame.index, framesDecoded: landing.framesDecoded,
                    md5: probe.hashesPictures ? try inner.landedPicture()?.md5 : nil))
            probe.afterSeek?(number)
            return landing
        } catch {
            probe.record(.threw(error))
            throw error
        }
    }

    func step(_ direction: FrameStepDirection, count: Int) -> FrameStepReport {
        let (number, hook) = probe.nextStep()
        hook?(number)
        return inner.step(direction, count: count)
    }
}

/// Where `Harness.seekSuperseding` issues the newer seek from, once the older one has entered
/// the FFmpeg engine: the engine's queue itself, or a new thread after spinning for a delay.
enum NewerSeekSource {
    case engineQueue
    case newThread(after: Duration)
}

extension Harness {
    /// Issues an exact completion-form seek to frame `older`'s middle and, as it enters the FFmpeg
    /// engine, one to frame `newer`'s from `source`; returns both outcomes once both completed.
    func seekSuperseding(
        _ older: Int, by newer: Int, in oracle: Oracle,
        from source: NewerSeekSource
    ) async throws -> (older: SeekOutcome, newer: SeekOutcome) {
        let player = self.player
        let startSeek = probe.seekCount + 1
        let box = OutcomeBox<SeekOutcome>()
        probe.setBeforeSeek { [weak player] number in
            guard number == startSeek, let player else { return }
            switch source {
            case .engineQueue:
                player.seek(to: oracle.middle(newer), precision: .exact) { box.put(1, $0) }
            case .newThread(let delay):
                Thread.detachNewThread {
                    let until = ContinuousClock.now + delay
                    while ContinuousClock.now < until {}
                    player.seek(to: oracle.middle(newer), precision: .exact) { box.put(1, $0) }
                }
            }
        }
        defer { probe.setBeforeSeek(nil) }
        player.seek(to: oracle.middle(older), precision: .exact) { box.put(0, $0) }
        let outcomes = try await box.wait(forCount: 2)
        return (try #require(outcomes[0]), try #require(outcomes[1]))
    }
}
