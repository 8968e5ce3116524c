import Foundation

/// Everything the player knows between calls, as one value, and every transition on it.
///
/// The player keeps this value behind its one lock (`PlayerStateMachine`). Each public call
/// is one transition: a mutating method here that returns the events to emit, which the
/// machine queues on the callback queue while still holding the lock. So events reach the
/// host in the order the transitions happened, and nothing here ever touches the engine.
///
/// Invariants (each transition keeps them; the race tests force every ordering of them):
///
/// 1. At most one seek is pending: `activeSeek`. Registering a seek ends the previous one at
///    once as `superseded`, so its completion fires immediately and nothing it does later
///    in the engine can be heard.
/// 2. A seek is reported exactly once: one reply, and one `seekEnd` for each `seekStart`. It
///    is reported by the transition that removes it from `activeSeek`, and only that one.
/// 3. `onSeekAccuracy` is emitted only for a seek that landed.
/// 4. The playhead moves only when the engine's result is committed for the seek or step
///    that is still pending: a seek that is `activeSeek`, a step in `pendingSteps` with no
///    seek pending.
/// 5. `close()` and `load()` end every seek and step of the old item within their own
///    transition (seeks as `cancelled`, steps as `noCurrentItem`), so no event of the old
///    item is emitted after that transition, whatever the engine does later.
/// 6. A seek that does not land reports the clamp of the item it was registered against
///    (unknown while a load is in progress), never that of an item loaded later.
/// 7. The scrub session is `seeking` exactly while its end seek is `activeSeek`; the
///    transition that ends that seek returns the session to `idle`.
/// 8. `item.liveWindow` is the window of the engine's latest load or reload of that very item
///    (nil for a file), and the item's seekable range and clamps come from the same reload. A
///    reload is committed only for the item (`ItemIdentity`) it was started for, so a reload
///    of a closed or replaced item never touches the next one's state; and it is announced only
///    while no load is in progress, so nothing of the old item is heard after `load()` begins
///    (invariant 5). Seeks by date resolve against `liveWindow` in the transition that registers
///    them, so the time they seek to is the one that window gives, whatever reload comes next.
/// 9. At most one playback session runs (`playback`). A tick moves the playhead only in its
///    commit, and only while its session is current, its item is installed and no seek or step
///    is pending (those own the playhead; playback goes on from where they land). `close()` and
///    `load()` end the session in their own transition, and a tick of an ended session does
///    nothing.
/// 10. Each installed item is announced once (`itemLoaded`) and its end once (`itemEnding`, in
///    the transition of the `close()` or `load()` that ends it, or again `itemLoaded` when that
///    load fails and the item stays), so a listener always knows which item the events are for.
/// 11. The engine's queue runs jobs in the order of the transitions that called for them: a
///    seek, a step, a load's open and a close's unload are queued inside their own transition,
///    under the lock. So a seek registered after `load()` began runs on the new item's engine,
///    and a `close()` that came before a `load()` never unloads that load's engine.
struct PlayerState: Sendable {
    var item: LoadedItem?
    /// True from `load()`'s start until its item is installed: new seeks do not know the range.
    var loading = false
    var playhead: MediaTime = .zero
    /// The one seek that will move the playhead if it lands.
    var activeSeek: PendingSeek?
    /// Steps asked for and not yet reported, by id.
    var pendingSteps: [UInt64: PendingStep] = [:]
    /// Counts loads and closes: an item installed for an older load is ignored.
    var generation: UInt64 = 0
    var scrub = ScrubMachine()
    var listeners = ListenerRegistry()
    var previewProvider: (any ScrubPreviewProvider)?
    /// The running playback session, nil while paused.
    var playback: PlaybackSession?
    /// How often, in media time, playback emits `timeUpdate`.
    var timeUpdateInterval = PlayerState.defaultTimeUpdateInterval
    /// The URL the current item was loaded from.
    var itemURL: URL?
    /// Consulted by `load()` for where to start when the caller gives no position.
    var startPositionProvider: StartPositionProvider?
    /// The item whose end was announced last (`itemEnding`), and where it stopped: what a
    /// listener that has not yet heard that event would save.
    private(set) var lastEnded: EndedItem?
    /// The items of `setPlaylist(_:)`, and which one is current.
    var playlist: [URL] = []
    var playlistIndex: Int?
    /// Playback a playlist advance resumes on the next item once it is installed, withdrawn by
    /// the user's `pause()`, `play(rate:)` or `close()` meanwhile.
    var pendingResume: PendingResume?
    private var lastID: UInt64 = 0

