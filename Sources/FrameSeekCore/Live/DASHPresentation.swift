import Foundation

/// A static (VOD) DASH presentation read from its MPD (ISO/IEC 23009-1): each Period's video
/// Representations and the segments of each, listed as a media playlist is, so that one
/// segment engine serves HLS and DASH alike (`HLSEngine`).
///
/// Read: SegmentTemplate with `$Number$` or `$Time$` (with or without a SegmentTimeline),
/// SegmentList, `BaseURL` at every level, inheritance of SegmentTemplate from Period and
/// AdaptationSet, several Periods. Not read yet: SegmentBase (one file indexed by its `sidx`),
/// and dynamic (live) MPDs; both are refused with a reason.
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

    /// The most segments a presentation may list: a SegmentTimeline's `r` or a tiny template
    /// duration must not make a hostile MPD expand into unbounded memory.
    public static let segmentLimit = 2_000_000

    /// Reads the document whose root is `root`, fetched from `url`.
    ///
    /// - Throws: `MPDError` naming the element for a root that is not an MPD, a dynamic MPD, a
    ///   Period without video Representations, and malformed or out-of-range numbers.
    public init(root: MPDElement, url: URL) throws(MPDError) {
        guard root.name == "MPD" else { throw MPDError(element: root.name, reason: "the root element is not MPD") }
        if root.attributes["type"] == "dynamic" {
            throw MPDError(
                element: "MPD", reason: "type=\"dynamic\" (live) is not read yet; only static MPDs are", isUnsupported: true)
        }
        self.url = url
        duration = try root.attributes["mediaPresentationDuration"].map { text throws(MPDError) in
            try Self.duration(text, at: "MPD@mediaPresentationDuration")
        }
        let base = Self.resolve(root.child("BaseURL"), against: url)
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
                base: Self.resolve(period.child("BaseURL"), against: base), path: path)
            let representations = try DASHRepresentation.video(in: context)
            guard !representations.isEmpty else { throw MPDError(element: path, reason: "no video Representation") }
            periods.append(representations)
            if let length { start = start + length }
        }
        guard !periods.isEmpty else { throw MPDError(element: "MPD", reason: "no Period") }
        self.periods = periods
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
    /// - Throws: `MPDError` when a template or list cannot be expanded; `HLSVariantSelectionError`
    ///   is thrown as `MPDError` naming what was asked for.
    public func mediaPlaylist(
        selecting selection: HLSVariantSelection
    ) throws(MPDError) -> (playlist: HLSMediaPlaylist, chosen: (position: Int, variant: HLSVariant), offsets: [MediaTime]) {
        let chosenVariant: HLSVariant
        do { chosenVariant = try variants.variant(selecting: selection) } catch {
            throw MPDError(element: "MPD/Period[1]", reason: error.description)
        }
        let position = chosenVariant.line - 1
        let chosen = periods[0][position]
        var segments: [HLSSegment] = []
        var offsets: [MediaTime] = []
        var longest = MediaTime.zero
        for (index, representations) in periods.enumerated() {
            let representation =
                representations.first { $0.id == chosen.id } ?? representations[min(position, representations.count - 1)]
            let period = try representation.segments(firstSequence: segments.count, discontinuitySequence: index)
            guard segments.count + period.segments.count <= Self.segmentLimit else {
                throw MPDError(element: representation.path, reason: "more than \(Self.segmentLimit) segments")
            }
            segments += period.segments
            offsets += [MediaTime](repeating: period.offset, count: period.segments.count)
            longest = period.segments.map(\.duration).reduce(longest) { max($0, $1) }
        }
        guard !segments.isEmpty else { throw MPDError(element: chosen.path, reason: "no segment") }
        let target = Int(clamping: longest.convertScale(1, rounding: .towardPositiveInfinity).value)
        let playlist = HLSMediaPlaylist(
            url: url, version: nil, targetDuration: max(1, target), mediaSequence: 0, discontinuitySequence: 0,
            playlistType: .vod, hasEndList: true, holdBack: nil, segments: segments)
        return (playlist, (position, chosenVariant), offsets)
    }

    /// `element`'s URL resolved against `base`; `base` when there is no element.
    static func resolve(_ element: MPDElement?, against base: URL) -> URL {
        guard let element, !element.text.isEmpty, let url = URL(string: element.text, relativeTo: base) else { return base }
        return url.absoluteURL
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
