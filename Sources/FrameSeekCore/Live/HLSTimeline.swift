/// Why a reload cannot be placed on the timeline.
public enum HLSTimelineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The previous load had EXT-X-ENDLIST or was EXT-X-PLAYLIST-TYPE:VOD: the playlist is
    /// final and must not be reloaded.
    case playlistEnded
    /// The reload's EXT-X-MEDIA-SEQUENCE is below the previous one, which RFC 8216 6.2.2 forbids;
    /// the segments cannot be matched, so no times can be kept.
    case mediaSequenceDecreased(previous: Int, reloaded: Int)
    /// The segment `mediaSequence` of the reload cannot be placed: its start or end is beyond
    /// 64-bit ticks, because the reload skipped so many Media Sequence Numbers (each counted as
    /// one target duration) or the stream ran so long. Refused rather than clamped, since a
    /// clamped start would put segments on top of each other; the previous window stays current.
    case timelineOverflow(mediaSequence: Int)
    /// The segment `mediaSequence` of the reload would start before the segment before it: its
    /// date (a live DASH window is placed by dates) is earlier than where that one starts. A
    /// window's starts never go back, so the reload is refused; the previous window stays current.
    case startWentBack(mediaSequence: Int)
    /// The reload lists another segment under the Media Sequence Number `mediaSequence` than the
    /// previous load did (another URI, byte range or duration), which RFC 8216 6.2.1 forbids.
    /// Its start is known and its end is not, so it would overlap the segment after it; the
    /// previous window stays current.
    case segmentChanged(mediaSequence: Int)

    /// The error in words.
    public var description: String {
        switch self {
        case .playlistEnded:
            return "the playlist has EXT-X-ENDLIST or is EXT-X-PLAYLIST-TYPE:VOD and is not reloaded"
        case let .mediaSequenceDecreased(previous, reloaded):
            return "EXT-X-MEDIA-SEQUENCE went back from \(previous) to \(reloaded) on reload (RFC 8216 6.2.2)"
        case let .timelineOverflow(sequence):
            return "segment \(sequence) of the reload would lie beyond the timeline's 64-bit ticks "
                + "(each Media Sequence Number skipped since the last load counts one target duration)"
        case let .startWentBack(sequence):
            return "segment \(sequence) of the reload is dated before the start of the segment before it"
        case let .segmentChanged(sequence):
            return "segment \(sequence) of the reload has another URI, byte range or duration than on the previous load "
                + "(RFC 8216 6.2.1)"
        }
    }
}

/// Media times for the segments of a live playlist that stay put while the window slides.
///
/// A seek or a report made at one load must still mean the same media after the next load,
/// although the playlist then starts with a different segment. So the timeline is zero-based at
/// the first segment of the first load, and a segment keeps its start time for as long as it
/// stays in the window, matched across reloads by Media Sequence Number (RFC 8216 6.3.2). New
/// segments follow their predecessors by EXTINF duration; segments that left the window are
/// forgotten, so they are no longer seekable.
///
/// A value type: a reload returns through `mutating`, and a copy is a snapshot.
public struct HLSTimeline: Sendable, Hashable {
    /// The playlist as of the latest load.
    public private(set) var playlist: HLSMediaPlaylist
    /// The start time of each segment of ``playlist``, in the same order.
    public private(set) var segmentStarts: [MediaTime]
    /// Whether the latest load differed from the one before (true for the first load).
    public private(set) var lastLoadChanged: Bool
    /// The last segment ever seen and its end, for continuing after a reload that shares no
    /// segment with the window before it; nil until a segment has been seen.
    private var lastSeen: (sequence: Int, end: MediaTime)? {
        get { lastSeenSequence.map { ($0, lastSeenEnd) } }
        set {
            lastSeenSequence = newValue?.sequence
            lastSeenEnd = newValue?.end ?? .zero
        }
    }
    private var lastSeenSequence: Int?
    private var lastSeenEnd: MediaTime = .zero
    /// The date of time 0 when segments are placed by their dates (see `init`); nil when they
    /// follow each other by duration.
    private let dateOrigin: ProgramDate?

    /// A timeline whose time 0 is the start of `playlist`'s first segment.
    ///
    /// With `dateOrigin`, every dated segment starts at its date's distance from it instead of
    /// after its predecessor: a live DASH window, whose segments are dated from the MPD's own
    /// clock, so that a reload that skipped segments places the next where its media is. HLS
    /// segments follow each other by EXTINF, whatever their dates say (RFC 8216 6.2.1).
    public init(playlist: HLSMediaPlaylist, dateOrigin: ProgramDate? = nil) {
        self.playlist = playlist
        self.segmentStarts = []
        self.lastLoadChanged = true
        self.dateOrigin = dateOrigin
        self.segmentStarts = HLSTimeline.starts(of: playlist, known: [:], lastSeen: nil, dateOrigin: dateOrigin)
        recordLastSeen()
    }

