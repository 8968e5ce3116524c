import FrameSeek

/// Where `frameseek seek` goes in a playlist when it is given no times: a date (`--date`) or
/// the live edge (`--live-edge`).
enum LiveTarget: Equatable {
    /// An EXT-X-PROGRAM-DATE-TIME instant.
    case date(ProgramDate)
    /// `LiveSeekWindow.liveEdge`: the window's end less the hold-back, as a player joins.
    case liveEdge

    /// The option that asked for it, for messages.
    var option: String {
        switch self {
        case .date: "--date"
        case .liveEdge: "--live-edge"
        }
    }

    /// The target `arguments` ask for, or nil when they give times instead.
    ///
    /// - Throws: `UsageError` when `--date` is not a date (naming the value), or when a date, the
    ///   live edge, TIMEs, `--at` and `--targets` are mixed: each says where to go on its own, and two at
    ///   once would leave it unclear which run of output answers which.
    init?(_ arguments: Arguments) throws(UsageError) {
        let text = arguments.value("--date")
        let wantsEdge = arguments.has("--live-edge")
        guard text != nil || wantsEdge else { return nil }
        if text != nil && wantsEdge { throw UsageError(message: "--date and --live-edge cannot be combined") }
        let option = wantsEdge ? "--live-edge" : "--date"
        if arguments.positionals.count > 1 || arguments.value("--at") != nil || arguments.value("--targets") != nil {
            throw UsageError(message: "\(option) cannot be combined with TIMEs, --at or --targets")
        }
        guard let text else { self = .liveEdge; return }
        do { self = .date(try ProgramDate(parsing: text)) } catch {
            throw UsageError(message: "--date: \(error)")
        }
    }

    /// The timeline time to seek to in `engine`'s window, or why there is none.
    func time(in engine: HLSEngine) -> Result<MediaTime, LiveUnavailable> {
        let window = engine.liveSeekWindow
        switch self {
        case .date(let date):
            return window.time(forDate: date).mapError(LiveUnavailable.init)
        case .liveEdge:
            // The SDK's seekToLiveEdge() refuses a playlist that will not grow rather than
            // jumping to its end: a script asking for the edge of a VOD playlist has the wrong
            // input, and the end would look like a valid live landing.
            guard window.isLive else {
                let why = engine.timeline.playlist.hasEndList ? "has EXT-X-ENDLIST" : "is EXT-X-PLAYLIST-TYPE:VOD"
                return .failure(
                    LiveUnavailable(
                        reason: "notLive",
                        explanation: "cannot seek to the live edge: \(engine.url) \(why), so it is not live and has no live edge"))
            }
            return .success(window.liveEdge)
        }
    }
}

/// A date seek or live-edge seek that cannot happen: printed as one record, exit 1.
struct LiveUnavailable: Error {
    /// The `DateSeekUnavailableReason` case name, or `notLive`.
    let reason: String
    /// One sentence for the user.
    let explanation: String

    /// The SDK's reason, named as its case is.
    init(_ reason: DateSeekUnavailableReason) {
        let name =
            switch reason {
            case .notDateAddressable: "notDateAddressable"
            case .dateBeforeWindow: "dateBeforeWindow"
            case .dateAfterWindow: "dateAfterWindow"
            case .noCurrentItem: "noCurrentItem"
            }
        self.init(reason: name, explanation: reason.explanation)
    }

    /// A reason the SDK has no case for.
    init(reason: String, explanation: String) {
        self.reason = reason
        self.explanation = explanation
    }

    /// `{"result":"unavailable","reason":…,"explanation":…}`.
    var json: JSONValue {
        .object([("result", .string("unavailable")), ("reason", .string(reason)), ("explanation", .string(explanation))])
    }

    /// The text-mode line.
    var text: String { "unavailable (\(reason)): \(explanation)" }
}
