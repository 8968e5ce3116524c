import Foundation

// The line structure shared by media and multivariant playlists (RFC 8216 4.1): every line is
// a tag (`#EXT...`), a comment (`#` not followed by EXT), a URI or blank.
//
// A playlist fetched from a server can be hundreds of megabytes, so lines are slices of the
// text, read one at a time: parsing holds the text and the parsed result, never a copy of every
// line.

/// One classified line of a playlist: a slice of the playlist's text.
struct HLSLine: Sendable {
    /// What the line is.
    enum Kind: Sendable, Equatable {
        /// `#EXTNAME` or `#EXTNAME:value`.
        case tag(name: Substring, value: Substring?)
        /// A URI (any other non-blank line).
        case uri
        /// A comment or a blank line: nothing to read.
        case ignored
    }

    /// 1-based line number.
    let number: Int
    /// The line without surrounding spaces or its line break.
    let text: Substring

    /// What the line is, worked out when asked so that a kept line costs only its slice.
    var kind: Kind {
        if text.isEmpty { return .ignored }
        if text.hasPrefix("#EXT") {
            // Tag names are case-sensitive (RFC 8216 4.1) and end at the first colon.
            guard let colon = text.firstIndex(of: ":") else { return .tag(name: text, value: nil) }
            return .tag(name: text[..<colon], value: text[text.index(after: colon)...])
        }
        return text.hasPrefix("#") ? .ignored : .uri
    }

    /// An error about this line.
    func error(_ cause: HLSPlaylistError.Cause) -> HLSPlaylistError {
        HLSPlaylistError(line: number, text: String(text), cause: cause)
    }

    /// The tag's value, or an error naming the tag when it has none.
    func requiredValue(of tag: String) throws(HLSPlaylistError) -> Substring {
        guard case let .tag(_, value?) = kind else {
            throw error(.badAttributeList("\(tag) needs a value after the colon"))
        }
        return value
    }

    /// The tag's value as a decimal-integer that fits `Int`.
    func integerValue(of tag: String) throws(HLSPlaylistError) -> Int {
        try integer(try requiredValue(of: tag), of: tag)
    }

    /// `text`, a decimal-integer written on this line for `tag`, as an `Int`; a number too large
    /// for it is ``HLSPlaylistError/Cause/numberOutOfRange(tag:reason:)``, not a syntax error.
    func integer(_ text: Substring, of tag: String) throws(HLSPlaylistError) -> Int {
        switch HLSDecimal.integer(text) {
        case let .success(number):
            return number
        case .failure(.malformed):
            throw error(.notAnInteger(tag: tag, value: String(text)))
        case .failure(.outOfRange):
            throw error(.numberOutOfRange(tag: tag, reason: HLSDecimal.integerTooLarge(text)))
        }
    }

    /// The tag's value as an attribute list.
    func attributes(of tag: String) throws(HLSPlaylistError) -> HLSAttributeList {
        let value = try requiredValue(of: tag)
        do {
            return try HLSAttributeList(parsing: value)
        } catch {
            // The reason quotes the list, which may be megabytes long.
            throw self.error(.badAttributeList(HLSPlaylistError.excerpt(error.reason, limit: 200)))
        }
    }

    /// A URI (this line's text or an attribute) resolved against the playlist's URL.
    func resolve<S: StringProtocol>(_ reference: S, against base: URL) throws(HLSPlaylistError) -> URL {
        let reference = String(reference)
        do {
            return try URLReference.resolve(reference, against: base)
        } catch {
            switch error {
            case .notAURL: throw self.error(.badURI(reference))
            case .tooLong(let length): throw self.error(.uriTooLong(length: length, limit: URLReference.maxResolvedLength))
            }
        }
    }
}

/// The lines of a playlist's text, read lazily; made by ``read(_:)``, which checks the header.
///
/// LF, CRLF and lone CR all end a line, so a Windows-written playlist does not read as a single
/// line. A UTF-8 byte order mark is dropped: RFC 8216 forbids it, but refusing the file over it
/// helps nobody. Text that ends with a line break has an empty last line, as the line numbers
/// of an editor count it.
struct HLSLines: Sequence, Sendable {
    /// The first line, `#EXTM3U`.
    let header: HLSLine
    /// The text after the byte order mark, if any.
    private let body: Substring

