import Foundation

/// What can be sought in an HLS playlist right now: the segments in its window, placed on the
/// stable timeline of ``HLSTimeline``, with their dates.
///
/// For a VOD or ended playlist the window is the whole presentation; for a live one it slides
/// as the playlist is reloaded, and media that left it is no longer seekable. An item that is
/// not a playlist has ``notLive``.
///
/// Dates come in two forms, as times do: ``startDate`` and ``endDate`` are Foundation `Date`s,
/// as the SDK writes them (`start.addingTimeInterval(120)`), and ``startProgramDate`` and
/// ``endProgramDate`` are the playlist's exact dates, which every mapping uses.
public struct LiveSeekWindow: Sendable, Hashable {
    /// One segment of the window, as the window needs it.
    public struct Segment: Sendable, Hashable {
        /// Its Media Sequence Number.
        public let mediaSequence: Int
        /// Its start on the timeline.
        public let start: MediaTime
        /// Its EXTINF duration.
        public let duration: MediaTime
        /// The date of its first sample, when the playlist is date-addressable.
        public let date: ProgramDate?

        /// Its end on the timeline.
        public var end: MediaTime { start + duration }
    }

    /// The window's segments in order.
    public let segments: [Segment]
    /// Whether the playlist may still grow (no EXT-X-ENDLIST and not VOD).
    public let isLive: Bool
    /// EXT-X-TARGETDURATION.
    public let targetDuration: MediaTime
    /// The distance kept from the end of a live window: SERVER-CONTROL HOLD-BACK, or three
    /// target durations (RFC 8216 6.3.3).
    public let holdBack: MediaTime
    /// Where the seekable range starts and ends when the window has no segments.
    private let emptyAt: MediaTime

    /// The window of `timeline`'s latest load.
    public init(timeline: HLSTimeline) {
        let playlist = timeline.playlist
        let dates = playlist.segmentDates
        segments = playlist.segments.indices.map { index in
            Segment(
                mediaSequence: playlist.segments[index].mediaSequence, start: timeline.segmentStarts[index],
                duration: playlist.segments[index].duration, date: dates?[index])
        }
        isLive = playlist.isLive
        targetDuration = playlist.targetDurationTime
        holdBack = playlist.effectiveHoldBack
        emptyAt = timeline.windowEnd
    }

    private init(segments: [Segment], isLive: Bool, targetDuration: MediaTime, holdBack: MediaTime, emptyAt: MediaTime) {
        self.segments = segments
        self.isLive = isLive
        self.targetDuration = targetDuration
        self.holdBack = holdBack
        self.emptyAt = emptyAt
    }

    /// The window of an item that is not a playlist (a file), or of no item: no segments,
    /// neither live nor date-addressable, an empty seekable range at 0; a date seek against it
    /// is unavailable (`noCurrentItem`).
    public static let notLive = LiveSeekWindow(
        segments: [], isLive: false, targetDuration: .zero,
        holdBack: .zero, emptyAt: .zero)

    /// Whether dates map to times: the playlist has EXT-X-PROGRAM-DATE-TIME.
    public var isDateAddressable: Bool { segments.first?.date != nil }

    /// How many segments the window holds.
    public var segmentCount: Int { segments.count }

    /// From the first segment's start to the last one's end, on the timeline. Half-open: the
    /// end is where the next segment will start, not a sample in this window.
    public var seekableRange: Range<MediaTime> {
        guard let first = segments.first, let last = segments.last else { return emptyAt..<emptyAt }
        // A reload whose starts go back is refused (`HLSTimeline.reload`), but a window made
        // directly from a playlist is placed as its dates say: an empty range, not a trap in
        // `Range`, where they go back.
        return first.start..<max(first.start, last.end)
    }

    /// The exact date of the window's first sample.
    public var startProgramDate: ProgramDate? { segments.first?.date }

    /// The exact date at the end of the window (the last segment's date plus its duration).
    public var endProgramDate: ProgramDate? {
        guard let last = segments.last else { return nil }
        return last.date?.advanced(by: last.duration)
    }

    /// ``startProgramDate`` as a Foundation `Date`, as the SDK reports it; precision below
    /// ~0.1 µs is lost, so compare ``startProgramDate`` instead.
    public var startDate: Date? { startProgramDate?.date }

    /// ``endProgramDate`` as a Foundation `Date`.
    public var endDate: Date? { endProgramDate?.date }

    /// Where a player joins a live stream: the window's end minus ``holdBack``, never before the
    /// window's start (a window shorter than the hold-back is joined at its start). An ended or
    /// VOD playlist will not grow, so nothing is held back and the edge is its end.
    public var liveEdge: MediaTime {
        let range = seekableRange
        guard isLive else { return range.upperBound }
        return max(range.lowerBound, range.upperBound - holdBack)
    }

    /// The timeline time of `date`: inside the segment whose `[date, date + duration)` covers it.
    ///
    /// A date that falls in a gap between segments (a later EXT-X-PROGRAM-DATE-TIME jumps
    /// ahead) maps to the start of the next segment, the earliest media after it; where dates
    /// overlap (a date jumps back), the first segment covering the date wins.
    public func time(forDate date: ProgramDate) -> Result<MediaTime, DateSeekUnavailableReason> {
        guard !segments.isEmpty else { return .failure(.noCurrentItem(requested: date)) }
        guard let start = startProgramDate, let end = endProgramDate else {
            return .failure(.notDateAddressable(requested: date))
        }
        for segment in segments {
            guard let segmentDate = segment.date else { continue }
            if date < segmentDate {
                // Before the first segment, or in a gap before this one.
                return segment.mediaSequence == segments[0].mediaSequence
                    ? .failure(.dateBeforeWindow(requested: date, windowStart: start, windowEnd: end))
                    : .success(segment.start)
            }
            let offset = segmentDate.interval(to: date)
            if offset < segment.duration { return .success(segment.start + offset) }
        }
        return .failure(.dateAfterWindow(requested: date, windowStart: start, windowEnd: end))
    }

    /// ``time(forDate:)`` for a Foundation `Date` (through ``ProgramDate/init(_:)``).
    public func time(forDate date: Date) -> Result<MediaTime, DateSeekUnavailableReason> {
        time(forDate: ProgramDate(date))
    }

    /// The date of the sample at `time`, for reporting where a seek landed; nil when the
    /// playlist has no dates or `time` is outside the window (the window's end maps to
    /// ``endProgramDate``, so a landing on the last sample's end can still be dated).
    public func date(forTime time: MediaTime) -> ProgramDate? {
        guard let last = segments.last else { return nil }
        if time == last.end { return endProgramDate }
        guard let segment = segments.first(where: { $0.start <= time && time < $0.end }) else { return nil }
        return segment.date?.advanced(by: time - segment.start)
    }
}
