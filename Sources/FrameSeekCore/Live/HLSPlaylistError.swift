/// Why a playlist cannot be read, pinned to the line that shows it.
///
/// A playlist is often a few hundred machine-written lines fetched from a server; a message
/// such as `line 7: EXTINF duration "abc" is not a non-negative decimal number (#EXTINF:abc,)`
/// lets the user find and show the fault without a debugger.
public struct HLSPlaylistError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong. Cases carry the values that make the message specific.
    public enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// The first line is not `#EXTM3U` (RFC 8216 4.3.1.1), so this is not an HLS playlist.
        case missingHeader
        /// No EXT-X-TARGETDURATION in a media playlist (RFC 8216 4.3.3.1 requires it).
        case missingTargetDuration
        /// A tag whose value must be a decimal-integer (digits only) has something else.
        case notAnInteger(tag: String, value: String)
        /// A number written for `tag`, or one that the playlist's numbers add up to (a Media
        /// Sequence Number, a byte range's end, the total duration), that is too large to keep
        /// exactly; `reason` says which number and the limit it passes. Refused rather than
        /// clamped, because a clamped sequence number or offset would name other media.
        case numberOutOfRange(tag: String, reason: String)
        /// An EXTINF duration that is not a non-negative decimal number.
        case badDuration(String)
        /// A segment whose EXTINF, rounded to the nearest integer, exceeds the target duration
        /// (RFC 8216 4.3.3.1); the reload timing and hold-back would be wrong for it.
        case segmentLongerThanTarget(duration: MediaTime, targetDuration: Int)
        /// An EXTINF not followed by a URI line before the next EXTINF or the end.
        case extinfWithoutURI
        /// A URI line without an EXTINF before it: its duration is unknown.
        case uriWithoutExtinf
        /// An attribute list that does not follow RFC 8216 4.2.
        case badAttributeList(String)
        /// A required attribute is missing or unusable.
        case badAttribute(tag: String, name: String, reason: String)
        /// An EXT-X-PROGRAM-DATE-TIME that is not a valid date-time.
        case badDate(ProgramDateParseError)
        /// An EXT-X-BYTERANGE (or MAP BYTERANGE) that is not `n[@o]`, or lacks an offset it needs.
        case badByteRange(String)
        /// EXT-X-PLAYLIST-TYPE other than VOD or EVENT.
        case badPlaylistType(String)
        /// A URI that cannot be resolved against the playlist's URL.
        case badURI(String)
        /// A URI that resolves to `length` UTF-8 bytes, more than `limit`: kept for every
        /// segment, such URLs would take unbounded memory, and no server accepts them.
        case uriTooLong(length: Int, limit: Int)
        /// A tag that RFC 8216 allows only before the first segment.
        case tagAfterFirstSegment(String)
        /// A playlist that has both segments and variant streams (RFC 8216 4.1 forbids it).
        case mixedPlaylist
        /// An EXT-X-STREAM-INF not followed by its URI line.
        case streamInfWithoutURI
        /// A multivariant playlist read as a media playlist, or the reverse.
        case wrongKind(expected: String, found: String)

        /// The cause in words.
        public var description: String {
            switch self {
            case .missingHeader:
                return "the first line must be #EXTM3U; this is not an HLS playlist"
            case .missingTargetDuration:
                return "the media playlist has no EXT-X-TARGETDURATION (RFC 8216 4.3.3.1 requires it)"
            case let .notAnInteger(tag, value):
                return "\(tag) value \"\(HLSPlaylistError.excerpt(value))\" is not a decimal integer"
            case let .numberOutOfRange(tag, reason):
                return "\(tag) is out of range: \(reason)"
            case let .badDuration(value):
                return "EXTINF duration \"\(HLSPlaylistError.excerpt(value))\" is not a non-negative decimal number"
            case let .segmentLongerThanTarget(duration, target):
                return "segment duration \(duration) rounds to more than the target duration \(target) s "
                    + "(RFC 8216 4.3.3.1)"
            case .extinfWithoutURI:
                return "EXTINF is not followed by a segment URI"
            case .uriWithoutExtinf:
                return "segment URI without an EXTINF before it"
            case let .badAttributeList(reason):
                return "bad attribute list: \(reason)"
            case let .badAttribute(tag, name, reason):
                return "\(tag) attribute \(name): \(reason)"
            case let .badDate(error):
                return "EXT-X-PROGRAM-DATE-TIME: \(error)"
            case let .badByteRange(reason):
                return "bad byte range: \(reason)"
            case let .badPlaylistType(value):
                return "EXT-X-PLAYLIST-TYPE \"\(HLSPlaylistError.excerpt(value))\" is neither VOD nor EVENT"
            case let .badURI(value):
                return "\"\(HLSPlaylistError.excerpt(value, limit: 200))\" is not a URI that can be resolved against the playlist's URL"
            case let .uriTooLong(length, limit):
                return "the URI resolves to a URL of \(length) bytes, more than FrameSeek's limit of \(limit) (CloudFront's)"
            case let .tagAfterFirstSegment(tag):
                return "\(tag) must come before the first segment (RFC 8216 4.3.3)"
            case .mixedPlaylist:
                return "a playlist cannot hold both media segments and variant streams (RFC 8216 4.1)"
            case .streamInfWithoutURI:
                return "EXT-X-STREAM-INF is not followed by the variant's URI"
            case let .wrongKind(expected, found):
                return "expected a \(expected) playlist but this is a \(found) playlist"
            }
        }
    }

    /// 1-based line number in the playlist text (CRLF and LF both end a line).
    public let line: Int
    /// The line as written (trimmed of surrounding spaces), quoted in the message.
    public let text: String
    /// What is wrong.
    public let cause: Cause

    /// Built by the parsers; public so that tests and wrappers can state expected errors.
    public init(line: Int, text: String, cause: Cause) {
        self.line = line
        self.text = text
        self.cause = cause
    }

    /// `line 7: EXTINF is not followed by a segment URI (#EXTINF:2.0,)`; a line longer than 200
    /// characters is shown by its start and end.
    public var description: String { "line \(line): \(cause) (\(HLSPlaylistError.excerpt(text, limit: 200)))" }

    /// `text`, or its start and end around an ellipsis when longer than `limit` characters, so
    /// that a message about a megabyte of hostile text stays a readable line.
    static func excerpt<S: StringProtocol>(_ text: S, limit: Int = 40) -> String {
        guard text.count > limit else { return String(text) }
        return "\(text.prefix(limit / 2))…\(text.suffix(limit / 4)) (\(text.count) characters)"
    }
}
