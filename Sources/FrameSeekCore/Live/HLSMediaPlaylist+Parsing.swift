import Foundation

extension HLSMediaPlaylist {
    /// Reads a media playlist (RFC 8216 4.3.2, 4.3.3), resolving URIs against `url`.
    ///
    /// Throws an ``HLSPlaylistError`` naming the line for: a first line that is not `#EXTM3U`,
    /// a missing or non-integer EXT-X-TARGETDURATION, an EXTINF without a URI after it, a URI
    /// without an EXTINF, a duration that is not a non-negative decimal or that rounds above the
    /// target duration, bad attribute lists, byte ranges and dates, a URI that resolves to more
    /// than 8 KiB (`URLReference`), MEDIA-SEQUENCE or DISCONTINUITY-SEQUENCE after the first
    /// segment, and a multivariant playlist. Comments, blank lines and unknown tags are skipped
    /// (RFC 8216 4.1, 6.3.1).
    ///
    /// Numbers too large to keep are ``HLSPlaylistError/Cause/numberOutOfRange(tag:reason:)``:
    /// an integer beyond `Int`, a duration beyond 64-bit ticks, a Media Sequence or
    /// Discontinuity Sequence Number or a byte range's end beyond `Int.max`, a total duration
    /// beyond 64-bit ticks, and a target duration whose hold-back of three does not fit 64 bits.
    public init(parsing text: String, url: URL) throws(HLSPlaylistError) {
        let lines = try HLSLines.read(text)
        let survey = lines.survey()
        if let variant = survey.firstVariant {
            throw variant.error(.wrongKind(expected: "media", found: "multivariant"))
        }
        self = try HLSMediaPlaylist(lines: lines, survey: survey, url: url)
    }

    /// Reads the lines after the header; shared with ``HLSPlaylist/parse(text:url:)``.
    init(lines: HLSLines, survey: HLSLines.Survey, url: URL) throws(HLSPlaylistError) {
        var reader = MediaPlaylistReader(url: url)
        // Sized once: doubling an array of hundreds of thousands of segments would briefly hold
        // the old and the new storage.
        reader.segments.reserveCapacity(survey.uriLines)
        for line in lines.dropFirst() {
            try reader.read(line)
        }
        self = try reader.finish(lines: lines)
    }

    /// The largest EXT-X-TARGETDURATION read: three target durations, the hold-back RFC 8216
    /// 6.3.3 keeps from a live edge, must fit `Int64` seconds.
    static let maxTargetDuration = Int(Int64.max / 3)
}

/// The state of reading a media playlist line by line: tags that apply to the next segment
/// wait in `pending*` until its URI line arrives.
private struct MediaPlaylistReader {
    let url: URL
    var version: Int?
    var targetDuration: Int?
    var mediaSequence = 0
    /// The EXT-X-MEDIA-SEQUENCE line, named when the segments after it count past `Int.max`.
    var mediaSequenceLine: HLSLine?
    var discontinuitySequence = 0
    /// The EXT-X-DISCONTINUITY-SEQUENCE line, named when discontinuities count past `Int.max`.
    var discontinuitySequenceLine: HLSLine?
    var playlistType: HLSPlaylistType?
    var hasEndList = false
    var holdBack: MediaTime?
    var segments: [HLSSegment] = []
    /// The sum of the segments' durations so far, checked to stay a number at each segment so
    /// that every time derived from the playlist is exact.
    var totalDuration = MediaTime.zero

    var pendingExtinf: (duration: MediaTime, title: String?, line: HLSLine)?
    var pendingByteRange: (length: Int, offset: Int?, line: HLSLine)?
    var pendingDate: ProgramDate?
    /// The EXT-X-DISCONTINUITY before the next segment, if any.
    var pendingDiscontinuity: HLSLine?
    var discontinuities = 0
    /// EXT-X-MAP applies to every segment after it until the next MAP (RFC 8216 4.3.2.5).
    var map: HLSMap?
    /// EXT-X-KEY applies to every segment (and MAP) after it until the next KEY (4.3.2.4).
    var key: HLSKey?
    /// EXT-X-GAP before the next segment.
    var pendingGap = false

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

