// Dates of segments (RFC 8216 4.3.2.6).
//
// EXT-X-PROGRAM-DATE-TIME dates the first sample of the segment after it; dates later in the
// playlist follow from EXTINF durations. Servers commonly date every segment, some only the
// first, some only after a discontinuity; this is the one place that turns whatever is written
// into a date for every segment.

extension HLSMediaPlaylist {
    /// Whether any segment has an EXT-X-PROGRAM-DATE-TIME, so that dates map to media times.
    public var isDateAddressable: Bool {
        segments.contains { $0.programDate != nil }
    }

    /// The date of each segment's first sample, or nil when the playlist has no dates.
    ///
    /// - A segment with its own EXT-X-PROGRAM-DATE-TIME has that date, even where it disagrees
    ///   with the durations before it (the server's clock is the authority on dates).
    /// - A later segment without one is dated by the previous segment's date plus its duration,
    ///   also across an EXT-X-DISCONTINUITY that brings no fresh date: durations are still the
    ///   best knowledge of elapsed time there.
    /// - Segments before the first dated one are dated backward, by subtracting their durations
    ///   from it, so that a playlist dating only its third segment still dates the first two.
    public var segmentDates: [ProgramDate]? {
        guard let anchorIndex = segments.firstIndex(where: { $0.programDate != nil }),
            let anchor = segments[anchorIndex].programDate
        else { return nil }
        var dates = [ProgramDate](repeating: anchor, count: segments.count)
        var date = anchor
        for index in stride(from: anchorIndex - 1, through: 0, by: -1) {
            date = date.advanced(by: -segments[index].duration)
            dates[index] = date
        }
        date = anchor
        for index in segments.indices.dropFirst(anchorIndex + 1) {
            date = segments[index].programDate ?? date.advanced(by: segments[index - 1].duration)
            dates[index] = date
        }
        return dates
    }
}