    /// The lines of `text`, or an error when the first is not `#EXTM3U`.
    static func read(_ text: String) throws(HLSPlaylistError) -> HLSLines {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        var lines = Iterator(body: body)
        let first = lines.next() ?? HLSLine(number: 1, text: "")
        guard first.text == "#EXTM3U" else { throw first.error(.missingHeader) }
        return HLSLines(header: first, body: body)
    }

    private init(header: HLSLine, body: Substring) {
        self.header = header
        self.body = body
    }

    /// Every line, the header first.
    func makeIterator() -> Iterator { Iterator(body: body) }

    /// What a first pass over the lines tells before they are read for good.
    struct Survey {
        /// The first EXT-X-STREAM-INF: the playlist is multivariant.
        var firstVariant: HLSLine?
        /// The first EXTINF: the playlist has segments.
        var firstSegment: HLSLine?
        /// How many URI lines there are: at most the number of segments or variants.
        var uriLines = 0
    }

    /// Reads every line once, keeping none of them but the two first tags that decide the
    /// playlist's kind.
    func survey() -> Survey {
        var survey = Survey()
        for line in self {
            switch line.kind {
            case .uri: survey.uriLines += 1
            case .tag(name: "#EXT-X-STREAM-INF", _) where survey.firstVariant == nil: survey.firstVariant = line
            case .tag(name: "#EXTINF", _) where survey.firstSegment == nil: survey.firstSegment = line
            case .tag, .ignored: continue
            }
        }
        return survey
    }

    /// Yields one line at a time, finding each line break by scanning UTF-8 bytes: line breaks
    /// are ASCII, so the slices between them fall on character boundaries.
    struct Iterator: IteratorProtocol {
        private let body: Substring
        /// Where the next line starts; nil after the last line.
        private var start: Substring.Index?
        private var number = 0

        init(body: Substring) {
            self.body = body
            self.start = body.startIndex
        }

        mutating func next() -> HLSLine? {
            guard let lineStart = start else { return nil }
            let bytes = body.utf8
            let isBreak = { (byte: UInt8) in byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
            let lineEnd = bytes[lineStart...].firstIndex(where: isBreak)
            if let lineEnd {
                let afterBreak = bytes.index(after: lineEnd)
                let isCRLF =
                    bytes[lineEnd] == UInt8(ascii: "\r") && afterBreak < bytes.endIndex
                    && bytes[afterBreak] == UInt8(ascii: "\n")
                start = isCRLF ? bytes.index(after: afterBreak) : afterBreak
            } else {
                start = nil
            }
            number += 1
            return HLSLine(number: number, text: Self.trimmed(body[lineStart..<(lineEnd ?? body.endIndex)]))
        }

        /// `line` without leading and trailing white space (`CharacterSet.whitespaces`: spaces,
        /// tabs and the Unicode space separators).
        private static func trimmed(_ line: Substring) -> Substring {
            // Most lines start and end in ASCII other than space and tab, the only ASCII members
            // of the set: nothing to trim, and no set lookup per line.
            let isKept = { (byte: UInt8?) in byte.map { $0 < 0x80 && $0 != 0x20 && $0 != 0x09 } ?? false }
            if isKept(line.utf8.first) && isKept(line.utf8.last) { return line }
            let scalars = line.unicodeScalars
            let isSpace = { (scalar: Unicode.Scalar) in CharacterSet.whitespaces.contains(scalar) }
            guard let first = scalars.firstIndex(where: { !isSpace($0) }),
                let last = scalars.lastIndex(where: { !isSpace($0) })
            else { return line[line.endIndex...] }
            if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return line }
            return Substring(scalars[first...last])
        }
    }
}

extension HLSLine.Kind {
    /// The tag's name, nil for URIs and ignored lines.
    var tagName: Substring? {
        if case let .tag(name, _) = self { return name }
        return nil
    }
}