    /// A fresh id for a seek or a step.
    mutating func makeID() -> UInt64 {
        lastID &+= 1
        return lastID
    }

    var duration: MediaTime { item?.duration ?? .indefinite }

    /// The live window seeks by date resolve against: nil with nothing loaded, for a file, and
    /// while a load is in progress (a seek issued then lands on the new item, whose window is
    /// not known yet). A failed load shows the old item's window again.
    var liveWindow: LiveSeekWindow? { loading ? nil : item?.liveWindow }
}

/// A registered seek.
struct PendingSeek: Sendable {
    let id: UInt64
    let target: MediaTime
    let precision: SeekPrecision
    /// Polled by the engine while it decodes; set by the transition that ends the seek.
    let flag: SeekInterruptionFlag
    let start: ContinuousClock.Instant
    /// What to report if the seek ends without landing (invariant 6).
    let clampIfNotLanded: SeekClamp
    let reply: Reply<SeekOutcome>

    /// The outcome of this seek ending without a landing, the playhead left at `playhead`
    /// (`.invalid` when nothing is loaded).
    func notLanded(
        _ interruption: SeekInterruption, playhead: MediaTime, error: MediaError? = nil,
        clamp: SeekClamp? = nil
    ) -> SeekOutcome {
        SeekOutcome(
            requested: target, precision: precision, clamp: clamp ?? clampIfNotLanded,
            interruption: interruption, playhead: playhead, latency: ContinuousClock.now - start, error: error)
    }
}

/// An item that ended (closed or replaced), and where its playhead stood.
struct EndedItem: Sendable, Equatable {
    let url: URL
    let position: MediaTime
}

/// A step asked for.
struct PendingStep: Sendable {
    let direction: FrameStepDirection
    let count: Int
    let reply: Reply<FrameStepReport>
    /// The time of the frame the item's table says the step lands on, set when it is
    /// registered; nil when the table says it cannot move (the engine then reports why). A
    /// time, not an index: a live reload replaces the table, and its frames' numbers shift as
    /// segments leave the window, while their times stay.
    var predictedTime: MediaTime? = nil

    /// The report of this step ending without stepping.
    func unavailable(_ reason: FrameStepUnavailableReason) -> FrameStepReport {
        FrameStepReport(
            result: .unavailable(reason), direction: direction, requestedCount: count,
            framesStepped: 0, frame: nil, framesDecoded: 0, latency: .zero)
    }
}

/// Where a result goes: a suspended `async` caller, or a completion handler that runs on the
/// callback queue after the events emitted with it.
enum Reply<Value: Sendable>: Sendable {
    case resume(CheckedContinuation<Value, Never>)
    /// Runs when emitted, like `resume`: for an `async` caller whose continuation takes another
    /// type (a seek by date resumes with a `DateSeekResult` made from the outcome).
    case direct(@Sendable (Value) -> Void)
    case callback(@Sendable (Value) -> Void)
}

// MARK: - Seeks

extension PlayerState {
    /// What `registerSeek` decided.
    enum Registration {
        /// Queue the seek on the engine.
        case run(PendingSeek)
        /// Nothing is loaded: the seek was answered `notReady` already.
        case answered
    }

    /// A seek is asked for: it supersedes the active one (invariant 1).
    mutating func registerSeek(
        id: UInt64, to target: MediaTime, precision: SeekPrecision,
        start: ContinuousClock.Instant, reply: Reply<SeekOutcome>,
        into events: inout [PlayerEmission]
    ) -> Registration {
        let seek = PendingSeek(
            id: id, target: target, precision: precision, flag: SeekInterruptionFlag(),
            start: start,
            clampIfNotLanded: loading ? .seekableRangeUnknown : item?.clamp(for: target) ?? .seekableRangeUnknown,
            reply: reply)
        guard item != nil else {
            seek.flag.interrupt(.notReady)
            events.append(.seekReply(reply, seek.notLanded(.notReady, playhead: .invalid)))
            return .answered
        }
        endActiveSeek(.superseded, into: &events)
        activeSeek = seek
        events.append(.seekStart(target))
        return .run(seek)
    }

    /// Ends the active seek without a landing (superseded, cancelled, closed), if there is one.
    mutating func endActiveSeek(_ interruption: SeekInterruption, into events: inout [PlayerEmission]) {
        guard let seek = activeSeek else { return }
        seek.flag.interrupt(interruption)
        finish(seek, seek.notLanded(interruption, playhead: playhead), into: &events)
    }

