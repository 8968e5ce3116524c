import Foundation

// The line structure shared by media and multivariant playlists (RFC 8216 4.1): every line is
// a tag (`#EXT...`), a comment (`#` not followed by EXT), a URI or blank.

/// One classified line of a playlist.
struct HLSLine: Sendable {
    /// What the line is.
    enum Kind: Sendable, Equatable {
        /// `#EXTNAME` or `#EXTNAME:value`.
        case tag(name: String, value: Substring?)
        /// A URI (any other non-blank line).
        case uri
        /// A comment or a blank line: nothing to read.
        case ignored
    }

    /// 1-based line number.
    let number: Int
    /// The line without surrounding spaces or its line break.
    let text: String
    let kind: Kind

    /// An error about this line.
    func error(_ cause: HLSPlaylistError.Cause) -> HLSPlaylistError {
        HLSPlaylistError(line: number, text: text, cause: cause)
    }

    /// The lines of `text`, checking the `#EXTM3U` header.
    ///
    /// LF, CRLF and lone CR all end a line; CRLF is one `Character` in Swift, so it must be named
    /// explicitly or a Windows-written playlist would read as a single line. A UTF-8 byte order
    /// mark is dropped: RFC 8216 forbids it, but refusing the file over it helps nobody.
    static func split(_ text: String) throws(HLSPlaylistError) -> [HLSLine] {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        let raw = body.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        let lines = raw.enumerated().map { index, line in
            HLSLine(number: index + 1, text: line.trimmingCharacters(in: .whitespaces))
        }
        guard let first = lines.first, first.text == "#EXTM3U" else {
            throw HLSPlaylistError(line: 1, text: lines.first?.text ?? "", cause: .missingHeader)
        }
        return lines
    }

    private init(number: Int, text: String) {
        self.number = number
        self.text = text
        if text.isEmpty {
            kind = .ignored
        } else if text.hasPrefix("#EXT") {
            // Tag names are case-sensitive (RFC 8216 4.1) and end at the first colon.
            if let colon = text.firstIndex(of: ":") {
                kind = .tag(name: String(text[..<colon]), value: text[text.index(after: colon)...])
            } else {
                kind = .tag(name: text, value: nil)
            }
        } else if text.hasPrefix("#") {
            kind = .ignored
        } else {
            kind = .uri
        }
    }

    /// The tag's value, or an error naming the tag when it has none.
    func requiredValue(of tag: String) throws(HLSPlaylistError) -> Substring {
        guard case let .tag(_, value?) = kind else {
            throw error(.badAttributeList("\(tag) needs a value after the colon"))
        }
        return value
    }

    /// The tag's value as a decimal-integer.
    func integerValue(of tag: String) throws(HLSPlaylistError) -> Int {
        let value = try requiredValue(of: tag)
        guard let number = HLSDecimal.integer(value) else {
            throw error(.notAnInteger(tag: tag, value: String(value)))
        }
        return number
    }

    /// The tag's value as an attribute list.
    func attributes(of tag: String) throws(HLSPlaylistError) -> HLSAttributeList {
        let value = try requiredValue(of: tag)
        do {
            return try HLSAttributeList(parsing: value)
        } catch {
            throw self.error(.badAttributeList(error.reason))
        }
    }

    /// A URI (this line's text or an attribute) resolved against the playlist's URL.
    func resolve(_ reference: String, against base: URL) throws(HLSPlaylistError) -> URL {
        guard !reference.isEmpty, let url = URL(string: reference, relativeTo: base)?.absoluteURL else {
            throw error(.badURI(reference))
        }
        return url
    }
}
