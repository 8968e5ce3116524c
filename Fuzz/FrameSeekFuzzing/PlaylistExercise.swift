import Foundation
import FrameSeekCore
import FrameSeekFFmpeg

/// The sequence the playlists fuzz target runs on every input: the bytes as an HLS playlist of
/// either kind, as a media and as a multivariant playlist, their first line as an attribute
/// list and as a program date, a live reload when the input holds a second `#EXTM3U`, and the
/// bytes as a DASH MPD (XML, then the presentation and every Representation's segments) and
/// as a SegmentBase's `sidx` box.
///
/// Everything a remote origin controls goes through here: parsing must end in a typed error
/// or a playlist, and what is then derived from a playlist (its timeline, its live window,
/// dates and times, byte ranges) must not trap on any value the parser let through.
package enum PlaylistExercise {
    /// Where every playlist claims to come from: a remote origin, as in the hostile case.
    static let url = URL(string: "https://origin.example/live/index.m3u8")!

    /// What the parsers made of one input.
    package struct Summary: Sendable, CustomStringConvertible {
        /// "media" or "multivariant" when `HLSPlaylist.parse` read it, "dash" when it read as an
        /// MPD, else nil.
        package var kind: String?
        /// The segments (media, or the first Representation of an MPD) or variants
        /// (multivariant) read.
        package var entries = 0
        /// The error that ended the parse, nil when it read.
        package var error: String?
        /// Whether the first line, as an EXT-X-STREAM-INF attribute list, read.
        package var attributesRead = false
        /// Whether the first line read as a program date.
        package var dateRead = false
        /// Whether a second playlist in the input was placed on the first one's timeline.
        package var reloaded = false
        /// The subsegments the input lists when read as a `sidx` box, nil when it does not read.
        package var indexReferences: Int?

        package var description: String {
            "\(kind ?? "unread") with \(entries) entries, attributes \(attributesRead), date \(dateRead), reloaded \(reloaded)"
                + (error.map { ", error: \($0)" } ?? "")
        }
    }

    @discardableResult
    package static func run(_ bytes: [UInt8]) -> Summary {
        let text = String(decoding: bytes, as: UTF8.self)
        var summary = Summary()
        // The input and, when it holds another header after its first, the reload that follows.
        let parts = text.ranges(of: "#EXTM3U").dropFirst().first.map { (String(text[..<$0.lowerBound]), String(text[$0.lowerBound...])) }
        let first = parts?.0 ?? text
        do {
            switch try HLSPlaylist.parse(text: first, url: url) {
            case let .media(playlist):
                summary.kind = "media"
                summary.entries = playlist.segments.count
                var timeline = exercise(playlist)
                if let reloadText = parts?.1, let reloaded = try? HLSMediaPlaylist(parsing: reloadText, url: url),
                    (try? timeline.reload(with: reloaded)) != nil
                {
                    summary.reloaded = true
                    exercise(timeline)
                }
            case let .multivariant(playlist):
                summary.kind = "multivariant"
                summary.entries = playlist.variants.count
                exercise(playlist)
            }
        } catch {
            summary.error = error.description
        }
        // As a sidx box; and a SegmentBase's sidx, in an MPD, is these bytes read as one.
        let index = try? SegmentIndexBox(bytes: bytes, offset: 0, element: "input")
        summary.indexReferences = index?.references.count
        // As an MPD: the XML, the presentation, and each Representation's segments as a
        // media playlist, which then goes where an HLS one goes.
        if let root = try? MPDDocument.root(of: bytes),
            let presentation = try? DASHPresentation(root: root, url: url)
        {
            // A live presentation is listed an hour after it became available: a fixed instant,
            // so that a run is the same whatever the clock says.
            let now = (presentation.live?.availabilityStart ?? ProgramDate(sinceEpoch: .zero)).advanced(
                by: MediaTime(value: 3600, timescale: 1))
            for position in presentation.variants.variants.indices {
                let needed = (try? presentation.segmentIndexRanges(selecting: .index(position))) ?? []
                let indexes = Dictionary(index.map { index in needed.map { ($0.path, index) } } ?? []) { first, _ in first }
                guard let read = try? presentation.mediaPlaylist(selecting: .index(position), at: now, segmentIndexes: indexes)
                else { continue }
                exercise(read.playlist)
                if position == 0 { (summary.kind, summary.entries, summary.error) = ("dash", read.playlist.segments.count, nil) }
            }
        }
        // The typed entry points, which refuse the other kind.
        _ = try? HLSMediaPlaylist(parsing: first, url: url)
        _ = try? HLSMultivariantPlaylist(parsing: first, url: url)

        // The first line alone, as the attributes of a variant and as a date, so the fuzzer
        // reaches those parsers without having to build a whole playlist around them.
        let line = first.prefix { $0 != "\n" && $0 != "\r" }
        let variant = "#EXTM3U\n#EXT-X-STREAM-INF:\(line)\nvariant.m3u8\n"
        if let playlist = try? HLSMultivariantPlaylist(parsing: variant, url: url) {
            summary.attributesRead = true
            exercise(playlist)
        }
        if let date = try? ProgramDate(parsing: String(line)) {
            summary.dateRead = true
            _ = (date.iso8601, date.date, date.advanced(by: MediaTime(value: 1, timescale: 1)), date.interval(to: date))
        }
        let dated = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PROGRAM-DATE-TIME:\(line)\n#EXTINF:2,\na.ts\n#EXTINF:2,\nb.ts\n"
        if let playlist = try? HLSMediaPlaylist(parsing: dated, url: url) {
            exercise(playlist)
        }
        return summary
    }

    /// What a player derives from a media playlist: its timeline and live window, the dates and
    /// times they convert between, each segment's byte range and the reload delay.
    @discardableResult
    private static func exercise(_ playlist: HLSMediaPlaylist) -> HLSTimeline {
        _ = (playlist.duration, playlist.effectiveHoldBack, playlist.targetDurationTime, playlist.isLive)
        _ = (playlist.isDateAddressable, playlist.segmentDates)
        for segment in playlist.segments {
            _ = (segment.byteRange?.end, segment.map?.byteRange?.end, segment.uri.absoluteString)
        }
        let timeline = HLSTimeline(playlist: playlist)
        exercise(timeline)
        return timeline
    }

    private static func exercise(_ timeline: HLSTimeline) {
        _ = timeline.reloadDelay
        let window = timeline.window
        _ = (window.seekableRange, window.liveEdge, window.startDate, window.endDate, window.segmentCount)
        // Each mapping searches the window, as a seek does once: mapped for every segment, a
        // window of 118,000 segments (an MPD's timeline at a timescale of a billion) took the
        // harness minutes. A sample does: the first, the last and 8 evenly between.
        let stride = max(1, window.segments.count / 8)
        for (position, segment) in window.segments.enumerated()
        where position % stride == 0 || position == window.segments.count - 1 {
            _ = window.date(forTime: segment.start)
            _ = window.date(forTime: segment.end)
            if let date = segment.date {
                _ = window.time(forDate: date)
                _ = window.time(forDate: date.advanced(by: segment.duration))
            }
            _ = timeline.startTime(ofMediaSequence: segment.mediaSequence)
        }
    }

    /// Every way a player picks a variant.
    private static func exercise(_ playlist: HLSMultivariantPlaylist) {
        _ = try? playlist.variant(selecting: .highestBandwidth)
        for (index, variant) in playlist.variants.enumerated() {
            _ = try? playlist.variant(selecting: .index(index))
            _ = try? playlist.variant(selecting: .bandwidth(variant.bandwidth))
            _ = (variant.resolution?.description, variant.averageBandwidth, variant.codecs, variant.uri.absoluteString)
        }
        _ = try? playlist.variant(selecting: .index(playlist.variants.count))
    }
}