    /// Ends the seek `id` as cancelled, if it is still pending (task cancellation).
    mutating func cancelSeek(id: UInt64, into events: inout [PlayerEmission]) {
        guard activeSeek?.id == id else { return }
        endActiveSeek(.cancelled, into: &events)
    }

    /// The engine is about to run seek `id`: its flag, or nil when the seek already ended
    /// (the engine then skips it without decoding).
    func seekToRun(id: UInt64) -> SeekInterruptionFlag? {
        activeSeek?.id == id ? activeSeek?.flag : nil
    }

    /// What the engine did for a seek.
    enum EngineResult: Sendable {
        /// The engine landed; `date` is the landed frame's program date, as the engine dates it
        /// (`LivePlaybackEngine.landedDate`), nil for a file.
        case landed(SeekLanding, date: ProgramDate?)
        case failed(MediaError)
        /// The engine stopped because the flag was set (the seek is then already reported).
        case interrupted
        /// No engine was loaded.
        case noEngine
    }

    /// The engine finished seek `id`. Commits it only if it is still the active seek
    /// (invariants 2 and 4); otherwise it was reported when it ended, and this is dropped.
    mutating func commitSeek(id: UInt64, _ result: EngineResult, into events: inout [PlayerEmission]) {
        guard let seek = activeSeek, seek.id == id else { return }
        switch result {
        case .landed(let landing, let date):
            let outcome = SeekOutcome(landing: landing, latency: ContinuousClock.now - seek.start, landedDate: date)
            playhead = landing.frame.time
            reanchorPlayback()
            if outcome.clamp.didClamp { events.append(.seekClamped(outcome.clamp)) }
            events.append(.seekAccuracy(outcome.accuracy, outcome))
            finish(seek, outcome, into: &events)
        case .failed(let error):
            seek.flag.interrupt(.failed)
            finish(seek, seek.notLanded(.failed, playhead: playhead, error: error), into: &events)
        case .interrupted:
            seek.flag.interrupt(.cancelled)
            finish(seek, seek.notLanded(.cancelled, playhead: playhead), into: &events)
        case .noEngine:
            seek.flag.interrupt(.notReady)
            finish(seek, seek.notLanded(.notReady, playhead: .invalid, clamp: .seekableRangeUnknown), into: &events)
        }
    }

    /// Reports the active seek and removes it: seek end (and the time update, if it landed),
    /// the scrub's return to idle when it was the scrub's seek, then the reply.
    private mutating func finish(_ seek: PendingSeek, _ outcome: SeekOutcome, into events: inout [PlayerEmission]) {
        activeSeek = nil
        events.append(.seekEnd(playhead))
        if outcome.finished { events.append(.timeUpdate(playhead, duration: duration)) }
        if scrub.endSeekID == seek.id { scrub.endSeekFinished(into: &events) }
        events.append(.seekReply(seek.reply, outcome))
    }
}

// MARK: - Steps

extension PlayerState {
    /// What `registerStep` decided.
    enum StepRegistration {
        /// Queue the step on the engine; `predicted` is the time of the frame the item's table
        /// says it lands on, or, where the table cannot say (none, or it says the step cannot
        /// move and the engine will report why), where the playhead stands now.
        case queued(predicted: MediaTime)
        /// The step was answered already, with this result.
        case answered(FrameStepResult)
    }

    /// A step is asked for. Its destination is read from the item's frame table, counted from
    /// where the steps still pending will leave the playhead, since the engine runs them in
    /// order before this one. With `refusingFromTable`, a step the table says cannot move
    /// (audio only, an edge) is answered here instead of going to the engine.
    mutating func registerStep(
        id: UInt64, _ step: PendingStep, refusingFromTable: Bool,
        into events: inout [PlayerEmission]
    ) -> StepRegistration {
        var step = step
        // While a load is in progress the old item has ended (invariant 5) and the new one is
        // not there yet to say where a step lands.
        var blocked: FrameStepUnavailableReason? =
            item == nil || loading ? .noCurrentItem : activeSeek != nil ? .seekInProgress : nil
        if blocked == nil, let item {
            switch item.stepDestination(from: stepOrigin(in: item), step.direction, count: max(1, step.count)) {
            case .success(let index)?: step.predictedTime = item.frameTable?.frames[index].time
            case .failure(let reason)?: if refusingFromTable { blocked = reason }
            case nil: break  // no table yet: the engine answers
            }
        }
        if let blocked {
            let report = step.unavailable(blocked)
            events.append(.frameStep(report.result))
            events.append(.stepReply(step.reply, report))
            return .answered(report.result)
        }
        pendingSteps[id] = step
        return .queued(predicted: step.predictedTime ?? playhead)
    }

