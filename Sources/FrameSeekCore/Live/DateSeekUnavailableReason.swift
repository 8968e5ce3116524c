/// Why a seek by date cannot happen; ``explanation`` is meant for the user as is.
///
/// Each case carries the requested date (and the window's dates where they explain the
/// refusal), so a message can say what was asked and what was possible without the caller
/// keeping the window around.
public enum DateSeekUnavailableReason: Error, Sendable, Hashable, CustomStringConvertible {
    /// The playlist has no EXT-X-PROGRAM-DATE-TIME, so no date maps to a media time.
    case notDateAddressable(requested: ProgramDate)
    /// The date is earlier than the first sample still in the window; on a live playlist its
    /// segment has slid out of the window or never existed.
    case dateBeforeWindow(requested: ProgramDate, windowStart: ProgramDate, windowEnd: ProgramDate)
    /// The date is at or after the end of the last segment: not yet published, or past an
    /// ended stream.
    case dateAfterWindow(requested: ProgramDate, windowStart: ProgramDate, windowEnd: ProgramDate)
    /// There is nothing to seek in (the player has no item, or the window has no segments).
    case noCurrentItem(requested: ProgramDate)

    /// The date that was asked for.
    public var requested: ProgramDate {
        switch self {
        case let .notDateAddressable(requested), let .noCurrentItem(requested),
            let .dateBeforeWindow(requested, _, _), let .dateAfterWindow(requested, _, _):
            return requested
        }
    }

    /// One sentence naming the requested date and, where relevant, the window's dates in
    /// RFC 3339 UTC with milliseconds.
    public var explanation: String {
        let asked = requested.iso8601
        switch self {
        case .notDateAddressable:
            return "cannot seek to \(asked): the playlist has no EXT-X-PROGRAM-DATE-TIME, so its media "
                + "has no dates"
        case let .dateBeforeWindow(_, start, end):
            return "cannot seek to \(asked): it is before the seekable window, which runs from "
                + "\(start.iso8601) to \(end.iso8601); its media has left the playlist or never existed"
        case let .dateAfterWindow(_, start, end):
            return "cannot seek to \(asked): it is at or after the end of the seekable window, which runs "
                + "from \(start.iso8601) to \(end.iso8601); no media exists there (not published yet, or after the end)"
        case .noCurrentItem:
            return "cannot seek to \(asked): there is no current item to seek in"
        }
    }

    /// The explanation.
    public var description: String { explanation }
}
