import Foundation

/// A playlist of either kind, as found at a URL whose kind is not known in advance.
public enum HLSPlaylist: Sendable, Hashable {
    /// Segments of one rendition.
    case media(HLSMediaPlaylist)
    /// Variant streams to choose from.
    case multivariant(HLSMultivariantPlaylist)

    /// Reads either kind: a playlist with EXT-X-STREAM-INF is multivariant, any other is a media
    /// playlist. One holding both EXT-X-STREAM-INF and EXTINF is refused (RFC 8216 4.1).
    public static func parse(text: String, url: URL) throws(HLSPlaylistError) -> HLSPlaylist {
        let lines = try HLSLines.read(text)
        let survey = lines.survey()
        guard survey.firstVariant != nil else {
            return .media(try HLSMediaPlaylist(lines: lines, survey: survey, url: url))
        }
        if let segmentLine = survey.firstSegment {
            throw segmentLine.error(.mixedPlaylist)
        }
        return .multivariant(try HLSMultivariantPlaylist(lines: lines, url: url))
    }
}

/// RESOLUTION: the variant's picture size in pixels.
public struct HLSResolution: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// A `width`x`height` resolution.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `1280x720`, as written in playlists.
    public var description: String { "\(width)x\(height)" }
}

/// One EXT-X-STREAM-INF of a multivariant playlist and the media playlist it points to.
public struct HLSVariant: Sendable, Hashable {
    /// The media playlist's URI, resolved against the multivariant playlist's URL.
    public let uri: URL
    /// BANDWIDTH: peak bits per second (required by RFC 8216 4.3.4.2).
    public let bandwidth: Int
    /// AVERAGE-BANDWIDTH, when stated.
    public let averageBandwidth: Int?
    /// RESOLUTION, when stated.
    public let resolution: HLSResolution?
    /// CODECS as written (a comma-separated list of RFC 6381 codec names), when stated.
    public let codecs: String?
    /// 1-based line of the EXT-X-STREAM-INF tag.
    public let line: Int

    /// A variant with every property stated; the parser fills these in.
    public init(
        uri: URL, bandwidth: Int, averageBandwidth: Int?, resolution: HLSResolution?, codecs: String?,
        line: Int
    ) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.resolution = resolution
        self.codecs = codecs
        self.line = line
    }
}

/// Which variant of a multivariant playlist to open.
public enum HLSVariantSelection: Sendable, Hashable {
    /// The largest BANDWIDTH (the first listed among equals): the best quality on offer, which
    /// is what frame-accurate work wants when nothing else is said.
    case highestBandwidth
    /// The variant at this 0-based position in playlist order.
    case index(Int)
    /// The variant whose BANDWIDTH is exactly this (the first listed among equals).
    case bandwidth(Int)
    /// The variant of the largest BANDWIDTH among those whose RESOLUTION is exactly this.
    case resolution(HLSResolution)

    /// Reads `N` (a position), `bandwidth:BPS` or `resolution:WxH`; nil for other text.
    public init?(parsing text: String) {
        if let index = Int(text), index >= 0 {
            self = .index(index)
        } else if text.hasPrefix("bandwidth:"), let bandwidth = Int(text.dropFirst("bandwidth:".count)), bandwidth >= 0 {
            self = .bandwidth(bandwidth)
        } else if text.hasPrefix("resolution:") {
            let parts = text.dropFirst("resolution:".count).split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
                return nil
            }
            self = .resolution(HLSResolution(width: width, height: height))
        } else {
            return nil
        }
    }
}

/// A selection that names no variant of the playlist.
public struct HLSVariantSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was asked for.
    public let selection: HLSVariantSelection
    /// The bandwidths on offer, in playlist order, so the message can list the choices.
    public let availableBandwidths: [Int]

    /// An error for `selection` against variants with `availableBandwidths`.
    public init(selection: HLSVariantSelection, availableBandwidths: [Int]) {
        self.selection = selection
        self.availableBandwidths = availableBandwidths
    }

    /// `no variant at index 5: the playlist has 3 variants (0: 1280000 bit/s, ...)`.
    public var description: String {
        let asked: String
        switch selection {
        case .highestBandwidth: asked = "no variant to choose from"
        case let .index(index): asked = "no variant at index \(index)"
        case let .bandwidth(bandwidth): asked = "no variant with BANDWIDTH \(bandwidth)"
        case let .resolution(resolution): asked = "no variant with RESOLUTION \(resolution)"
        }
        let list = availableBandwidths.enumerated().map { "\($0.offset): \($0.element) bit/s" }
        return "\(asked): the playlist has \(availableBandwidths.count) variants"
            + (list.isEmpty ? "" : " (\(list.joined(separator: ", ")))")
    }
}

/// A multivariant playlist (RFC 8216 4.3.4): the variant streams of one presentation.
///
/// Only EXT-X-STREAM-INF is read: alternative renditions (EXT-X-MEDIA) and I-frame playlists
/// do not change which frames a date or time selects.
public struct HLSMultivariantPlaylist: Sendable, Hashable {
    /// Where the playlist was read from.
    public let url: URL
    /// The variants in playlist order.
    public let variants: [HLSVariant]