    /// The frame the next step starts from: where the latest pending step that moves will land,
    /// else the playhead's frame.
    private func stepOrigin(in item: LoadedItem) -> Int? {
        let latest = pendingSteps.filter { $0.value.predictedTime != nil }.max { $0.key < $1.key }
        let origin = latest?.value.predictedTime ?? playhead
        return item.frameTable?.frameIndex(covering: origin)
    }

    /// The engine is about to run step `id`: the playhead to step from, or nil when the step
    /// already ended.
    func stepToRun(id: UInt64) -> MediaTime? {
        pendingSteps[id] == nil ? nil : playhead
    }

    /// The engine finished step `id`: reported and committed only if still pending. The
    /// playhead moves only when no seek was issued meanwhile, since that seek will move it.
    mutating func commitStep(id: UInt64, _ report: FrameStepReport, into events: inout [PlayerEmission]) {
        guard let step = pendingSteps.removeValue(forKey: id) else { return }
        events.append(.frameStep(report.result))
        if case .stepped(_, let landed) = report.result, activeSeek == nil {
            playhead = landed
            reanchorPlayback()
            events.append(.timeUpdate(landed, duration: duration))
        }
        events.append(.stepReply(step.reply, report))
    }

    /// Ends every step still pending as `reason`.
    private mutating func endPendingSteps(_ reason: FrameStepUnavailableReason, into events: inout [PlayerEmission]) {
        for id in pendingSteps.keys.sorted() {
            guard let step = pendingSteps.removeValue(forKey: id) else { continue }
            let report = step.unavailable(reason)
            events.append(.frameStep(report.result))
            events.append(.stepReply(step.reply, report))
        }
    }
}

// MARK: - Items

extension PlayerState {
    /// `cancelPendingSeeks()`.
    mutating func cancelSeeks(into events: inout [PlayerEmission]) {
        endActiveSeek(.cancelled, into: &events)
    }

    /// `load()` starts: the old item's seeks and steps end now (invariant 5). The old item
    /// stays current until the new one is installed, so a failed load leaves it playable.
    mutating func beginLoad(into events: inout [PlayerEmission]) -> UInt64 {
        endItem(into: &events)
        generation &+= 1
        loading = true
        return generation
    }

    /// The engine opened the item of load `generation`; ignored if a close or another load
    /// came after it. Returns whether it was installed.
    @discardableResult
    mutating func install(
        _ loaded: LoadedItem, url: URL, startingAt start: MediaTime?, generation loadGeneration: UInt64,
        into events: inout [PlayerEmission]
    ) -> Bool {
        guard loadGeneration == generation else { return false }
        item = loaded
        itemURL = url
        loading = false
        playhead = start ?? loaded.seekableRange?.lowerBound ?? .zero
        events.append(.itemLoaded(url, playhead, duration: duration))
        return true
    }

    /// The load of `generation` failed: the old item stays, and is announced again (invariant 10).
    mutating func loadFailed(generation loadGeneration: UInt64, into events: inout [PlayerEmission]) {
        guard loadGeneration == generation else { return }
        loading = false
        if item != nil, let itemURL { events.append(.itemLoaded(itemURL, playhead, duration: duration)) }
    }

    /// What `close()` and `load()` end first: seeks and steps (invariant 5), playback
    /// (invariant 9), and the item as listeners know it (invariant 10).
    private mutating func endItem(into events: inout [PlayerEmission]) {
        endActiveSeek(.cancelled, into: &events)
        endPendingSteps(.noCurrentItem, into: &events)
        stopPlaying(into: &events)
        if !loading, item != nil, let itemURL {
            events.append(.itemEnding(itemURL, playhead, duration: duration))
            lastEnded = EndedItem(url: itemURL, position: playhead)
        }
    }

    /// `close()`: every seek and step ends now (invariant 5) and the item goes.
    mutating func close(into events: inout [PlayerEmission]) {
        endItem(into: &events)
        pendingResume = nil
        generation &+= 1
        loading = false
        item = nil
        itemURL = nil
        playhead = .zero
    }
}
