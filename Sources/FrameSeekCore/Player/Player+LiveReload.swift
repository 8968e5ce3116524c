// Reloading a live playlist: on the engine's queue like every other use of the engine, timed by
// the injected reload `PlayerScheduler`, committed by one transition (invariant 8).

extension Player {
    /// Reloads the current item's live playlist now, and returns whether its window changed;
    /// listeners hear `onLiveWindowChanged` first when it did.
    ///
    /// The periodic reloads go on regardless: this is for an app that knows the playlist moved
    /// (or a test). False without reloading when nothing is loaded, a load is in progress, or the
    /// item is a file or a playlist that will not change (ended, VOD).
    ///
    /// - Throws: the engine's `MediaError` when the playlist cannot be read or parsed; the
    ///   previous window stays, and listeners hear `onLiveWindowReloadFailed` too.
    public func reloadLiveWindow() async throws(MediaError) -> Bool {
        guard let identity = machine.read({ $0.loading ? nil : $0.item?.identity }) else { return false }
        let machine = self.machine
        let step = await host.perform { engine in Self.reload(engine, of: identity, machine: machine) }
        switch step??.result {
        case .success(let changed): return changed
        case .failure(let error): throw error
        case nil: return false
        }
    }

    /// Schedules the next reload of the installed item `identity`, `delay` after `started` on
    /// the scheduler's clock, and the one after that, until the item is closed or replaced or
    /// its engine stops asking for reloads (a nil delay: the playlist ended, or was never live).
    ///
    /// RFC 8216 (6.3.4) measures the wait "from the last time the client began loading the
    /// Playlist file": `started` is when the load or the reload began, so the time the request
    /// took is not waited twice, and a reload that took longer than the delay is followed at once.
    ///
    /// The wait is never under `minimumReloadDelay`, and after a failed reload it is backed off
    /// (`backedOff(_:afterFailures:)`), so that an origin in trouble is not asked again at the
    /// usual pace; the first reload that succeeds returns to the engine's delay.
    ///
    /// The player is held weakly: a player released without `close()` stops reloading at the
    /// next tick instead of keeping its engine alive forever.
    func scheduleReloads(of identity: ItemIdentity, after delay: MediaTime?, from started: MediaTime, failuresInARow: Int = 0) {
        guard let delay else { return }
        let wait = Self.backedOff(delay, afterFailures: failuresInARow)
        // The blocks reach the scheduler through the player, held weakly: a block a scheduler
        // keeps must not hold the scheduler (a manual one keeps blocks never fired).
        reloadScheduler.schedule(after: max(.zero, wait - (reloadScheduler.now - started))) { [weak self] in
            self?.host.schedule { [weak self] engine in
                guard let self else { return }
                let started = self.reloadScheduler.now
                guard let step = Self.reload(engine, of: identity, machine: self.machine) else { return }
                let failures: Int
                if case .failure = step.result { failures = failuresInARow + 1 } else { failures = 0 }
                self.scheduleReloads(of: identity, after: step.nextDelay, from: started, failuresInARow: failures)
            }
        }
    }

    /// The most a reload's delay is multiplied by after failures in a row: a live window is a
    /// few target durations long, and a player that waited longer would miss it whole.
    static let reloadBackoffLimit: Int64 = 4

    /// The shortest wait between the starts of two reloads. EXT-X-TARGETDURATION:0 is a valid
    /// playlist (every EXTINF under half a second rounds to 0), and RFC 8216 6.3.4 would then
    /// reload at once, again and again, as fast as the origin answers. Half a second is the
    /// shortest wait the RFC gives a playlist whose target duration is at least 1 s (half of
    /// it, after a reload that found nothing new), so no such playlist waits longer for it;
    /// the RFC asks for "at least" its wait, so a longer one is allowed.
    static let minimumReloadDelay = MediaTime(value: 1, timescale: 2)

    /// `delay`, at least `minimumReloadDelay`, after `failures` failed reloads in a row: doubled
    /// for each, at most `reloadBackoffLimit` times. RFC 8216 (6.3.4) times only reloads that
    /// succeed; the retries inside one reload (`NetworkPolicy`) back off on their own.
    static func backedOff(_ delay: MediaTime, afterFailures failures: Int) -> MediaTime {
        let delay = max(delay, minimumReloadDelay)
        guard failures > 0 else { return delay }
        let factor = min(reloadBackoffLimit, Int64(1) << min(failures, 62))
        // Exact: MediaTime adds, and the factor is small.
        return (1..<factor).reduce(delay) { sum, _ in sum + delay }
    }

    /// What one reload did.
    struct ReloadStep: Sendable {
        /// Whether the window changed, or why the playlist could not be reloaded.
        let result: Result<Bool, MediaError>
        /// When to reload again; nil to stop.
        let nextDelay: MediaTime?
    }

    /// Reloads the playlist of `identity`'s engine and commits what changed. On the engine's
    /// queue, with its engine.
    ///
    /// Nil when the engine or the player's item is no longer `identity`'s (closed, or replaced
    /// by a load): such a reload touches neither the engine nor the state, and reloading stops.
    /// Nil too when the engine no longer asks for reloads.
    static func reload(
        _ engine: (any PlaybackEngine)?, of identity: ItemIdentity,
        machine: PlayerStateMachine
    ) -> ReloadStep? {
        guard let live = engine as? any LivePlaybackEngine, ObjectIdentifier(live) == identity.engine,
            live.reloadDelay != nil, machine.read({ $0.isCurrent(identity) })
        else { return nil }
        let result: Result<Bool, MediaError>
        let stillCurrent: Bool
        do throws(MediaError) {
            let changed = try live.reloadPlaylist()
            result = .success(changed)
            if changed {
                // Read on this queue right after the reload, so the window, the range and the
                // clamps the transition installs are the engine's, all from one reload.
                let reloaded = LoadedItem(live, generation: identity.generation)
                stillCurrent = machine.apply { s, events in s.commitReload(reloaded, into: &events) }
            } else {
                stillCurrent = machine.read { $0.isCurrent(identity) }
            }
        } catch {
            result = .failure(error)
            stillCurrent = machine.apply { s, events in s.reloadFailed(identity, error, into: &events) }
        }
        return stillCurrent ? ReloadStep(result: result, nextDelay: live.reloadDelay) : nil
    }
}
