import Foundation

/// A static (VOD) DASH presentation read from its MPD (ISO/IEC 23009-1): each Period's video
/// Representations and the segments of each, listed as a media playlist is, so that one
/// segment engine serves HLS and DASH alike (`HLSEngine`).
///
/// Read: SegmentTemplate with `$Number$` or `$Time$` (with or without a SegmentTimeline),
/// SegmentList (a SegmentURL without `@media`, or an Initialization without `@sourceURL`, is
/// its range of the BaseURL, as ffmpeg's `-single_file` output has it), SegmentBase (one file
/// whose `sidx` lists its subsegments, each then a byte range of the file), `BaseURL` at every
/// level, inheritance of SegmentTemplate from Period and AdaptationSet, several Periods;
/// dynamic (live) MPDs of one Period, whose segments are those available at the instant asked
/// for (`mediaPlaylist(selecting:at:)`), dated from `availabilityStartTime`. Not read yet:
/// dynamic MPDs of several Periods, and SegmentBase in a dynamic MPD; both are refused with a
/// reason.
public struct DASHPresentation: Sendable, Hashable {
    /// One Period's segments of the chosen Representation.
    struct PeriodSegments: Sendable, Hashable {
        let representation: DASHRepresentation
        let segments: [HLSSegment]
        /// Where the Period's media timeline is on the presentation's: Period start less the
        /// presentation time offset. A frame's time is its media time plus this.
        let offset: MediaTime
    }

    /// The MPD's URL.
    public let url: URL
    /// Each Period's video Representations, in document order.
    public let periods: [[DASHRepresentation]]
    /// The presentation's duration (mediaPresentationDuration), when stated.
    public let duration: MediaTime?
    /// For a dynamic (live) MPD, what places it on the wall clock; nil for a static one.
    public let live: Live?

    /// A dynamic MPD's timing attributes (ISO/IEC 23009-1 5.3.1.2).
    public struct Live: Sendable, Hashable {
        /// MPD@availabilityStartTime: the date of presentation time 0.
        public let availabilityStart: ProgramDate
        /// MPD@timeShiftBufferDepth: how far behind now segments stay available; nil when
        /// unbounded, which FrameSeek reads as `defaultWindow`.
        public let timeShiftBufferDepth: MediaTime?
        /// MPD@minimumUpdatePeriod: how often the MPD may change; nil when it will not.
        public let minimumUpdatePeriod: MediaTime?
        /// MPD@suggestedPresentationDelay: how far behind the live point to play; nil for the
        /// HLS rule (three target durations).
        public let suggestedPresentationDelay: MediaTime?

        /// The window listed when the MPD states no timeShiftBufferDepth: a live window is
        /// indexed whole, so an unbounded one would fetch the whole stream.
        public static let defaultWindow = MediaTime(value: 60, timescale: 1)
    }

    /// The most segments a presentation may list: a SegmentTimeline's `r` or a tiny template
    /// duration must not make a hostile MPD expand into unbounded memory.
    public static let segmentLimit = 2_000_000

    /// Reads the document whose root is `root`, fetched from `url`.
    ///
    /// - Throws: `MPDError` naming the element for a root that is not an MPD, a dynamic MPD, a
    ///   Period without video Representations, malformed or out-of-range numbers, and a
    ///   BaseURL that resolves to more than 8 KiB (`URLReference`).
    public init(root: MPDElement, url: URL) throws(MPDError) {
        guard root.name == "MPD" else { throw MPDError(element: root.name, reason: "the root element is not MPD") }
        self.url = url
        live = try Self.live(root)
        duration = try root.attributes["mediaPresentationDuration"].map { text throws(MPDError) in
            try Self.duration(text, at: "MPD@mediaPresentationDuration")
        }
        let base = try Self.resolve(root.child("BaseURL"), against: url, at: "MPD")
        var periods: [[DASHRepresentation]] = []
        var start = MediaTime.zero
        let periodElements = root.children("Period")
        for (position, period) in periodElements.enumerated() {
            let path = "MPD/Period[\(position + 1)]"
            if let text = period.attributes["start"] { start = try Self.duration(text, at: path + "@start") }
            var length = try period.attributes["duration"].map { text throws(MPDError) in
                try Self.duration(text, at: path + "@duration")
            }
            if length == nil, position + 1 < periodElements.count,
                let next = periodElements[position + 1].attributes["start"]
            {
                length = try Self.duration(next, at: "MPD/Period[\(position + 2)]@start") - start
            }
            if length == nil, let duration { length = duration - start }
            let context = DASHRepresentation.Context(
                period: period, position: position, start: start, duration: length,
                base: try Self.resolve(period.child("BaseURL"), against: base, at: path), path: path)
            let representations = try DASHRepresentation.video(in: context)
            guard !representations.isEmpty else { throw MPDError(element: path, reason: "no video Representation") }
            periods.append(representations)
            if let length { start = start + length }
        }
        guard !periods.isEmpty else { throw MPDError(element: "MPD", reason: "no Period") }
        if live != nil, periods.count > 1 {
            throw MPDError(
                element: "MPD", reason: "a dynamic MPD of \(periods.count) Periods is not read yet; one Period is", isUnsupported: true)
        }
        self.periods = periods
    }