    private mutating func readTag(_ name: Substring, value: Substring?, line: HLSLine) throws(HLSPlaylistError) {
        switch name {
        case "#EXTINF":
            if let previous = pendingExtinf { throw previous.line.error(.extinfWithoutURI) }
            let text = try line.requiredValue(of: "EXTINF")
            // The comma and title are optional in practice (the rollover playlist has none).
            let comma = text.firstIndex(of: ",")
            let durationText = text[..<(comma ?? text.endIndex)].trimmingCharacters(in: .whitespaces)
            let duration: MediaTime
            switch HLSDecimal.nonNegative(durationText) {
            case let .success(value):
                duration = value
            case .failure(.malformed):
                throw line.error(.badDuration(durationText))
            case .failure(.outOfRange):
                throw line.error(
                    .numberOutOfRange(
                        tag: "EXTINF",
                        reason: "duration \(HLSPlaylistError.excerpt(durationText)) s does not fit 64-bit ticks"))
            }
            let title = comma.map { String(text[text.index(after: $0)...]) }.flatMap { $0.isEmpty ? nil : $0 }
            pendingExtinf = (duration, title, line)
        case "#EXT-X-VERSION":
            version = try line.integerValue(of: "EXT-X-VERSION")
        case "#EXT-X-TARGETDURATION":
            let target = try line.integerValue(of: "EXT-X-TARGETDURATION")
            guard target <= HLSMediaPlaylist.maxTargetDuration else {
                throw line.error(
                    .numberOutOfRange(
                        tag: "EXT-X-TARGETDURATION",
                        reason: "\(target) s is above \(HLSMediaPlaylist.maxTargetDuration) s, beyond which "
                            + "the hold-back of three target durations does not fit 64 bits"))
            }
            targetDuration = target
        case "#EXT-X-MEDIA-SEQUENCE":
            guard segments.isEmpty else { throw line.error(.tagAfterFirstSegment("EXT-X-MEDIA-SEQUENCE")) }
            mediaSequence = try line.integerValue(of: "EXT-X-MEDIA-SEQUENCE")
            mediaSequenceLine = line
        case "#EXT-X-DISCONTINUITY-SEQUENCE":
            guard segments.isEmpty else { throw line.error(.tagAfterFirstSegment("EXT-X-DISCONTINUITY-SEQUENCE")) }
            discontinuitySequence = try line.integerValue(of: "EXT-X-DISCONTINUITY-SEQUENCE")
            discontinuitySequenceLine = line
        case "#EXT-X-DISCONTINUITY":
            pendingDiscontinuity = line
        case "#EXT-X-PROGRAM-DATE-TIME":
            let text = try line.requiredValue(of: "EXT-X-PROGRAM-DATE-TIME")
            do {
                pendingDate = try ProgramDate(parsing: String(text))
            } catch {
                throw line.error(.badDate(error))
            }
        case "#EXT-X-BYTERANGE":
            let (length, offset) = try MediaPlaylistReader.byteRange(
                try line.requiredValue(of: "EXT-X-BYTERANGE"), of: "EXT-X-BYTERANGE", line: line)
            pendingByteRange = (length, offset, line)
        case "#EXT-X-MAP":
            try readMap(line)
        case "#EXT-X-KEY":
            try readKey(line)
        case "#EXT-X-GAP":
            pendingGap = true
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
                switch HLSDecimal.nonNegative(text) {
                case let .success(value):
                    holdBack = value
                case .failure(.malformed):
                    throw line.error(
                        .badAttribute(
                            tag: "EXT-X-SERVER-CONTROL", name: "HOLD-BACK",
                            reason: "\"\(text)\" is not a non-negative decimal number"))
                case .failure(.outOfRange):
                    throw line.error(
                        .numberOutOfRange(
                            tag: "EXT-X-SERVER-CONTROL",
                            reason: "HOLD-BACK \(HLSPlaylistError.excerpt(text)) s does not fit 64-bit ticks"))
                }
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
            let (length, offset) = try MediaPlaylistReader.byteRange(Substring(text), of: "EXT-X-MAP", line: line)
            // No earlier map range to continue from, so a range without an offset starts at 0.
            range = try MediaPlaylistReader.range(length: length, offset: offset ?? 0, of: "EXT-X-MAP", line: line)
        }
        map = HLSMap(uri: try line.resolve(uriText, against: url), byteRange: range, key: key)
    }

