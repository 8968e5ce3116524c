/// What `Player.seek(toDate:precision:)` did: an ordinary seek to the time the date maps to, or
/// the reason no seek was made.
///
/// Two levels on purpose, as the SDK has them: a date the window cannot place is not a seek
/// at all (no seek starts, no listener hears anything), while a date it can place becomes a seek
/// like any other, which may itself be superseded or cancelled (see `SeekOutcome.finished`).
public enum DateSeekResult: Sendable, Hashable {
    /// The date mapped to a time in the window and a seek ran; `landedDate` on the outcome is
    /// the date of the frame it landed on.
    case seeked(SeekOutcome)
    /// No seek was made; `reason.explanation` says why, with the dates involved.
    case unavailable(DateSeekUnavailableReason)

    /// The seek's outcome, or nil when no seek was made.
    public var outcome: SeekOutcome? {
        if case .seeked(let outcome) = self { outcome } else { nil }
    }

    /// Why no seek was made, or nil when one was.
    public var unavailableReason: DateSeekUnavailableReason? {
        if case .unavailable(let reason) = self { reason } else { nil }
    }
}