    /// The live timing of `root`, nil when it is static.
    private static func live(_ root: MPDElement) throws(MPDError) -> Live? {
        switch root.attributes["type"] ?? "static" {
        case "static": return nil
        case "dynamic": break
        case let other: throw MPDError(element: "MPD@type", reason: "\"\(HLSPlaylistError.excerpt(other))\" is neither static nor dynamic")
        }
        guard let text = root.attributes["availabilityStartTime"] else {
            throw MPDError(element: "MPD", reason: "a dynamic MPD without @availabilityStartTime")
        }
        let start: ProgramDate
        do { start = try ProgramDate(parsing: text) } catch {
            throw MPDError(element: "MPD@availabilityStartTime", reason: error.description)
        }
        func optional(_ name: String) throws(MPDError) -> MediaTime? {
            try root.attributes[name].map { text throws(MPDError) in try duration(text, at: "MPD@" + name) }
        }
        return Live(
            availabilityStart: start, timeShiftBufferDepth: try optional("timeShiftBufferDepth"),
            minimumUpdatePeriod: try optional("minimumUpdatePeriod"),
            suggestedPresentationDelay: try optional("suggestedPresentationDelay"))
    }

    /// The first Period's video Representations as HLS variants, so that `--variant` picks one
    /// as it picks an HLS variant: the URI is the MPD's with `#` and the Representation's id.
    public var variants: HLSMultivariantPlaylist {
        HLSMultivariantPlaylist(
            url: url,
            variants: periods[0].enumerated().map { position, representation in
                HLSVariant(
                    uri: URL(
                        string: "#" + (representation.id.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? ""),
                        relativeTo: url)?.absoluteURL ?? url,
                    bandwidth: representation.bandwidth, averageBandwidth: nil, resolution: representation.resolution,
                    codecs: representation.codecs, line: position + 1)
            })
    }

    /// The segments of the Representation `selection` picks (in the first Period; in later
    /// ones the Representation of the same id, else of the same position), as a media
    /// playlist, and each segment's offset from media time to presentation time.
    ///
    /// A dynamic MPD lists the segments available at `now` (ISO/IEC 23009-1 5.3.9.5.3): those
    /// that have ended by then and end within the time-shift buffer before it, each numbered by
    /// its `$Number$` and dated from `availabilityStartTime`, as a live playlist without
    /// EXT-X-ENDLIST whose hold-back is `suggestedPresentationDelay` when stated. `now` is
    /// ignored for a static MPD.
    ///
    /// - Throws: `MPDError` when a template or list cannot be expanded; `HLSVariantSelectionError`
    ///   is thrown as `MPDError` naming what was asked for.
    ///
    /// A SegmentBase Representation's subsegments come from its `sidx`, which the caller
    /// fetches (`segmentIndexRanges(selecting:)`) and passes in `segmentIndexes`.
    public func mediaPlaylist(
        selecting selection: HLSVariantSelection, at now: ProgramDate = ProgramDate(Date()),
        segmentIndexes: [String: SegmentIndexBox] = [:]
    ) throws(MPDError) -> (playlist: HLSMediaPlaylist, chosen: (position: Int, variant: HLSVariant), offsets: [MediaTime]) {
        let (chosenVariant, chosen) = try representations(selecting: selection)
        let chosen0 = chosen[0]
        var segments: [HLSSegment] = []
        var offsets: [MediaTime] = []
        var longest = MediaTime.zero
        for (index, representation) in chosen.enumerated() {
            let availability = live.map { live in
                let periodDate = live.availabilityStart.advanced(by: representation.periodStart)
                let until = periodDate.interval(to: now)
                return DASHRepresentation.Availability(
                    periodDate: periodDate, from: until - (live.timeShiftBufferDepth ?? Live.defaultWindow), until: until)
            }
            let period = try representation.segments(
                firstSequence: segments.count, discontinuitySequence: index, availability: availability,
                index: segmentIndexes[representation.path])
            guard segments.count + period.segments.count <= Self.segmentLimit else {
                throw MPDError(element: representation.path, reason: "more than \(Self.segmentLimit) segments")
            }
            segments += period.segments
            offsets += [MediaTime](repeating: period.offset, count: period.segments.count)
            longest = period.segments.map(\.duration).reduce(longest) { max($0, $1) }
        }
        guard !segments.isEmpty || live != nil else { throw MPDError(element: chosen0.path, reason: "no segment") }
        let target = Int(clamping: longest.convertScale(1, rounding: .towardPositiveInfinity).value)
        let playlist = HLSMediaPlaylist(
            url: url, version: nil, targetDuration: max(1, target), mediaSequence: segments.first?.mediaSequence ?? 0,
            discontinuitySequence: 0, playlistType: live == nil ? .vod : nil, hasEndList: live == nil,
            holdBack: live?.suggestedPresentationDelay, segments: segments)
        return (playlist, (chosenVariant.line - 1, chosenVariant), offsets)
    }

