import Foundation

/// One video Representation of a Period, with what its segments are made from: the
/// SegmentTemplate or SegmentList it inherits (Period, then AdaptationSet, then its own), or
/// its SegmentBase, and the BaseURL its URLs resolve against.
public struct DASHRepresentation: Sendable, Hashable {
    /// A SegmentBase (ISO/IEC 23009-1 5.3.9.2): the Representation is the one file at its
    /// BaseURL, whose `sidx` at `indexRange` lists the subsegments (`SegmentIndexBox`).
    struct SegmentBase: Sendable, Hashable {
        /// `@indexRange`: the `sidx` box's bytes.
        let indexRange: HLSByteRange
        /// The Initialization: `@sourceURL` (else the BaseURL) with `@range`; without an
        /// Initialization, the BaseURL's bytes before the index (ftyp and moov).
        let initialization: HLSMap
        /// `@timescale` and `@presentationTimeOffset`.
        let timescale: Int64
        let presentationTimeOffset: Int64
    }

    /// The Period an AdaptationSet is read in.
    struct Context {
        let period: MPDElement
        let position: Int
        let start: MediaTime
        let duration: MediaTime?
        let base: URL
        let path: String
    }

    /// `@id`.
    public let id: String
    /// `@bandwidth` in bits per second.
    public let bandwidth: Int
    /// `@width` x `@height`, when both are stated.
    public let resolution: HLSResolution?
    /// `@codecs`, from the Representation or its AdaptationSet.
    public let codecs: String?
    /// The element's path in the document, for messages.
    let path: String
    /// The SegmentTemplate's attributes (those in `templateAttributes`), the most specific level's winning.
    let template: [String: String]
    /// The SegmentTimeline of the most specific SegmentTemplate that has one.
    let timeline: MPDElement?
    /// The SegmentList, when the Representation (or its AdaptationSet) has one.
    let list: MPDElement?
    /// The SegmentBase, when the Representation is one file indexed by its `sidx`.
    let segmentBase: SegmentBase?
    /// The URL the Representation's URLs resolve against.
    let base: URL
    /// The Period's start and duration on the presentation's timeline.
    let periodStart: MediaTime
    let periodDuration: MediaTime?

    /// The SegmentTemplate attributes `segments` reads. Only these are merged into each
    /// Representation's `template`, so that a template's other attributes, however many, are not
    /// copied once per Representation.
    private static let templateAttributes = ["timescale", "presentationTimeOffset", "startNumber", "duration", "media", "initialization"]

