/// Whether a seek target was moved into the seekable range before landing.
///
/// `didClamp` is false both for `.none` and for `.seekableRangeUnknown`: with no known range
/// nothing was moved, and claiming a clamp would tell the listener a target changed when it
/// did not.
public enum SeekClamp: Sendable, Hashable {
    /// The target lay inside the seekable range.
    case none
    /// The target lay before the first frame and was moved to it.
    case clampedToStart(MediaTime)
    /// The target lay at or after the end of the last frame and was moved to the last frame.
    case clampedToEnd(MediaTime)
    /// No seekable range was known (nothing loaded, a live window not yet read): the target
    /// was used as given.
    case seekableRangeUnknown

    /// True when the target really moved.
    public var didClamp: Bool {
        switch self {
        case .clampedToStart, .clampedToEnd: return true
        case .none, .seekableRangeUnknown: return false
        }
    }

    /// The target the landing used, when the clamp moved it.
    public var clampedTarget: MediaTime? {
        switch self {
        case .clampedToStart(let t), .clampedToEnd(let t): return t
        case .none, .seekableRangeUnknown: return nil
        }
    }

    /// The short name the command line prints: `none`, `start`, `end`, `unknown`.
    public var name: String {
        switch self {
        case .none: return "none"
        case .clampedToStart: return "start"
        case .clampedToEnd: return "end"
        case .seekableRangeUnknown: return "unknown"
        }
    }

    /// One sentence for a person.
    public var explanation: String {
        switch self {
        case .none: return "The target lay inside the seekable range."
        case .clampedToStart(let t): return "The target lay before the first frame; it was moved to the first frame at \(t.seconds) s."
        case .clampedToEnd(let t): return "The target lay past the end of the last frame; it was moved to the last frame at \(t.seconds) s."
        case .seekableRangeUnknown: return "The seekable range was not known, so the target was used as given."
        }
    }
}

extension SeekClamp {
    /// `explanation`, saying why the end clamps early when the file is cut short: the target
    /// may lie inside the duration the container states, past the data that could be read.
    public func explanation(truncation: Truncation?) -> String {
        guard case .clampedToEnd(let t) = self, let truncation else { return explanation }
        return
            "The target lay past the readable end of a truncated file (\(truncation)); it was moved to the last readable frame at \(t.seconds) s."
    }

    /// The clamp rule: a target before `firstFrame` moves to it; a target at or after `end`
    /// (the end of the last frame) moves to `lastFrame`; others stay. Returns the clamp and
    /// the target the landing uses.
    public static func resolve(
        _ requested: MediaTime, firstFrame: MediaTime, lastFrame: MediaTime,
        end: MediaTime
    ) -> (clamp: SeekClamp, target: MediaTime) {
        if requested < firstFrame { return (.clampedToStart(firstFrame), firstFrame) }
        if requested >= end { return (.clampedToEnd(lastFrame), lastFrame) }
        return (.none, requested)
    }
}
