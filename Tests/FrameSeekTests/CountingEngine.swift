// A decorator engine for the Player tests: it forwards to a real `FFmpegEngine`, counts the
// seeks and steps that reach it, records what each inner seek did, and runs hooks on the
// engine's queue around the inner seek, so a test can act at an exact point of a seek.

import Foundation
import FrameSeek
import Synchronization

/// What a `CountingEngine` saw: how many seeks and steps reached the engine, what each inner
/// seek did, and hooks that run on the engine's queue around the inner seek.
final class EngineProbe: Sendable {
    /// One call of the inner engine's seek.
    enum InnerSeek: Sendable, Equatable {
        case landed(frameIndex: Int, framesDecoded: Int)
        case threw(MediaError)
    }

    typealias Hook = @Sendable (_ seekNumber: Int) -> Void
    private struct Hooks {
        var beforeSeek: Hook?
        var afterSeek: Hook?
        var inner: [InnerSeek] = []
    }

    let seeks = Atomic<Int>(0)
    let steps = Atomic<Int>(0)
    private let hooks = Locked(Hooks())

    var seekCount: Int { seeks.load(ordering: .acquiring) }
    var stepCount: Int { steps.load(ordering: .acquiring) }
    /// Every inner seek, in the order the engine ran them.
    var innerSeeks: [InnerSeek] { hooks.withLock { $0.inner } }

    /// Runs on the engine queue after a seek reaches the engine, before the FFmpeg engine starts.
    func setBeforeSeek(_ hook: Hook?) { hooks.withLock { $0.beforeSeek = hook } }
    /// Runs on the engine queue after the FFmpeg engine landed, before the player sees it.
    func setAfterSeek(_ hook: Hook?) { hooks.withLock { $0.afterSeek = hook } }

    fileprivate var beforeSeek: Hook? { hooks.withLock { $0.beforeSeek } }
    fileprivate var afterSeek: Hook? { hooks.withLock { $0.afterSeek } }
    fileprivate func record(_ seek: InnerSeek) { hooks.withLock { $0.inner.append(seek) } }
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

    func seek(to time: MediaTime, precision: SeekPrecision,
              interruption: SeekInterruptionFlag?) throws(MediaError) -> SeekLanding {
        let number = probe.seeks.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        probe.beforeSeek?(number)
        do {
            let landing = try inner.seek(to: time, precision: precision, interruption: interruption)
            probe.record(.landed(frameIndex: landing.frame.index, framesDecoded: landing.framesDecoded))
            probe.afterSeek?(number)
            return landing
        } catch {
            probe.record(.threw(error))
            throw error
        }
    }

    func step(_ direction: FrameStepDirection, count: Int) -> FrameStepReport {
        probe.steps.wrappingAdd(1, ordering: .acquiringAndReleasing)
        return inner.step(direction, count: count)
    }
}