    /// The video Representations of `context`'s Period, in document order.
    static func video(in context: Context) throws(MPDError) -> [DASHRepresentation] {
        var found: [DASHRepresentation] = []
        // Looked up once: each lookup scans the parent's children, which may be a hostile MPD's
        // hundreds of thousands of Representations.
        let periodTemplate = context.period.child("SegmentTemplate")
        let periodTimeline = periodTemplate?.child("SegmentTimeline")
        let periodSegmentBase = context.period.child("SegmentBase")
        for (setPosition, set) in context.period.children("AdaptationSet").enumerated() {
            let setPath = "\(context.path)/AdaptationSet[\(setPosition + 1)]"
            let setBase = try DASHPresentation.resolve(set.child("BaseURL"), against: context.base, at: setPath)
            let setTemplate = set.child("SegmentTemplate")
            let setTimeline = setTemplate?.child("SegmentTimeline")
            let setList = set.child("SegmentList")
            let setSegmentBase = set.child("SegmentBase")
            for (position, representation) in set.children("Representation").enumerated() {
                let path = "\(setPath)/Representation[\(position + 1)]"
                let mime = representation.attributes["mimeType"] ?? set.attributes["mimeType"] ?? ""
                let type = set.attributes["contentType"] ?? (mime.split(separator: "/").first.map(String.init) ?? "")
                guard type == "video" else { continue }
                guard let id = representation.attributes["id"] else {
                    throw MPDError(element: path, reason: "no @id")
                }
                guard let bandwidthText = representation.attributes["bandwidth"], let bandwidth = Int(bandwidthText),
                    bandwidth >= 0
                else {
                    throw MPDError(element: path, reason: "no @bandwidth that is a whole number")
                }
                let width = (representation.attributes["width"] ?? set.attributes["width"]).flatMap { Int($0) }
                let height = (representation.attributes["height"] ?? set.attributes["height"]).flatMap { Int($0) }
                let ownTemplate = representation.child("SegmentTemplate")
                let templates = [periodTemplate, setTemplate, ownTemplate].compactMap { $0 }
                let list = representation.child("SegmentList") ?? setList
                let base = try DASHPresentation.resolve(representation.child("BaseURL"), against: setBase, at: path)
                var segmentBase: SegmentBase?
                if templates.isEmpty, list == nil {
                    guard let element = representation.child("SegmentBase") ?? setSegmentBase ?? periodSegmentBase else {
                        throw MPDError(element: path, reason: "no SegmentTemplate, SegmentList or SegmentBase says where its media is")
                    }
                    segmentBase = try Self.segmentBase(element, base: base, at: path + "/SegmentBase")
                }
                found.append(
                    DASHRepresentation(
                        id: id, bandwidth: bandwidth,
                        resolution: width.flatMap { w in height.map { HLSResolution(width: w, height: $0) } },
                        codecs: representation.attributes["codecs"] ?? set.attributes["codecs"], path: path,
                        template: templates.reduce(into: [:]) { merged, element in
                            for name in templateAttributes { element.attributes[name].map { merged[name] = $0 } }
                        },
                        timeline: ownTemplate?.child("SegmentTimeline") ?? setTimeline ?? periodTimeline,
                        list: list, segmentBase: segmentBase,
                        base: base,
                        periodStart: context.start, periodDuration: context.duration))
            }
        }
        return found
    }

    /// `element`'s SegmentBase, of the file at `base`: `@indexRange` is required (FrameSeek does
    /// not search the file for its index).
    private static func segmentBase(_ element: MPDElement, base: URL, at path: String) throws(MPDError) -> SegmentBase {
        func number(_ text: String?, _ attribute: String, default value: Int64, in range: ClosedRange<Int64>) throws(MPDError) -> Int64 {
            guard let text else { return value }
            guard let number = Int64(text), range.contains(number) else {
                throw MPDError(
                    element: "\(path)@\(attribute)", reason: "\"\(HLSPlaylistError.excerpt(text))\" is not a whole number in \(range)")
            }
            return number
        }
        guard let index = element.attributes["indexRange"] else {
            throw MPDError(element: path, reason: "SegmentBase without @indexRange (where its sidx is)", isUnsupported: true)
        }
        let indexRange = try byteRange(index, at: path + "@indexRange")
        let initialization = try element.child("Initialization").map { initialization throws(MPDError) in
            let (url, range) = try reference(
                initialization, url: "sourceURL", range: "range", base: base, at: path + "/Initialization")
            return HLSMap(uri: url, byteRange: range)
        }
        guard initialization != nil || indexRange.offset > 0 else {
            throw MPDError(element: path, reason: "no Initialization@range, and no bytes before the index to initialize from")
        }
        return SegmentBase(
            indexRange: indexRange,
            initialization: initialization ?? HLSMap(uri: base, byteRange: HLSByteRange(length: indexRange.offset, offset: 0)),
            timescale: try number(element.attributes["timescale"], "timescale", default: 1, in: 1...Int64(Int32.max)),
            presentationTimeOffset: try number(
                element.attributes["presentationTimeOffset"], "presentationTimeOffset", default: 0, in: 0...Int64.max))
    }

