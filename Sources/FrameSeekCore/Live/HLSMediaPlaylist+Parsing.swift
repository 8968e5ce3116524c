import Foundation

extension HLSMediaPlaylist {
    /// Reads a media playlist (RFC 8216 4.3.2, 4.3.3), resolving URIs against `url`.
    ///
    /// Throws an ``HLSPlaylistError`` naming the line for: a first line that is not `#EXTM3U`,
    /// a missing or non-integer EXT-X-TARGETDURATION, an EXTINF without a URI after it, a URI
    /// without an EXTINF, a duration that is not a non-negative decimal or that rounds above the
    /// target duration, bad attribute lists, byte ranges and dates, MEDIA-SEQUENCE or
    /// DISCONTINUITY-SEQUENCE after the first segment, and a multivariant playlist. Comments,
    /// blank lines and unknown tags are skipped (RFC 8216 4.1, 6.3.1).
    public init(parsing text: String, url: URL) throws(HLSPlaylistError) {
        let lines = try HLSLine.split(text)
        if let variant = lines.first(where: { $0.kind.tagName == "#EXT-X-STREAM-INF" }) {
            throw variant.error(.wrongKind(expected: "media", found: "multivariant"))
        }
        self = try HLSMediaPlaylist(lines: lines, url: url)
    }

    /// Reads already split lines (the header checked); shared with ``HLSPlaylist/parse(text:url:)``.
    init(lines: [HLSLine], url: URL) throws(HLSPlaylistError) {
        var reader = MediaPlaylistReader(url: url)
        for line in lines.dropFirst() {
            try reader.read(line)
        }
        self = try reader.finish(header: lines[0])
    }
}

extension HLSLine.Kind {
    /// The tag's name, nil for URIs and ignored lines.
    var tagName: String? {
        if case let .tag(name, _) = self { return name }
        return nil
    }
}

/// The state of reading a media playlist line by line: tags that apply to the next segment
/// wait in `pending*` until its URI line arrives.
private struct MediaPlaylistReader {
    let url: URL
    var version: Int?
    var targetDuration: Int?
    var mediaSequence = 0
    var discontinuitySequence = 0
    var playlistType: HLSPlaylistType?
    var hasEndList = false
    var holdBack: MediaTime?
    var segments: [HLSSegment] = []
    /// The EXTINF line of each segment, to name it when its duration breaks the target.
    var extinfLines: [HLSLine] = []

    var pendingExtinf: (duration: MediaTime, title: String?, line: HLSLine)?
    var pendingByteRange: (length: Int, offset: Int?, line: HLSLine)?
    var pendingDate: ProgramDate?
    var pendingDiscontinuity = false
    var discontinuities = 0
    /// EXT-X-MAP applies to every segment after it until the next MAP (RFC 8216 4.3.2.5).
    var map: HLSMap?

    init(url: URL) { self.url = url }

    mutating func read(_ line: HLSLine) throws(HLSPlaylistError) {
        switch line.kind {
        case .ignored:
            return
        case .uri:
            try addSegment(uriLine: line)
        case let .tag(name, value):
            try readTag(name, value: value, line: line)
        }
    }

    private mutating func readTag(_ name: String, value: Substring?, line: HLSLine) throws(HLSPlaylistError) {
        switch name {
        case "#EXTINF":
            if let previous = pendingExtinf { throw previous.line.error(.extinfWithoutURI) }
            let text = try line.requiredValue(of: "EXTINF")
            // The comma and title are optional in practice (the rollover playlist has none).
            let comma = text.firstIndex(of: ",")
            let durationText = text[..<(comma ?? text.endIndex)].trimmingCharacters(in: .whitespaces)
            guard let duration = HLSDecimal.nonNegative(durationText) else {
                throw line.error(.badDuration(durationText))
            }
            let title = comma.map { String(text[text.index(after: $0)...]) }.flatMap { $0.isEmpty ? nil : $0 }
            pendingExtinf = (duration, title, line)
        case "#EXT-X-VERSION":
            version = try line.integerValue(of: "EXT-X-VERSION")
        case "#EXT-X-TARGETDURATION":
            targetDuration = try line.integerValue(of: "EXT-X-TARGETDURATION")
        case "#EXT-X-MEDIA-SEQUENCE":
            guard segments.isEmpty else { throw line.error(.tagAfterFirstSegment("EXT-X-MEDIA-SEQUENCE")) }
            mediaSequence = try line.integerValue(of: "EXT-X-MEDIA-SEQUENCE")
        case "#EXT-X-DISCONTINUITY-SEQUENCE":
            guard segments.isEmpty else { throw line.error(.tagAfterFirstSegment("EXT-X-DISCONTINUITY-SEQUENCE")) }
            discontinuitySequence = try line.integerValue(of: "EXT-X-DISCONTINUITY-SEQUENCE")
        case "#EXT-X-DISCONTINUITY":
            pendingDiscontinuity = true
        case "#EXT-X-PROGRAM-DATE-TIME":
            let text = try line.requiredValue(of: "EXT-X-PROGRAM-DATE-TIME")
            do {
                pendingDate = try ProgramDate(parsing: String(text))
            } catch {
                throw line.error(.badDate(error))
            }
        case "#EXT-X-BYTERANGE":
            let (length, offset) = try MediaPlaylistReader.byteRange(
                try line.requiredValue(of: "EXT-X-BYTERANGE"),
                line: line)
            pendingByteRange = (length, offset, line)
        case "#EXT-X-MAP":
            try readMap(line)
        case "#EXT-X-ENDLIST":
            hasEndList = true
        case "#EXT-X-PLAYLIST-TYPE":
            let text = try line.requiredValue(of: "EXT-X-PLAYLIST-TYPE")
            guard let type = HLSPlaylistType(rawValue: String(text)) else {
                throw line.error(.badPlaylistType(String(text)))
            }
            playlistType = type
        case "#EXT-X-SERVER-CONTROL":
            // PART-HOLD-BACK, CAN-SKIP-UNTIL and the rest concern low-latency delivery, which
            // date seeking does not use; their syntax is still checked with the list.
            let attributes = try line.attributes(of: "EXT-X-SERVER-CONTROL")
            if let text = attributes["HOLD-BACK"] {
                guard let value = HLSDecimal.nonNegative(text) else {
                    throw line.error(
                        .badAttribute(
                            tag: "EXT-X-SERVER-CONTROL", name: "HOLD-BACK",
                            reason: "\"\(text)\" is not a non-negative decimal number"))
                }
                holdBack = value
            }
        default:
            return  // RFC 8216 6.3.1: unknown tags are ignored.
        }
    }

