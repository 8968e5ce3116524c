// Headless playback: `play(rate:)` starts a session on the player's clock, and ticks timed by the
// injected playback `PlayerScheduler` bring the engine, on its queue, to the frame whose time has come.
// A tick plans under the lock, lands on the engine, and commits under the lock (invariant 9).

extension Player {
    /// The fastest `play(rate:)` accepts: beyond it decoding could not keep up with the clock
    /// and playback would be a sequence of seeks.
    public static let maximumRate = 16.0

    /// The longest gap between two ticks, in media time, whatever frames and time updates ask:
    /// playback listeners (a `ResumeTracker`) hear the playhead at least this often.
    static let maximumTickGap = MediaTime(value: 1, timescale: 10)

    /// Plays the current item from the playhead at `rate` (1 is real time), on the player's clock.
    ///
    /// Frames are decoded as their time comes due: the engine steps forward to the due frame,
    /// or seeks (exact) to it when it lies past the next keyframe, so frames that came due while
    /// a tick was late are dropped rather than decoded. Audio-only media plays by the clock
    /// alone. `onTimeUpdate` comes every `timeUpdateInterval` of media time; at the end the
    /// player pauses on the last frame and emits `onPlaybackEnded()`. A seek or step during
    /// playback moves the playhead and playback goes on from where it landed. Calling this while
    /// playing changes the rate from the playhead.
    ///
    /// While a playlist advance's next item opens and will resume playback, this sets the rate
    /// it resumes at.
    ///
    /// - Throws: `PlaybackError.invalidRate` for NaN, infinite, zero, negative rates or rates
    ///   above `maximumRate`; `.noCurrentItem` when nothing is loaded (or a load is in progress,
    ///   but for that advance's).
    public func play(rate: Double = 1) throws(PlaybackError) {
        guard rate.isFinite, rate > 0, rate <= Self.maximumRate else { throw .invalidRate(rate) }
        let now = clock.now()
        let id = machine.update { $0.makeID() }
        let started = try machine.apply { s, events in s.play(id: id, rate: rate, now: now, into: &events) }.get()
        if started { scheduleTick(of: id, after: .zero) }
    }

    /// Stops playback; the playhead stays on the frame shown. Does nothing when paused. During a
    /// playlist advance, the next item does not start playing either.
    public func pause() {
        machine.apply { s, events in s.pause(into: &events) }
    }

    /// The playback rate: 0 while paused.
    public var rate: Double { machine.read { $0.playback?.rate ?? 0 } }

    /// True while playing.
    public var isPlaying: Bool { machine.read { $0.playback != nil } }

    /// How often, in media time, playback calls `onTimeUpdate(currentTime:duration:)`: 0.1 s by
    /// default. Values that are not positive numbers are ignored.
    public var timeUpdateInterval: MediaTime {
        get { machine.read(\.timeUpdateInterval) }
        set {
            guard newValue.isNumeric, newValue > .zero else { return }
            machine.update { $0.timeUpdateInterval = newValue }
        }
    }

    /// Queues tick `id` on the playback scheduler; the player is held weakly, so a released player stops.
    func scheduleTick(of id: UInt64, after delay: MediaTime) {
        playbackScheduler.schedule(after: delay) { [weak self] in
            self?.host.schedule { [weak self] engine in self?.tick(of: id, engine: engine) }
        }
    }

    /// One tick of session `id`. On the engine's queue.
    private func tick(of id: UInt64, engine: (any PlaybackEngine)?) {
        let now = clock.now()
        switch machine.update({ $0.planTick(id: id, now: now) }) {
        case .stop:
            return
        case .wait:
            scheduleTick(of: id, after: Self.maximumTickGap)
        case .advance(let target, let playhead, let heldFrame, let identity, let isVideo, let end, let nextUpdate):
            guard let engine, ObjectIdentifier(engine) == identity.engine else { return }
            let ended = target >= end
            let step =
                isVideo
                ? Self.advanceVideo(engine, to: target, from: playhead, heldFrame: heldFrame)
                : PlaybackStep(landed: ended ? end : target, nextFrame: nil)
            let commit = machine.apply { s, events in
                s.commitTick(
                    id: id, identity: identity, target: target, landed: step.landed, heldFrame: step.heldFrame, ended: ended,
                    into: &events)
            }
            switch commit {
            case .goOn:
                scheduleTick(
                    of: id,
                    after: Self.delay(
                        from: target, frame: step.nextFrame, update: nextUpdate,
                        rate: machine.read { $0.playback?.rate ?? 1 }))
            case .stop:
                break
            case .ended(let next):
                if let next { advance(afterEnd: next) }
            }
        }
    }

    /// What a tick did on the engine.
    struct PlaybackStep {
        /// The playhead after the tick.
        let landed: MediaTime
        /// When the frame after it starts (nil at the last frame, or without video).
        let nextFrame: MediaTime?
        /// The frame the engine was left on when it is not the one shown (not due yet).
        var heldFrame: MediaTime? = nil
    }