    /// What a dynamic MPD's Period makes available at one instant (ISO/IEC 23009-1 5.3.9.5.3):
    /// the segments whose end lies in `from ... until`, in presentation time from the Period's
    /// start, each dated from `availabilityStart`.
    struct Availability {
        /// MPD@availabilityStartTime plus the Period's start: the date of the Period's time 0.
        let periodDate: ProgramDate
        /// The earliest end a segment may have: now less MPD@timeShiftBufferDepth.
        let from: MediaTime
        /// Now: a segment is available once it has ended.
        let until: MediaTime
    }

    /// The Period's segments of this Representation as media playlist segments, numbered from
    /// `firstSequence`, each with the initialization section as its map; the first is a
    /// discontinuity when the Period is not the first. The offset maps the segments' media
    /// time onto the presentation's timeline.
    ///
    /// With `availability` (a dynamic MPD), only the segments available then are listed, each
    /// numbered by its own `$Number$` (stable across reloads, as a Media Sequence Number must
    /// be) and dated.
    func segments(
        firstSequence: Int, discontinuitySequence: Int, availability: Availability? = nil, index: SegmentIndexBox? = nil
    ) throws(MPDError) -> (segments: [HLSSegment], offset: MediaTime) {
        if let segmentBase {
            return try subsegments(
                of: segmentBase, index: index, firstSequence: firstSequence, discontinuitySequence: discontinuitySequence,
                isLive: availability != nil)
        }
        let source = list?.attributes ?? template
        let timescale = try integer(source["timescale"] ?? "1", "timescale", in: 1...Int64(Int32.max))
        let presentationOffset = try integer(source["presentationTimeOffset"] ?? "0", "presentationTimeOffset")
        let offset = periodStart - MediaTime(value: presentationOffset, timescale: Int32(timescale))
        // (media time, duration, number) of each segment, in the template's timescale.
        var times: [(start: Int64, duration: Int64, number: Int64)] = []
        let firstNumber = try integer(source["startNumber"] ?? "1", "startNumber")
        var end: Int64?
        if let periodDuration {
            let ticks = periodDuration.convertScale(Int32(timescale), rounding: .towardPositiveInfinity)
            guard ticks.isNumeric else { throw MPDError(element: path, reason: "the Period's duration does not fit 64-bit ticks") }
            end = try sum(presentationOffset, ticks.value)
        }
        // A live Period ends, for now, at now; segments end no earlier than `from`.
        var availableFrom: Int64?
        if let availability {
            func ticks(_ time: MediaTime) throws(MPDError) -> Int64 {
                let value = time.convertScale(Int32(timescale), rounding: .towardNegativeInfinity)
                guard value.isNumeric else { throw MPDError(element: path, reason: "the live window does not fit 64-bit ticks") }
                return try sum(presentationOffset, value.value)
            }
            let until = try ticks(availability.until)
            end = end.map { min($0, until) } ?? until
            availableFrom = try ticks(availability.from)
        }
        if let timeline = list?.child("SegmentTimeline") ?? timeline {
            let entries = timeline.children("S")
            func startTime(_ position: Int) throws(MPDError) -> Int64? {
                try entries[position].attributes["t"].map { text throws(MPDError) in try integer(text, "S[\(position + 1)]@t") }
            }
            var next = presentationOffset
            var previousStart: Int64?
            for (position, s) in entries.enumerated() {
                let start = try startTime(position) ?? next
                // Segments are placed on a live window by their times, which must not go back
                // (ISO/IEC 23009-1 5.3.9.6); an overlap, which encoders' rounding makes, is kept.
                if let previousStart, start < previousStart {
                    throw MPDError(
                        element: "\(path)@S[\(position + 1)]@t",
                        reason: "\(start) is before the previous segment's start \(previousStart): time goes back")
                }
                let duration = try integer(s.attributes["d"] ?? "", "S[\(position + 1)]@d", in: 1...Int64.max)
                var repeats = try integer(s.attributes["r"] ?? "0", "S[\(position + 1)]@r", in: -1...Int64(DASHPresentation.segmentLimit))
                if repeats < 0 {
                    // Until the next S's t, or the Period's end.
                    let until = try (position + 1 < entries.count ? startTime(position + 1) : nil) ?? end
                    guard let until else { throw MPDError(element: path, reason: "S@r=-1 with no end to repeat to") }
                    let span = try sum(until, -start)
                    repeats = max(0, span / duration + (span % duration == 0 ? 0 : 1) - 1)
                    guard repeats < Int64(DASHPresentation.segmentLimit) else {
                        throw MPDError(element: path, reason: "more than \(DASHPresentation.segmentLimit) segments")
                    }
                }
                var time = start
                for _ in 0...repeats {
                    guard times.count < DASHPresentation.segmentLimit else {
                        throw MPDError(element: path, reason: "more than \(DASHPresentation.segmentLimit) segments")
                    }
                    times.append((time, duration, try sum(firstNumber, Int64(times.count))))
                    previousStart = time
                    let (after, overflow) = time.addingReportingOverflow(duration)
                    guard !overflow else { throw MPDError(element: path, reason: "segment times past 2^63") }
                    time = after
                }
                next = time
            }
        } else if let durationText = source["duration"] {
            let duration = try integer(durationText, "duration", in: 1...Int64.max)
            if let list {
                for _ in list.children("SegmentURL") {
                    let (span, overflow) = Int64(times.count).multipliedReportingOverflow(by: duration)
                    guard !overflow else { throw MPDError(element: path, reason: "segment times past 2^63") }
                    times.append((try sum(presentationOffset, span), duration, try sum(firstNumber, Int64(times.count))))
                }
            } else {
                guard let end else { throw MPDError(element: path, reason: "a SegmentTemplate@duration needs the Period's duration") }
                // end - presentationOffset is the Period's duration in ticks (or now's distance
                // from its start): no overflow. A live Period lists only its complete segments,
                // from the one that ends after the window's start.
                let span = max(0, end - presentationOffset)
                let count = availability == nil ? span / duration + (span % duration == 0 ? 0 : 1) : span / duration
                let first = availableFrom.map { max(0, ($0 - presentationOffset) / duration) } ?? 0
                guard count - first <= Int64(DASHPresentation.segmentLimit) else {
                    throw MPDError(element: path, reason: "more than \(DASHPresentation.segmentLimit) segments")
                }
                for k in first..<max(first, count) {
                    // k * duration < span + duration, and span fits: the sum may not.
                    let start = try sum(presentationOffset, k * duration)
                    times.append((start, min(duration, end - start), try sum(firstNumber, k)))
                }
            }
        } else {
            throw MPDError(element: path, reason: "neither a SegmentTimeline nor @duration says where segments are")
        }
        let initialization = try self.initialization()
        var segments: [HLSSegment] = []
        let urls = list?.children("SegmentURL") ?? []
        for (index, time) in times.enumerated() {
            // A live segment is listed once it has ended, while it ends inside the window.
            if availability != nil {
                let (segmentEnd, overflow) = time.start.addingReportingOverflow(time.duration)
                guard !overflow, segmentEnd <= end ?? .max, segmentEnd > availableFrom ?? .min else { continue }
            }
            var uri: URL
            var range: HLSByteRange?
            if list != nil {
                guard urls.indices.contains(index) else { break }
                (uri, range) = try Self.reference(
                    urls[index], url: "media", range: "mediaRange", base: base, at: "\(path) SegmentURL[\(index + 1)]")
            } else {
                guard let media = template["media"] else { throw MPDError(element: path, reason: "SegmentTemplate without @media") }
                uri = try resolve(try substitute(media, number: time.number, time: time.start), "SegmentTemplate@media")
            }
            // Both are non-negative whole numbers: their difference fits.
            let date = availability?.periodDate.advanced(
                by: MediaTime(value: time.start - presentationOffset, timescale: Int32(timescale)))
            segments.append(
                HLSSegment(
                    mediaSequence: availability == nil ? firstSequence + index : Int(time.number), uri: uri,
                    duration: MediaTime(value: time.duration, timescale: Int32(timescale)), title: nil, byteRange: range,
                    map: initialization, programDate: date, discontinuity: index == 0 && discontinuitySequence > 0,
                    discontinuitySequence: discontinuitySequence, line: 0))
        }
        return (segments, offset)
    }

