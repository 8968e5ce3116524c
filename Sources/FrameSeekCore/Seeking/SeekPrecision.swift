/// How close to the requested time a seek must land, as a tolerance window
/// `[target - before, target + after]`.
///
/// The cases mirror the precisions of a mobile player SDK's seek API. Every case reduces
/// to `tolerance(before:after:)`; `window` gives that reduction.
public enum SeekPrecision: Sendable, Hashable, CustomStringConvertible {
    /// Land on the frame displayed at the target: a window of (0, 0).
    case exact
    /// Land on the latest keyframe at or before the target: a window of (+inf, 0).
    case previousKeyframe
    /// Land on the earliest keyframe at or after the target: a window of (0, +inf).
    case nextKeyframe
    /// Land on the keyframe nearest the target if one lies within `tolerance` either side.
    case nearestKeyframe(tolerance: MediaTime)
    /// The general form: any keyframe inside the window, else the frame covering
    /// `target - before`.
    case tolerance(before: MediaTime, after: MediaTime)

    /// The tolerance before and after the target that this precision allows.
    public var window: (before: MediaTime, after: MediaTime) {
        switch self {
        case .exact: return (.zero, .zero)
        case .previousKeyframe: return (.positiveInfinity, .zero)
        case .nextKeyframe: return (.zero, .positiveInfinity)
        case .nearestKeyframe(let tolerance): return (tolerance, tolerance)
        case .tolerance(let before, let after): return (before, after)
        }
    }

    /// The spelling the command line accepts: `exact`, `previous-keyframe`,
    /// `next-keyframe`, `nearest-keyframe:SECONDS`, `tolerance:BEFORE,AFTER`.
    ///
    /// Tolerances are spelled exactly (`MediaTime.exactText`: `0.5`, `1001/30000`, `inf`), so
    /// `init(parsing:)` reads every description back to the same precision; landing manifests
    /// store precisions this way.
    public var description: String {
        switch self {
        case .exact: return "exact"
        case .previousKeyframe: return "previous-keyframe"
        case .nextKeyframe: return "next-keyframe"
        case .nearestKeyframe(let t): return "nearest-keyframe:\(t.exactText)"
        case .tolerance(let b, let a): return "tolerance:\(b.exactText),\(a.exactText)"
        }
    }
}

extension SeekPrecision {
    /// Parses the command-line spelling of a precision (see `description`).
    ///
    /// Tolerances parse as exact rationals and must not be negative. `inf` (or `infinity`,
    /// `+inf`) is an unbounded side, so every precision has a spelling in the general form:
    /// `tolerance:inf,0` is `previous-keyframe`, as the command line reference defines it. Infinity is no
    /// time to seek to, but it is a tolerance.
    public init(parsing text: String) throws(SeekPrecisionParseError) {
        func tolerance(_ part: Substring) throws(SeekPrecisionParseError) -> MediaTime {
            let word = part.lowercased().filter { !$0.isWhitespace }
            if ["inf", "+inf", "infinity", "+infinity"].contains(word) { return .positiveInfinity }
            let time: MediaTime
            do { time = try MediaTime(parsing: String(part)) } catch {
                throw SeekPrecisionParseError(input: text, reason: "\(error)")
            }
            guard time >= .zero else {
                throw SeekPrecisionParseError(input: text, reason: "a tolerance cannot be negative")
            }
            return time
        }
        switch text {
        case "exact": self = .exact
        case "previous-keyframe": self = .previousKeyframe
        case "next-keyframe": self = .nextKeyframe
        default:
            if text.hasPrefix("nearest-keyframe:") {
                self = .nearestKeyframe(tolerance: try tolerance(text.dropFirst("nearest-keyframe:".count)))
            } else if text.hasPrefix("tolerance:") {
                let parts = text.dropFirst("tolerance:".count).split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2 else {
                    throw SeekPrecisionParseError(input: text, reason: "expected tolerance:BEFORE,AFTER")
                }
                self = .tolerance(before: try tolerance(parts[0]), after: try tolerance(parts[1]))
            } else {
                throw SeekPrecisionParseError(
                    input: text,
                    reason: "expected exact, previous-keyframe, next-keyframe, nearest-keyframe:SECONDS or tolerance:BEFORE,AFTER")
            }
        }
    }
}

/// A precision given on the command line that `SeekPrecision(parsing:)` could not read.
public struct SeekPrecisionParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    public let input: String
    /// Why it was rejected.
    public let reason: String
    /// One line: the input and the reason.
    public var description: String { "not a precision: \"\(input)\" (\(reason))" }
}
