import Foundation

// Live playlists on the player, named as the SDK names them: `liveSeekWindow`,
// `seek(toDate:precision:)` and `seekToLiveEdge()`, each with an async form and a
// completion-handler form. A seek by date or to the edge is an ordinary seek once its time is
// known, so supersession, cancellation and close behave exactly as for `seek(to:)`.

extension Player {
    /// What can be sought in the current item now, as of the last reload of its live playlist.
    ///
    /// `LiveSeekWindow.notLive` (neither live nor date-addressable, with no segments) when
    /// nothing is loaded, when the item is not a playlist (an ordinary file), and while `load()`
    /// is opening the next item; non-optional, as the SDK's is, so `window.isDateAddressable`
    /// reads as the SDK writes it. Each reload that changes the window replaces it and calls
    /// `onLiveWindowChanged` on the listeners.
    public var liveSeekWindow: LiveSeekWindow { machine.read(\.liveWindow) ?? .notLive }

    /// Seeks to the media whose program date (EXT-X-PROGRAM-DATE-TIME) is `date`, as the current
    /// window places it, with `precision`.
    ///
    /// `.unavailable(reason)` without seeking when nothing is loaded (`noCurrentItem`), the item
    /// is a file or a playlist without dates (`notDateAddressable`), or the date is outside the
    /// window (`dateBeforeWindow`, `dateAfterWindow`); `reason.explanation` names the dates.
    /// Otherwise `.seeked(outcome)`, where `outcome.landedDate` is the landed frame's date. The
    /// date is resolved against the window current when the seek is registered, in the same
    /// step, so a reload cannot slip between the two.
    @discardableResult
    public func seek(toDate date: ProgramDate, precision: SeekPrecision = .exact) async -> DateSeekResult {
        let id = machine.update { $0.makeID() }
        return await awaitingSeek(id: id) { continuation in
            startDateSeek(
                id: id, to: date, precision: precision,
                reply: .direct { continuation.resume(returning: .seeked($0)) },
                unavailable: .direct { continuation.resume(returning: .unavailable($0)) })
        }
    }

    /// `seek(toDate:precision:)` with a Foundation `Date`, read through `ProgramDate(_:)` (the
    /// shortest decimal of its seconds, so a date typed as a decimal matches the playlist's).
    @discardableResult
    public func seek(toDate date: Date, precision: SeekPrecision = .exact) async -> DateSeekResult {
        await seek(toDate: ProgramDate(date), precision: precision)
    }

    /// The completion-handler form of `seek(toDate:precision:)`, the one synchronous code
    /// calls: `completion`, if any, runs on the callback queue, after the seek's events. The
    /// date is resolved and the seek registered before this method returns.
    public func seek(
        toDate date: ProgramDate, precision: SeekPrecision = .exact,
        completion: (@Sendable (DateSeekResult) -> Void)? = nil
    ) {
        startDateSeek(
            id: machine.update { $0.makeID() }, to: date, precision: precision,
            reply: .callback { completion?(.seeked($0)) },
            unavailable: .callback { completion?(.unavailable($0)) })
    }

    /// The completion-handler form with a Foundation `Date`.
    public func seek(
        toDate date: Date, precision: SeekPrecision = .exact,
        completion: (@Sendable (DateSeekResult) -> Void)? = nil
    ) {
        seek(toDate: ProgramDate(date), precision: precision, completion: completion)
    }

    /// Seeks to the live edge (`liveSeekWindow.liveEdge`: the window's end minus the hold-back)
    /// with `.exact` precision, as the SDK joins a live stream: it lands on the frame covering
    /// the edge, not on a keyframe near it.
    ///
    /// Nil without seeking when the media is not live: nothing loaded, a file, or a playlist
    /// that has ended (EXT-X-ENDLIST) or is VOD.
    @discardableResult
    public func seekToLiveEdge() async -> SeekOutcome? {
        let id = machine.update { $0.makeID() }
        return await awaitingSeek(id: id) { continuation in
            startLiveEdgeSeek(
                id: id, reply: .direct { continuation.resume(returning: $0) },
                notLive: .direct { continuation.resume(returning: $0) })
        }
    }

    /// The completion-handler form of `seekToLiveEdge()`, the one synchronous code calls:
    /// `completion`, if any, runs on the callback queue, with nil when the media is not live.
    public func seekToLiveEdge(completion: (@Sendable (SeekOutcome?) -> Void)? = nil) {
        startLiveEdgeSeek(
            id: machine.update { $0.makeID() }, reply: .callback { completion?($0) },
            notLive: .callback { completion?($0) })
    }

    private func startDateSeek(
        id: UInt64, to date: ProgramDate, precision: SeekPrecision,
        reply: Reply<SeekOutcome>, unavailable: Reply<DateSeekUnavailableReason>
    ) {
        start(id: id, precision: precision, reply: reply) { s, events in
            switch s.time(forDate: date) {
            case .success(let time):
                return time
            case .failure(let reason):
                unavailable.answer(reason, into: &events)
                return nil
            }
        }
    }

    private func startLiveEdgeSeek(id: UInt64, reply: Reply<SeekOutcome>, notLive: Reply<SeekOutcome?>) {
        start(id: id, precision: .exact, reply: reply) { s, events in
            guard let edge = s.liveEdge else {
                notLive.answer(nil, into: &events)
                return nil
            }
            return edge
        }
    }
}