    /// A SegmentBase's subsegments, from its `sidx` (`index`, fetched by the caller from
    /// `segmentBase.indexRange`), each a byte range of the BaseURL with the initialization
    /// range as its map.
    private func subsegments(
        of segmentBase: SegmentBase, index: SegmentIndexBox?, firstSequence: Int, discontinuitySequence: Int, isLive: Bool
    ) throws(MPDError) -> (segments: [HLSSegment], offset: MediaTime) {
        guard !isLive else {
            throw MPDError(element: path, reason: "SegmentBase in a dynamic MPD is not read", isUnsupported: true)
        }
        guard let index, index.timescale <= Int64(Int32.max) else {
            throw MPDError(element: path, reason: "SegmentBase without its sidx read, or with a timescale past 2^31")
        }
        guard index.references.count <= DASHPresentation.segmentLimit else {
            throw MPDError(element: path, reason: "more than \(DASHPresentation.segmentLimit) segments")
        }
        let map = segmentBase.initialization
        let segments = index.references.enumerated().map { position, reference in
            HLSSegment(
                mediaSequence: firstSequence + position, uri: base,
                duration: MediaTime(value: reference.duration, timescale: Int32(index.timescale)), title: nil,
                byteRange: reference.byteRange, map: map, programDate: nil,
                discontinuity: position == 0 && discontinuitySequence > 0, discontinuitySequence: discontinuitySequence, line: 0)
        }
        let offset = periodStart - MediaTime(value: segmentBase.presentationTimeOffset, timescale: Int32(segmentBase.timescale))
        return (segments, offset)
    }

