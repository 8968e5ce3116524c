// The live-window part of the player's state: where seeks by date and to the live edge go,
// and the transitions that commit a reload of the live playlist (invariant 8).

extension PlayerState {
    /// The time `date` maps to in the current item's window, or why it maps to none: nothing
    /// loaded (or a load in progress) is `noCurrentItem`, a file is `notDateAddressable`, and
    /// the window itself decides the rest.
    func time(forDate date: ProgramDate) -> Result<MediaTime, DateSeekUnavailableReason> {
        guard item != nil, !loading else { return .failure(.noCurrentItem(requested: date)) }
        guard let window = liveWindow else { return .failure(.notDateAddressable(requested: date)) }
        return window.time(forDate: date)
    }

    /// Where `seekToLiveEdge()` goes: the window's live edge, or nil unless the current item is
    /// a live playlist (a file, an ended or VOD playlist has no edge to join).
    var liveEdge: MediaTime? {
        guard let window = liveWindow, window.isLive else { return nil }
        return window.liveEdge
    }

    /// Whether `identity` is still the current item: a reload started for it may go on.
    func isCurrent(_ identity: ItemIdentity) -> Bool {
        item?.identity == identity
    }

    /// A reload changed the window of the item `reloaded` was read from: its window, seekable
    /// range and clamps are replaced at once, and listeners hear the new window in transition
    /// order. Dropped when that item is no longer current; not announced while a load is in
    /// progress (invariant 5), though still recorded, so a failed load leaves the old item with
    /// the window its engine really has. Returns whether the item is still current.
    mutating func commitReload(_ reloaded: LoadedItem, into events: inout [PlayerEmission]) -> Bool {
        guard isCurrent(reloaded.identity) else { return false }
        item = reloaded
        if !loading, let window = reloaded.liveWindow { events.append(.liveWindowChanged(window)) }
        return true
    }

    /// A reload of `identity` failed: the window stays, and listeners hear why, unless the
    /// item is gone or being replaced. Returns whether the item is still current.
    mutating func reloadFailed(
        _ identity: ItemIdentity, _ error: MediaError,
        into events: inout [PlayerEmission]
    ) -> Bool {
        guard isCurrent(identity) else { return false }
        if !loading { events.append(.liveWindowReloadFailed(error)) }
        return true
    }
}

extension Reply {
    /// Answers `value` from inside a transition that registers nothing (a seek by date that
    /// has no time to go to): an `async` caller resumes at once, a completion handler is queued
    /// on the callback queue behind the events emitted before it.
    func answer(_ value: Value, into events: inout [PlayerEmission]) {
        switch self {
        case .resume(let continuation): continuation.resume(returning: value)
        case .direct(let resume): resume(value)
        case .callback(let completion): events.append(.callback { completion(value) })
        }
    }
}
