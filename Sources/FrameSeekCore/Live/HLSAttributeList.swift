// RFC 8216 4.2 attribute lists: `NAME=value,NAME="quoted, with commas",...`.
//
// Commas may appear inside quoted strings, so the list cannot be split on commas; it is read
// left to right instead. Values are kept as text (quoted ones without their quotes) and each tag
// reads the types it needs, because the same syntax carries integers, decimals, resolutions and
// enumerated strings.

/// The attributes of one tag, in order, with quoted values unquoted.
struct HLSAttributeList: Sendable, Hashable {
    /// One attribute; `quoted` tells a quoted-string from an enumerated string of the same text.
    struct Attribute: Sendable, Hashable {
        let name: String
        let value: String
        let quoted: Bool
    }

    /// Why a list is malformed, in words for ``HLSPlaylistError/Cause/badAttributeList(_:)``.
    struct Malformed: Error {
        let reason: String
    }

    let attributes: [Attribute]

    /// Reads `text`, or says what is wrong with it.
    init(parsing text: Substring) throws(Malformed) {
        var result: [Attribute] = []
        // A set, not a search of `result`: a hostile line of millions of names would be quadratic.
        var names: Set<String> = []
        var rest = text[...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else {
                throw Malformed(reason: "\"\(rest)\" has no =")
            }
            let name = String(rest[..<equals])
            // RFC 8216 4.2: names are uppercase letters, digits and '-'.
            guard !name.isEmpty, name.allSatisfy({ ($0.isASCII && $0.isUppercase) || $0.isNumber || $0 == "-" }) else {
                throw Malformed(reason: "attribute name \"\(name)\" is not made of A-Z, 0-9 and -")
            }
            guard names.insert(name).inserted else {
                throw Malformed(reason: "attribute \(name) appears twice (RFC 8216 4.2)")
            }
            rest = rest[rest.index(after: equals)...]
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    throw Malformed(reason: "the quoted value of \(name) is not closed")
                }
                result.append(Attribute(name: name, value: String(body[..<close]), quoted: true))
                rest = body[body.index(after: close)...]
                if !rest.isEmpty && rest.first != "," {
                    throw Malformed(reason: "text after the quoted value of \(name)")
                }
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                let value = String(rest[..<end])
                guard !value.isEmpty else { throw Malformed(reason: "attribute \(name) has an empty value") }
                result.append(Attribute(name: name, value: value, quoted: false))
                rest = rest[end...]
            }
            if rest.first == "," {
                rest = rest.dropFirst()
                guard !rest.isEmpty else { throw Malformed(reason: "the list ends with a comma") }
            }
        }
        attributes = result
    }

    /// The value of `name`, or nil when absent.
    subscript(name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}