    /// Brings the engine to the frame covering `target` (the last frame past the end). Decodes
    /// nothing when that frame is already shown; steps forward when that decodes no more frames
    /// than a seek would (a seek decodes from the due frame's keyframe); seeks exact otherwise,
    /// so frames that came due while a tick was late are dropped, never decoded. On the
    /// engine's queue.
    static func advanceVideo(
        _ engine: any PlaybackEngine, to target: MediaTime, from playhead: MediaTime, heldFrame: MediaTime? = nil
    ) -> PlaybackStep {
        guard let table = engine.indexedFrameTable else {
            return advanceUnindexedVideo(engine, to: target, from: playhead, heldFrame: heldFrame)
        }
        guard !table.frames.isEmpty else { return PlaybackStep(landed: playhead, nextFrame: nil) }
        let want = table.frameIndex(covering: target) ?? 0
        let current = engine.currentFrameIndex
        // The engine may sit elsewhere than the playhead (a superseded seek landed there).
        let shown = current.flatMap { table.frames[$0].time == playhead ? $0 : nil }
        if let shown, shown != want {
            let keyframe = table.randomAccessPoint(forFrame: want)?.frameIndex ?? 0
            if want > shown, want - shown <= want - keyframe + 1 {
                _ = engine.step(.forward, count: want - shown)
            } else {
                _ = try? engine.seek(to: table.frames[want].time, precision: .exact)
            }
        } else if shown == nil {
            _ = try? engine.seek(to: table.frames[want].time, precision: .exact)
        }
        // Through media that could not be read (a lost segment) the clock runs on over the last
        // frame shown, to where frames resume: playback goes on from what it has.
        if let hole = table.missingData(at: target) {
            return PlaybackStep(landed: target, nextFrame: hole.end > target && hole.afterFrame + 1 < table.frames.count ? hole.end : nil)
        }
        let landed = engine.currentFrameIndex ?? want
        let next = landed + 1 < table.frames.count ? table.frames[landed + 1].time : nil
        return PlaybackStep(landed: table.frames[landed].time, nextFrame: next)
    }

    /// How far past the shown frame's end a due frame may start for playback without the frame
    /// table to step to it frame by frame rather than seek: without the table the keyframe's
    /// distance is unknown, and a second of frames costs about what a seek's decode from a
    /// keyframe does on a typical GOP.
    static let unindexedStepReach = MediaTime(value: 1, timescale: 1)

    /// `advanceVideo` on an engine whose frame table is not indexed (a playlist or a file read
    /// as needed, whose table would read all of it first): the frames' own times say when each
    /// is due, as a player knows them. The engine steps forward one frame at a time while the
    /// shown frame's end (its time and duration) is passed; a frame it steps to that is not due
    /// yet (the shown frame's duration ended before the next frame starts) is held there,
    /// `heldFrame` to the next tick, and shown when due. The engine seeks exact to the target
    /// instead when the target lies more than `unindexedStepReach` past the shown frame's end,
    /// or when it stands neither on the shown frame nor on the held one (a superseded seek left
    /// it elsewhere). Where no frame covers the target (missing media, the end), the last frame
    /// stays shown, and the next tick comes with the next time update. On the engine's queue.
    static func advanceUnindexedVideo(
        _ engine: any PlaybackEngine, to target: MediaTime, from playhead: MediaTime, heldFrame: MediaTime?
    ) -> PlaybackStep {
        let standing = engine.currentFrame.flatMap { $0.time == playhead || $0.time == heldFrame ? $0 : nil }
        if let standing, standing.time > target {
            return PlaybackStep(landed: playhead, nextFrame: standing.time, heldFrame: standing.time)
        }
        var shown: FrameEntry
        if let standing, target < standing.time + standing.duration + unindexedStepReach {
            shown = standing
        } else {
            // A seek that fails leaves the frame shown: stepping to the target one frame at a
            // time could be thousands of decodes on the engine's queue.
            guard let landed = (try? engine.seek(to: target, precision: .exact))?.frame else {
                return PlaybackStep(landed: standing?.time ?? playhead, nextFrame: nil)
            }
            shown = landed
        }
        while target >= shown.time + shown.duration {
            let report = engine.step(.forward, count: 1)
            guard report.result.didStep, let next = report.frame, next.time > shown.time else { break }
            guard next.time <= target else { return PlaybackStep(landed: shown.time, nextFrame: next.time, heldFrame: next.time) }
            shown = next
        }
        let end = shown.time + shown.duration
        return PlaybackStep(landed: shown.time, nextFrame: end > target ? end : nil)
    }

    /// Clock time until the next frame or time update comes due from `target`, at most
    /// `maximumTickGap` of media time, at least a millisecond.
    static func delay(from target: MediaTime, frame: MediaTime?, update: MediaTime, rate: Double) -> MediaTime {
        var due = min(update, target + maximumTickGap)
        if let frame { due = min(due, frame) }
        let seconds = max((due - target).seconds / rate, 0.001)
        return MediaTime(seconds: seconds, preferredTimescale: 1_000_000)
    }
}
