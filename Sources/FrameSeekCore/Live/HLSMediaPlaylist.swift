import Foundation

/// EXT-X-PLAYLIST-TYPE (RFC 8216 4.3.3.5).
public enum HLSPlaylistType: String, Sendable, Hashable {
    /// The playlist will not change.
    case vod = "VOD"
    /// Segments may only be appended; none leave the window.
    case event = "EVENT"
}

/// A sub-range of a resource (EXT-X-BYTERANGE, or MAP's BYTERANGE): `length` bytes at `offset`.
public struct HLSByteRange: Sendable, Hashable {
    /// Bytes in the range.
    public let length: Int
    /// First byte's offset in the resource.
    public let offset: Int

    /// The range `offset ..< offset + length`.
    public init(length: Int, offset: Int) {
        self.length = length
        self.offset = offset
    }

    /// One past the last byte: where a following range without an offset starts. `Int.max`
    /// when `offset + length` is larger (the parser refuses such ranges; one built by hand
    /// gets the clamp rather than a trap).
    public var end: Int {
        let (end, overflow) = offset.addingReportingOverflow(length)
        return overflow ? Int.max : end
    }
}

/// EXT-X-MAP: the initialization section (e.g. an fMP4 `moov`) segments need before decoding.
public struct HLSMap: Sendable, Hashable {
    /// The resolved URI of the section.
    public let uri: URL
    /// The part of the resource that holds it, when not the whole resource.
    public let byteRange: HLSByteRange?
    /// The EXT-X-KEY in force where the map appears: it encrypts the section too (RFC 8216
    /// 4.3.2.5), with the IV of the first segment that uses the map when the key has none.
    public let key: HLSKey?

    /// A map at `uri`, optionally a sub-range.
    public init(uri: URL, byteRange: HLSByteRange?, key: HLSKey? = nil) {
        self.uri = uri
        self.byteRange = byteRange
        self.key = key
    }
}

/// One media segment of a media playlist, with every tag that applies to it.
public struct HLSSegment: Sendable, Hashable {
    /// The segment's Media Sequence Number: EXT-X-MEDIA-SEQUENCE plus its index. Identifies the
    /// segment across reloads of a live playlist (RFC 8216 6.3.2).
    public let mediaSequence: Int
    /// The segment's URI, resolved against the playlist's URL.
    public let uri: URL
    /// EXTINF duration, exactly as written ("2.000000" is 2000000/1000000 s).
    public let duration: MediaTime
    /// EXTINF title (the text after the comma), when not empty.
    public let title: String?
    /// EXT-X-BYTERANGE, with the offset filled in when the tag omitted it.
    public let byteRange: HLSByteRange?
    /// The EXT-X-MAP in force for this segment (the last one before it).
    public let map: HLSMap?
    /// This segment's own EXT-X-PROGRAM-DATE-TIME, if it has one. Dates derived from other
    /// segments are in ``HLSMediaPlaylist/segmentDates``.
    public let programDate: ProgramDate?
    /// Whether an EXT-X-DISCONTINUITY precedes this segment (encoding or timestamps change).
    public let discontinuity: Bool
    /// The Discontinuity Sequence Number (RFC 8216 4.3.3.3): EXT-X-DISCONTINUITY-SEQUENCE plus
    /// the discontinuities up to and including this segment's.
    public let discontinuitySequence: Int
    /// 1-based line of the URI in the playlist text, for messages about this segment.
    public let line: Int
    /// Whether EXT-X-GAP marks it: the playlist says its media is missing, and a client must
    /// not fetch it (RFC 8216bis 4.4.4.7).
    public let isGap: Bool
    /// The EXT-X-KEY in force for it; nil when clear (none, or METHOD=NONE).
    public let key: HLSKey?