    private mutating func readKey(_ line: HLSLine) throws(HLSPlaylistError) {
        let attributes = try line.attributes(of: "EXT-X-KEY")
        guard let methodText = attributes["METHOD"] else {
            throw line.error(.badAttribute(tag: "EXT-X-KEY", name: "METHOD", reason: "missing"))
        }
        let method: HLSKey.Method
        switch methodText {
        case "NONE":
            key = nil
            return
        case "AES-128": method = .aes128
        case "SAMPLE-AES", "SAMPLE-AES-CTR": method = .sampleEncryption(methodText)
        default:
            throw line.error(
                .badAttribute(
                    tag: "EXT-X-KEY", name: "METHOD",
                    reason: "\"\(HLSPlaylistError.excerpt(methodText))\" is not NONE, AES-128 or SAMPLE-AES"))
        }
        guard let uriText = attributes["URI"] else {
            throw line.error(.badAttribute(tag: "EXT-X-KEY", name: "URI", reason: "missing"))
        }
        var iv: [UInt8]?
        if let text = attributes["IV"] {
            guard let bytes = HLSKey.parseIV(text) else {
                throw line.error(
                    .badAttribute(
                        tag: "EXT-X-KEY", name: "IV",
                        reason: "\"\(HLSPlaylistError.excerpt(text))\" is not 0x and up to 32 hexadecimal digits"))
            }
            iv = bytes
        }
        key = HLSKey(
            method: method, uri: try line.resolve(uriText, against: url), iv: iv,
            keyFormat: attributes["KEYFORMAT"] ?? "identity")
    }