    /// The initialization section: SegmentList's Initialization (`@sourceURL`, else the
    /// BaseURL, with `@range`), or the template's `@initialization`; nil when there is none
    /// (self-initializing segments).
    private func initialization() throws(MPDError) -> HLSMap? {
        if let element = list?.child("Initialization") {
            let (url, range) = try Self.reference(element, url: "sourceURL", range: "range", base: base, at: "\(path) Initialization")
            return HLSMap(uri: url, byteRange: range)
        }
        guard let text = template["initialization"] else { return nil }
        return HLSMap(uri: try resolve(try substitute(text, number: nil, time: nil), "SegmentTemplate@initialization"), byteRange: nil)
    }

    /// A template with its identifiers filled in (ISO/IEC 23009-1 5.3.9.4.4): `$RepresentationID$`,
    /// `$Bandwidth$`, `$Number$` and `$Time$`, each with an optional `%0Nd` width, and `$$`.
    func substitute(_ template: String, number: Int64?, time: Int64?) throws(MPDError) -> String {
        let parts = template.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count % 2 == 1 else { throw MPDError(element: path, reason: "template \"\(template)\" has an unpaired $") }
        var result = ""
        for (index, part) in parts.enumerated() {
            if index % 2 == 0 {
                result += part
                continue
            }
            if part.isEmpty {
                result += "$"
                continue
            }
            let pieces = part.split(separator: "%", maxSplits: 1)
            let value: String
            switch pieces[0] {
            case "RepresentationID": value = id
            case "Bandwidth": value = String(bandwidth)
            case "Number":
                guard let number else { throw MPDError(element: path, reason: "$Number$ where no segment is meant") }
                value = String(number)
            case "Time":
                guard let time else { throw MPDError(element: path, reason: "$Time$ where no segment is meant") }
                value = String(time)
            default: throw MPDError(element: path, reason: "unknown template identifier $\(part)$")
            }
            var width = 0
            if pieces.count == 2 {
                let format = pieces[1]
                guard format.hasPrefix("0"), format.hasSuffix("d"), let digits = Int(format.dropFirst().dropLast()),
                    (1...64).contains(digits)
                else { throw MPDError(element: path, reason: "format \"%\(format)\" is not %0Nd") }
                width = digits
            }
            result += String(repeating: "0", count: max(0, width - value.count)) + value
        }
        return result
    }