    private mutating func readMap(_ line: HLSLine) throws(HLSPlaylistError) {
        let attributes = try line.attributes(of: "EXT-X-MAP")
        guard let uriText = attributes["URI"] else {
            throw line.error(.badAttribute(tag: "EXT-X-MAP", name: "URI", reason: "missing"))
        }
        var range: HLSByteRange?
        if let text = attributes["BYTERANGE"] {
            let (length, offset) = try MediaPlaylistReader.byteRange(Substring(text), line: line)
            // No earlier map range to continue from, so a range without an offset starts at 0.
            range = HLSByteRange(length: length, offset: offset ?? 0)
        }
        map = HLSMap(uri: try line.resolve(uriText, against: url), byteRange: range)
    }

    /// `n[@o]` (RFC 8216 4.3.2.2).
    private static func byteRange(_ text: Substring, line: HLSLine) throws(HLSPlaylistError) -> (Int, Int?) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, let length = HLSDecimal.integer(parts[0]) else {
            throw line.error(.badByteRange("\"\(text)\" is not length[@offset] in decimal integers"))
        }
        guard parts.count == 2 else { return (length, nil) }
        guard let offset = HLSDecimal.integer(parts[1]) else {
            throw line.error(.badByteRange("offset \"\(parts[1])\" is not a decimal integer"))
        }
        return (length, offset)
    }

    private mutating func addSegment(uriLine line: HLSLine) throws(HLSPlaylistError) {
        guard let extinf = pendingExtinf else { throw line.error(.uriWithoutExtinf) }
        let uri = try line.resolve(line.text, against: url)
        var range: HLSByteRange?
        if let pending = pendingByteRange {
            if let offset = pending.offset {
                range = HLSByteRange(length: pending.length, offset: offset)
            } else {
                // RFC 8216 4.3.2.2: without an offset, the range continues the previous segment,
                // which must be a sub-range of the same resource.
                guard let previous = segments.last, previous.uri == uri, let previousRange = previous.byteRange else {
                    throw pending.line.error(
                        .badByteRange(
                            "no offset, and the previous segment is not a sub-range of the same resource"))
                }
                range = HLSByteRange(length: pending.length, offset: previousRange.end)
            }
        }
        if pendingDiscontinuity { discontinuities += 1 }
        segments.append(
            HLSSegment(
                mediaSequence: mediaSequence + segments.count, uri: uri, duration: extinf.duration, title: extinf.title,
                byteRange: range, map: map, programDate: pendingDate, discontinuity: pendingDiscontinuity,
                discontinuitySequence: discontinuitySequence + discontinuities, line: line.number))
        extinfLines.append(extinf.line)
        pendingExtinf = nil
        pendingByteRange = nil
        pendingDate = nil
        pendingDiscontinuity = false
    }

    func finish(header: HLSLine) throws(HLSPlaylistError) -> HLSMediaPlaylist {
        if let extinf = pendingExtinf { throw extinf.line.error(.extinfWithoutURI) }
        guard let targetDuration else { throw header.error(.missingTargetDuration) }
        for (segment, line) in zip(segments, extinfLines) {
            let rounded = segment.duration.convertScale(1, rounding: .roundHalfAwayFromZero)
            if rounded.value > Int64(targetDuration) {
                throw line.error(.segmentLongerThanTarget(duration: segment.duration, targetDuration: targetDuration))
            }
        }
        return HLSMediaPlaylist(
            url: url, version: version, targetDuration: targetDuration, mediaSequence: mediaSequence,
            discontinuitySequence: discontinuitySequence, playlistType: playlistType, hasEndList: hasEndList,
            holdBack: holdBack, segments: segments)
    }
}