    /// The `sidx` ranges `mediaPlaylist(selecting:at:segmentIndexes:)` needs for `selection`:
    /// each SegmentBase Representation's path, file and index range, in Period order.
    ///
    /// - Throws: `MPDError` (unsupported) for a SegmentBase in a dynamic MPD, before anything is
    ///   fetched for it.
    public func segmentIndexRanges(
        selecting selection: HLSVariantSelection
    ) throws(MPDError) -> [(path: String, url: URL, range: HLSByteRange)] {
        let ranges = try representations(selecting: selection).each.compactMap { representation in
            representation.segmentBase.map { (path: representation.path, url: representation.base, range: $0.indexRange) }
        }
        if live != nil, let first = ranges.first {
            throw MPDError(element: first.path, reason: "SegmentBase in a dynamic MPD is not read", isUnsupported: true)
        }
        return ranges
    }

    /// The variant `selection` picks and its Representation in each Period: the one with the
    /// same `@id`, else the one at the same position (or the last).
    private func representations(
        selecting selection: HLSVariantSelection
    ) throws(MPDError) -> (variant: HLSVariant, each: [DASHRepresentation]) {
        let chosenVariant: HLSVariant
        do { chosenVariant = try variants.variant(selecting: selection) } catch {
            throw MPDError(element: "MPD/Period[1]", reason: error.description)
        }
        let position = chosenVariant.line - 1
        let chosen = periods[0][position]
        return (
            chosenVariant,
            periods.map { representations in
                representations.first { $0.id == chosen.id } ?? representations[min(position, representations.count - 1)]
            }
        )
    }

    /// The URL of the BaseURL `element` (a child of the element at `path`) resolved against
    /// `base`; `base` when there is no element or it is not a URL.
    ///
    /// - Throws: `MPDError` when the URL is longer than `URLReference.maxResolvedLength`.
    static func resolve(_ element: MPDElement?, against base: URL, at path: String) throws(MPDError) -> URL {
        guard let element else { return base }
        do {
            return try URLReference.resolve(element.text, against: base)
        } catch {
            switch error {
            case .notAURL: return base
            case .tooLong(let length): throw urlTooLong(length, at: path + "/BaseURL")
            }
        }
    }

    /// The error for a URL of `length` bytes at `element`, past `URLReference.maxResolvedLength`.
    static func urlTooLong(_ length: Int, at element: String) -> MPDError {
        MPDError(
            element: element,
            reason: "resolves to a URL of \(length) bytes, more than FrameSeek's limit of \(URLReference.maxResolvedLength) (CloudFront's)")
    }

    /// An ISO 8601 duration as MPDs write them (`PT1H2M3.5S`, `P1DT0.5S`): days, hours,
    /// minutes and decimal seconds, exactly. Years and months have no fixed length and are
    /// refused unless zero.
    static func duration(_ text: String, at path: String) throws(MPDError) -> MediaTime {
        let failure = MPDError(element: path, reason: "\"\(HLSPlaylistError.excerpt(text))\" is not an ISO 8601 duration")
        guard text.hasPrefix("P") else { throw failure }
        var total = MediaTime.zero
        var number = ""
        var inTime = false
        var components = 0
        for character in text.dropFirst() {
            if character == "T" {
                inTime = true
                continue
            }
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard !number.isEmpty, case .success(let value) = HLSDecimal.nonNegative(number) else { throw failure }
            let seconds: Int64
            switch (character, inTime) {
            case ("Y", false), ("M", false):
                guard value == .zero else {
                    throw MPDError(element: path, reason: "\"\(text)\": years and months have no fixed length")
                }
                seconds = 0
            case ("D", false): seconds = 86_400
            case ("H", true): seconds = 3_600
            case ("M", true): seconds = 60
            case ("S", true): seconds = 1
            default: throw failure
            }
            components += 1
            total = total + MediaTime.make(Int128(value.value) * Int128(seconds), timescale: value.timescale, rounded: false)
            number = ""
        }
        guard number.isEmpty, components > 0, total.isNumeric else { throw failure }
        return total
    }
}