    /// What an element that names a resource by a URL attribute and a byte-range attribute
    /// names (ISO/IEC 23009-1 5.3.9.2.2 URLType: an Initialization's `@sourceURL` and `@range`;
    /// 5.3.9.3.2: a SegmentURL's `@media` and `@mediaRange`): the URL resolved against `base`
    /// with the range, if any. Without the URL attribute the resource is `base` itself, the
    /// Representation's BaseURL, and the range must then say which of its bytes (ffmpeg's DASH
    /// muxer writes a single file so). A URL attribute present but empty, or not a URL, is
    /// refused, as is a range that is not `first-last`.
    private static func reference(
        _ element: MPDElement, url urlAttribute: String, range rangeAttribute: String, base: URL, at path: String
    ) throws(MPDError) -> (url: URL, range: HLSByteRange?) {
        let url = try element.attributes[urlAttribute].map { text throws(MPDError) in
            try resolve(text, against: base, at: "\(path)@\(urlAttribute)")
        }
        let range = try element.attributes[rangeAttribute].map { text throws(MPDError) in
            try byteRange(text, at: "\(path)@\(rangeAttribute)")
        }
        guard let url else {
            guard let range else {
                throw MPDError(
                    element: path, reason: "no @\(urlAttribute), so @\(rangeAttribute) must say which bytes of the BaseURL it is")
            }
            return (base, range)
        }
        return (url, range)
    }

    private func resolve(_ text: String, _ attribute: String) throws(MPDError) -> URL {
        try Self.resolve(text, against: base, at: "\(path) \(attribute)")
    }

    /// `text` resolved against `base`; an error naming `element` when it is empty, not a URL, or
    /// resolves past `URLReference.maxResolvedLength`.
    private static func resolve(_ text: String, against base: URL, at element: String) throws(MPDError) -> URL {
        do {
            return try URLReference.resolve(text, against: base)
        } catch {
            switch error {
            case .notAURL: throw MPDError(element: element, reason: "\"\(HLSPlaylistError.excerpt(text))\" is not a URL")
            case .tooLong(let length): throw DASHPresentation.urlTooLong(length, at: element)
            }
        }
    }

    /// `first-last` (inclusive, as HTTP writes ranges).
    private static func byteRange(_ text: String, at path: String) throws(MPDError) -> HLSByteRange {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), let last = Int(parts[1]), first >= 0, last >= first,
            last < Int.max
        else { throw MPDError(element: path, reason: "range \"\(HLSPlaylistError.excerpt(text))\" is not first-last") }
        return HLSByteRange(length: last - first + 1, offset: first)
    }

    /// `a + b`, or an error naming the Representation when it overflows: MPD numbers are input.
    private func sum(_ a: Int64, _ b: Int64) throws(MPDError) -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw MPDError(element: path, reason: "a segment time or number past 2^63") }
        return result
    }

    private func integer(_ text: String, _ attribute: String, in range: ClosedRange<Int64> = 0...Int64.max) throws(MPDError) -> Int64 {
        guard let value = Int64(text), range.contains(value) else {
            throw MPDError(
                element: "\(path)@\(attribute)", reason: "\"\(HLSPlaylistError.excerpt(text))\" is not a whole number in \(range)")
        }
        return value
    }
}
