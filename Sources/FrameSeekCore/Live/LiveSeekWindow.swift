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

    /// The exact date of the window's earliest sample: the first segment's date, unless an
    /// EXT-X-PROGRAM-DATE-TIME after it goes back further.
    public var startProgramDate: ProgramDate? { segments.lazy.compactMap(\.date).min() }

    /// The exact date at the window's latest end (a segment's date plus its duration): the last
    /// segment's, unless an EXT-X-PROGRAM-DATE-TIME went back before it.
    public var endProgramDate: ProgramDate? {
        segments.lazy.compactMap { segment in segment.date?.advanced(by: segment.duration) }.max()
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
    /// Where dates overlap (an EXT-X-PROGRAM-DATE-TIME goes back), the first segment covering
    /// the date wins. A date no segment covers, between the window's earliest and latest dates,
    /// falls in a gap (a date jumps ahead) and maps to the start of the segment dated next after
    /// it, the earliest media after it.
    public func time(forDate date: ProgramDate) -> Result<MediaTime, DateSeekUnavailableReason> {
        guard !segments.isEmpty else { return .failure(.noCurrentItem(requested: date)) }
        guard let start = startProgramDate, let end = endProgramDate else {
            return .failure(.notDateAddressable(requested: date))
        }
        var datedNext: (segment: Segment, date: ProgramDate)?
        for segment in segments {
            guard let segmentDate = segment.date else { continue }
            if date < segmentDate {
                if datedNext.map({ segmentDate < $0.date }) ?? true { datedNext = (segment, segmentDate) }
                continue
            }
            let offset = segmentDate.interval(to: date)
            if offset < segment.duration { return .success(segment.start + offset) }
        }
        // Before the earliest date every segment is dated after `date`; at or after the latest
        // end none is.
        if date < start { return .failure(.dateBeforeWindow(requested: date, windowStart: start, windowEnd: end)) }
        if let datedNext { return .success(datedNext.segment.start) }
        return .failure(.dateAfterWindow(requested: date, windowStart: start, windowEnd: end))
    }

    /// ``time(forDate:)`` for a Foundation `Date` (through ``ProgramDate/init(_:)``).
    public func time(forDate date: Date) -> Result<MediaTime, DateSeekUnavailableReason> {
        time(forDate: ProgramDate(date))
    }

    /// The date of the sample at `time`, for reporting where a seek landed; nil when the
    /// playlist has no dates or `time` is outside the window (the window's end maps to the last
    /// segment's date plus its duration, so a landing on the last sample's end can still be dated).
    public func date(forTime time: MediaTime) -> ProgramDate? {
        guard let last = segments.last else { return nil }
        if time == last.end { return last.date?.advanced(by: last.duration) }
        guard let segment = segments.first(where: { $0.start <= time && time < $0.end }) else { return nil }
        return segment.date?.advanced(by: time - segment.start)
    }
}