    /// Places a reloaded playlist on the timeline and returns whether it changed.
    ///
    /// Segments still in the window keep their start times; new ones follow from durations.
    /// When the reload shares no segment with the previous window (the client fell behind and
    /// segments came and went unseen), the first new segment starts after the last one seen
    /// plus one target duration per unseen Media Sequence Number: target duration is the
    /// nominal segment length, and this keeps times increasing, even if not equal to the
    /// lost media's true length.
    ///
    /// Throws ``HLSTimelineError`` when the playlist had ended or is VOD, when its Media Sequence Number
    /// went back, when a segment of the previous load comes back changed, when a segment would
    /// be placed beyond 64-bit ticks or before the one before it; the timeline is then unchanged.
    @discardableResult
    public mutating func reload(with reloaded: HLSMediaPlaylist) throws(HLSTimelineError) -> Bool {
        guard playlist.isLive else { throw .playlistEnded }
        guard reloaded.mediaSequence >= playlist.mediaSequence else {
            throw .mediaSequenceDecreased(previous: playlist.mediaSequence, reloaded: reloaded.mediaSequence)
        }
        var known: [Int: MediaTime] = [:]
        var listed: [Int: HLSSegment] = [:]
        for (segment, start) in zip(playlist.segments, segmentStarts) {
            known[segment.mediaSequence] = start
            listed[segment.mediaSequence] = segment
        }
        for segment in reloaded.segments {
            if let before = listed[segment.mediaSequence], !segment.isSameMedia(as: before) {
                throw .segmentChanged(mediaSequence: segment.mediaSequence)
            }
        }
        let starts = HLSTimeline.starts(of: reloaded, known: known, lastSeen: lastSeen, dateOrigin: dateOrigin)
        for (segment, start) in zip(reloaded.segments, starts) where !(start + segment.duration).isNumeric {
            throw .timelineOverflow(mediaSequence: segment.mediaSequence)
        }
        for index in starts.indices.dropFirst() where starts[index] < starts[index - 1] {
            throw .startWentBack(mediaSequence: reloaded.segments[index].mediaSequence)
        }
        lastLoadChanged = reloaded != playlist
        segmentStarts = starts
        playlist = reloaded
        recordLastSeen()
        return lastLoadChanged
    }

    /// The start time of the segment with Media Sequence Number `sequence`, if it is in the
    /// window.
    public func startTime(ofMediaSequence sequence: Int) -> MediaTime? {
        playlist.segments.firstIndex { $0.mediaSequence == sequence }.map { segmentStarts[$0] }
    }

    /// What a player can seek to now.
    public var window: LiveSeekWindow { LiveSeekWindow(timeline: self) }

    /// How long to wait, from the start of the last load, before reloading (RFC 8216 6.3.4):
    /// the target duration after a load that changed the playlist, half of it after one that
    /// did not. Nil once the playlist has EXT-X-ENDLIST, and for a VOD playlist, with or
    /// without it (RFC 8216 4.3.3.5): it will not change again.
    public static func reloadDelay(after playlist: HLSMediaPlaylist, changed: Bool) -> MediaTime? {
        guard playlist.isLive else { return nil }
        return changed ? playlist.targetDurationTime : MediaTime(value: Int64(playlist.targetDuration), timescale: 2)
    }

    /// ``reloadDelay(after:changed:)`` for the latest load.
    public var reloadDelay: MediaTime? {
        HLSTimeline.reloadDelay(after: playlist, changed: lastLoadChanged)
    }

    /// End of the window, or where it would start when empty.
    var windowEnd: MediaTime {
        guard let last = playlist.segments.indices.last else { return lastSeenEnd }
        return segmentStarts[last] + playlist.segments[last].duration
    }

    private mutating func recordLastSeen() {
        if let last = playlist.segments.last {
            lastSeen = (last.mediaSequence, windowEnd)
        }
    }

    /// Start times for `playlist`: known segments keep theirs, others follow the previous one.
    private static func starts(
        of playlist: HLSMediaPlaylist, known: [Int: MediaTime],
        lastSeen: (sequence: Int, end: MediaTime)?, dateOrigin: ProgramDate?
    ) -> [MediaTime] {
        var starts: [MediaTime] = []
        starts.reserveCapacity(playlist.segments.count)
        for (index, segment) in playlist.segments.enumerated() {
            if let start = known[segment.mediaSequence] {
                starts.append(start)
            } else if let dateOrigin, let date = segment.programDate {
                starts.append(dateOrigin.interval(to: date))
            } else if index > 0 {
                starts.append(starts[index - 1] + playlist.segments[index - 1].duration)
            } else if let lastSeen, segment.mediaSequence > lastSeen.sequence {
                // Int128 holds (Int.max - Int.min) * Int.max; `make` saturates what Int64 cannot
                // hold, and `reload` refuses a start that saturated.
                let unseen = Int128(segment.mediaSequence) - Int128(lastSeen.sequence) - 1
                let gap = MediaTime.make(unseen * Int128(playlist.targetDuration), timescale: 1, rounded: false)
                starts.append(lastSeen.end + gap)
            } else {
                starts.append(lastSeen?.end ?? .zero)
            }
        }
        return starts
    }
}