    /// A playlist with the given variants.
    public init(url: URL, variants: [HLSVariant]) {
        self.url = url
        self.variants = variants
    }

    /// Reads a multivariant playlist; a media playlist is refused with the line of its first
    /// EXTINF, and so is one without any EXT-X-STREAM-INF.
    public init(parsing text: String, url: URL) throws(HLSPlaylistError) {
        switch try HLSPlaylist.parse(text: text, url: url) {
        case let .multivariant(playlist):
            self = playlist
        case .media:
            let lines = try HLSLines.read(text)
            let culprit = lines.survey().firstSegment ?? lines.header
            throw culprit.error(.wrongKind(expected: "multivariant", found: "media"))
        }
    }

    /// The chosen variant, or an error listing the ones that exist.
    public func variant(
        selecting selection: HLSVariantSelection = .highestBandwidth
    )
        throws(HLSVariantSelectionError) -> HLSVariant
    {
        let found: HLSVariant?
        // max(by:) keeps the last of equals; reduce with > keeps the first listed.
        func highest(_ candidates: [HLSVariant]) -> HLSVariant? {
            candidates.reduce(nil) { best, next in best.map { next.bandwidth > $0.bandwidth ? next : $0 } ?? next }
        }
        switch selection {
        case .highestBandwidth:
            found = highest(variants)
        case let .resolution(resolution):
            found = highest(variants.filter { $0.resolution == resolution })
        case let .index(index):
            found = variants.indices.contains(index) ? variants[index] : nil
        case let .bandwidth(bandwidth):
            found = variants.first { $0.bandwidth == bandwidth }
        }
        guard let found else {
            throw HLSVariantSelectionError(selection: selection, availableBandwidths: variants.map(\.bandwidth))
        }
        return found
    }

    /// Reads lines known to hold EXT-X-STREAM-INF and no EXTINF.
    init(lines: HLSLines, url: URL) throws(HLSPlaylistError) {
        var variants: [HLSVariant] = []
        var pending: (attributes: HLSAttributeList, line: HLSLine)?
        for line in lines.dropFirst() {
            switch line.kind {
            case .ignored:
                continue
            case let .tag(name, _) where name == "#EXT-X-STREAM-INF":
                if let pending { throw pending.line.error(.streamInfWithoutURI) }
                pending = (try line.attributes(of: "EXT-X-STREAM-INF"), line)
            case .tag:
                continue  // EXT-X-MEDIA, I-frame streams, session data: not needed to pick a variant.
            case .uri:
                // A URI with no STREAM-INF before it has nothing to describe it; skip it rather
                // than guess (RFC 8216 4.3.4.2 pairs every variant URI with its tag).
                guard let tag = pending else { continue }
                variants.append(
                    try HLSMultivariantPlaylist.variant(
                        tag.attributes, tagLine: tag.line,
                        uri: line.resolve(line.text, against: url)))
                pending = nil
            }
        }
        if let pending { throw pending.line.error(.streamInfWithoutURI) }
        self.init(url: url, variants: variants)
    }

    private static func variant(
        _ attributes: HLSAttributeList, tagLine line: HLSLine, uri: URL
    )
        throws(HLSPlaylistError) -> HLSVariant
    {
        func integer(_ name: String, in text: String, reason: String) throws(HLSPlaylistError) -> Int {
            switch HLSDecimal.integer(text) {
            case let .success(value):
                return value
            case .failure(.malformed):
                throw line.error(.badAttribute(tag: "EXT-X-STREAM-INF", name: name, reason: reason))
            case .failure(.outOfRange):
                throw line.error(
                    .numberOutOfRange(tag: "EXT-X-STREAM-INF", reason: "\(name) \(HLSDecimal.integerTooLarge(text))"))
            }
        }
        func integer(_ name: String) throws(HLSPlaylistError) -> Int? {
            guard let text = attributes[name] else { return nil }
            return try integer(name, in: text, reason: "\"\(text)\" is not a decimal integer")
        }
        guard let bandwidth = try integer("BANDWIDTH") else {
            throw line.error(
                .badAttribute(
                    tag: "EXT-X-STREAM-INF", name: "BANDWIDTH",
                    reason: "missing (RFC 8216 4.3.4.2 requires it)"))
        }
        var resolution: HLSResolution?
        if let text = attributes["RESOLUTION"] {
            let sides = text.split(separator: "x", omittingEmptySubsequences: false).map(String.init)
            let reason = "\"\(text)\" is not WIDTHxHEIGHT"
            guard sides.count == 2 else {
                throw line.error(.badAttribute(tag: "EXT-X-STREAM-INF", name: "RESOLUTION", reason: reason))
            }
            resolution = HLSResolution(
                width: try integer("RESOLUTION", in: sides[0], reason: reason),
                height: try integer("RESOLUTION", in: sides[1], reason: reason))
        }
        return HLSVariant(
            uri: uri, bandwidth: bandwidth, averageBandwidth: try integer("AVERAGE-BANDWIDTH"),
            resolution: resolution, codecs: attributes["CODECS"], line: line.number)
    }
}