    /// `n[@o]` (RFC 8216 4.3.2.2), written for `tag`.
    private static func byteRange(
        _ text: Substring, of tag: String, line: HLSLine
    ) throws(HLSPlaylistError) -> (Int, Int?) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, HLSDecimal.integer(parts[0]) != .failure(.malformed) else {
            throw line.error(.badByteRange("\"\(text)\" is not length[@offset] in decimal integers"))
        }
        let length = try line.integer(parts[0], of: tag)
        guard parts.count == 2 else { return (length, nil) }
        guard HLSDecimal.integer(parts[1]) != .failure(.malformed) else {
            throw line.error(.badByteRange("offset \"\(parts[1])\" is not a decimal integer"))
        }
        return (length, try line.integer(parts[1], of: tag))
    }

    /// `length` bytes at `offset`, or an error on `line` when the range ends past `Int.max`:
    /// a range that cannot be addressed would make every later offset wrong.
    private static func range(
        length: Int, offset: Int, of tag: String, line: HLSLine
    ) throws(HLSPlaylistError) -> HLSByteRange {
        guard !offset.addingReportingOverflow(length).overflow else {
            throw line.error(
                .numberOutOfRange(
                    tag: tag, reason: "\(length) bytes at offset \(offset) end past byte \(Int.max)"))
        }
        return HLSByteRange(length: length, offset: offset)
    }

    private mutating func addSegment(uriLine line: HLSLine) throws(HLSPlaylistError) {
        guard let extinf = pendingExtinf else { throw line.error(.uriWithoutExtinf) }
        let uri = try line.resolve(line.text, against: url)
        var range: HLSByteRange?
        if let pending = pendingByteRange {
            if let offset = pending.offset {
                range = try MediaPlaylistReader.range(
                    length: pending.length, offset: offset, of: "EXT-X-BYTERANGE", line: pending.line)
            } else {
                // RFC 8216 4.3.2.2: without an offset, the range continues the previous segment,
                // which must be a sub-range of the same resource.
                guard let previous = segments.last, previous.uri == uri, let previousRange = previous.byteRange else {
                    throw pending.line.error(
                        .badByteRange(
                            "no offset, and the previous segment is not a sub-range of the same resource"))
                }
                range = try MediaPlaylistReader.range(
                    length: pending.length, offset: previousRange.end, of: "EXT-X-BYTERANGE", line: pending.line)
            }
        }
        if pendingDiscontinuity != nil { discontinuities += 1 }
        let sequence = try MediaPlaylistReader.sequenceNumber(
            mediaSequence, plus: segments.count, setBy: ("EXT-X-MEDIA-SEQUENCE", mediaSequenceLine ?? line),
            for: "segment \(segments.count + 1)", at: line)
        let discontinuitySequence = try MediaPlaylistReader.sequenceNumber(
            self.discontinuitySequence, plus: discontinuities,
            setBy: ("EXT-X-DISCONTINUITY-SEQUENCE", discontinuitySequenceLine ?? line),
            for: "discontinuity \(discontinuities)", at: pendingDiscontinuity ?? line)
        let total = totalDuration + extinf.duration
        guard total.isNumeric else {
            throw extinf.line.error(
                .numberOutOfRange(
                    tag: "EXTINF",
                    reason: "the total duration up to this segment does not fit 64-bit ticks"))
        }
        totalDuration = total
        segments.append(
            HLSSegment(
                mediaSequence: sequence, uri: uri, duration: extinf.duration, title: extinf.title,
                byteRange: range, map: map, programDate: pendingDate, discontinuity: pendingDiscontinuity != nil,
                discontinuitySequence: discontinuitySequence, line: line.number, isGap: pendingGap, key: key))
        pendingGap = false
        pendingExtinf = nil
        pendingByteRange = nil
        pendingDate = nil
        pendingDiscontinuity = nil
    }

    /// `first + count`, the number of `item` (on or before `line`) when the tag on `setBy.line`
    /// numbered the first one `first`; an error on that tag's line when it is above `Int.max`,
    /// since the number written there leaves no room for the items after it.
    private static func sequenceNumber(
        _ first: Int, plus count: Int, setBy tag: (name: String, line: HLSLine), for item: String, at line: HLSLine
    ) throws(HLSPlaylistError) -> Int {
        let (number, overflow) = first.addingReportingOverflow(count)
        guard !overflow else {
            throw tag.line.error(
                .numberOutOfRange(
                    tag: tag.name,
                    reason: "\(item) after it (line \(line.number)) would be numbered above \(Int.max)"))
        }
        return number
    }

    /// The playlist read from `lines`, once every line has been read; the durations are checked
    /// against the target here because EXT-X-TARGETDURATION may come after segments.
    func finish(lines: HLSLines) throws(HLSPlaylistError) -> HLSMediaPlaylist {
        if let extinf = pendingExtinf { throw extinf.line.error(.extinfWithoutURI) }
        guard let targetDuration else { throw lines.header.error(.missingTargetDuration) }
        let tooLong = segments.firstIndex { segment in
            segment.duration.convertScale(1, rounding: .roundHalfAwayFromZero).value > Int64(targetDuration)
        }
        if let tooLong {
            // Every EXTINF became a segment (one without a URI is refused above), so the
            // segment's EXTINF is the tooLong-th one; it is looked up again only for this error
            // rather than kept for every segment.
            var extinfs = lines.lazy.filter { $0.kind.tagName == "#EXTINF" }.dropFirst(tooLong).makeIterator()
            let line = extinfs.next() ?? lines.header
            let duration = segments[tooLong].duration
            throw line.error(.segmentLongerThanTarget(duration: duration, targetDuration: targetDuration))
        }
        let playlist = HLSMediaPlaylist(
            url: url, version: version, targetDuration: targetDuration, mediaSequence: mediaSequence,
            discontinuitySequence: discontinuitySequence, playlistType: playlistType, hasEndList: hasEndList,
            holdBack: holdBack, segments: segments)
        try MediaPlaylistReader.checkDates(of: playlist, lines: lines)
        return playlist
    }

    /// Refuses a playlist whose derived dates leave 64-bit ticks: a date far from 1970 plus
    /// durations of finer precision (a 2300 date in milliseconds plus nanosecond EXTINFs) would
    /// otherwise become +infinity and every date seek in the window would silently fail.
    private static func checkDates(of playlist: HLSMediaPlaylist, lines: HLSLines) throws(HLSPlaylistError) {
        guard let dates = playlist.segmentDates else { return }
        let segments = playlist.segments
        let outOfRange = segments.indices.first { index in
            !dates[index].sinceEpoch.isNumeric || !dates[index].advanced(by: segments[index].duration).sinceEpoch.isNumeric
        }
        guard let outOfRange else { return }
        // Segments keep their URI's line number; its text is looked up again only for this error.
        let number = segments[outOfRange].line
        let line = lines.first { $0.number == number } ?? lines.header
        throw line.error(
            .numberOutOfRange(
                tag: "EXT-X-PROGRAM-DATE-TIME",
                reason: "the start or end date of the segment on this line, from the playlist's dates and "
                    + "durations, does not fit 64-bit ticks of their precision"))
    }
}