    /// A segment with every property stated; the parser fills these in.
    public init(
        mediaSequence: Int, uri: URL, duration: MediaTime, title: String?, byteRange: HLSByteRange?,
        map: HLSMap?, programDate: ProgramDate?, discontinuity: Bool, discontinuitySequence: Int,
        line: Int, isGap: Bool = false, key: HLSKey? = nil
    ) {
        self.mediaSequence = mediaSequence
        self.uri = uri
        self.duration = duration
        self.title = title
        self.byteRange = byteRange
        self.map = map
        self.programDate = programDate
        self.discontinuity = discontinuity
        self.discontinuitySequence = discontinuitySequence
        self.line = line
        self.isGap = isGap
        self.key = key
    }

    /// Whether `other` lists the same media: the same URI, byte range and duration. A segment
    /// keeps its Media Sequence Number for as long as it is listed (RFC 8216 6.2.1), so a reload
    /// matches segments by it; these are what that match must not change.
    public func isSameMedia(as other: HLSSegment) -> Bool {
        uri == other.uri && byteRange == other.byteRange && duration == other.duration
    }
}

/// A media playlist (RFC 8216 4.3.3 and 4.3.2): the segments of one rendition, as of one load.
///
/// Read with ``init(parsing:url:)``; a multivariant playlist is read with ``HLSPlaylist``.
/// EXT-X-KEY and EXT-X-GAP are kept with each segment; other tags that do not affect timing or
/// dates (partial segments, ...) are skipped, as RFC 8216 6.3.1 tells clients to do with tags
/// they do not recognize.
public struct HLSMediaPlaylist: Sendable, Hashable {
    /// Where the playlist was read from; segment URIs are resolved against it.
    public let url: URL
    /// EXT-X-VERSION, when present.
    public let version: Int?
    /// EXT-X-TARGETDURATION in whole seconds: the upper bound of rounded segment durations and
    /// the unit of reload timing and hold-back.
    public let targetDuration: Int
    /// EXT-X-MEDIA-SEQUENCE: the first segment's Media Sequence Number (0 when absent).
    public let mediaSequence: Int
    /// EXT-X-DISCONTINUITY-SEQUENCE (0 when absent).
    public let discontinuitySequence: Int
    /// EXT-X-PLAYLIST-TYPE, when present.
    public let playlistType: HLSPlaylistType?
    /// Whether EXT-X-ENDLIST was seen: no segments will be added.
    public let hasEndList: Bool
    /// EXT-X-SERVER-CONTROL HOLD-BACK, when the server states one.
    public let holdBack: MediaTime?
    /// The segments in playlist order.
    public let segments: [HLSSegment]

    /// A playlist with every property stated; the parser fills these in.
    public init(
        url: URL, version: Int?, targetDuration: Int, mediaSequence: Int, discontinuitySequence: Int,
        playlistType: HLSPlaylistType?, hasEndList: Bool, holdBack: MediaTime?, segments: [HLSSegment]
    ) {
        self.url = url
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.playlistType = playlistType
        self.hasEndList = hasEndList
        self.holdBack = holdBack
        self.segments = segments
    }

    /// The target duration as a time.
    public var targetDurationTime: MediaTime { MediaTime(value: Int64(targetDuration), timescale: 1) }

    /// Whether the playlist may still change: no EXT-X-ENDLIST and not VOD. An EVENT playlist is
    /// live until its ENDLIST appears.
    public var isLive: Bool { !hasEndList && playlistType != .vod }

    /// The sum of the segment durations, exact for a parsed playlist (the parser refuses a
    /// total beyond 64-bit ticks); `+infinity` for a hand-built one whose sum does not fit.
    public var duration: MediaTime {
        segments.reduce(MediaTime.zero) { $0 + $1.duration }
    }

    /// The hold-back a player keeps from the end of a live playlist: SERVER-CONTROL HOLD-BACK,
    /// or three target durations, the distance RFC 8216 6.3.3 tells clients to keep. The parser
    /// refuses a target duration whose triple does not fit `Int64`; a hand-built playlist with
    /// one gets `+infinity`.
    public var effectiveHoldBack: MediaTime {
        holdBack ?? MediaTime.make(3 * Int128(targetDuration), timescale: 1, rounded: false)
    }
}
