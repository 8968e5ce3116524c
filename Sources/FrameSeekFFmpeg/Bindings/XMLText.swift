internal import CXML2
import Foundation

/// An XML element to write: its name, attributes in the order given, child elements, and
/// text before them.
package struct XMLText: Sendable, Hashable {
    package var name: String
    package var attributes: [Attribute]
    package var text: String?
    package var children: [XMLText]

    /// One attribute.
    package struct Attribute: Sendable, Hashable {
        package var name: String
        package var value: String
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    package init(_ name: String, _ attributes: [Attribute] = [], text: String? = nil, children: [XMLText] = []) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    /// The element as a UTF-8 document, indented, written by libxml2's xmlTextWriter, which
    /// escapes text and attribute values: every character a report carries (a path, a
    /// message) comes out well-formed.
    ///
    /// - Throws: `XMLTextError` naming the libxml2 call that failed (out of memory, or text
    ///   that is not UTF-8, which Swift strings never are).
    package func document() throws(XMLTextError) -> [UInt8] {
        guard let buffer = xmlBufferCreate() else { throw XMLTextError(function: "xmlBufferCreate") }
        defer { xmlBufferFree(buffer) }
        guard let writer = xmlNewTextWriterMemory(buffer, 0) else { throw XMLTextError(function: "xmlNewTextWriterMemory") }
        var freed = false
        defer { if !freed { xmlFreeTextWriter(writer) } }
        func check(_ result: Int32, _ function: String) throws(XMLTextError) {
            if result < 0 { throw XMLTextError(function: function) }
        }
        try check(xmlTextWriterSetIndent(writer, 1), "xmlTextWriterSetIndent")
        try check(xmlTextWriterStartDocument(writer, nil, "UTF-8", nil), "xmlTextWriterStartDocument")
        try write(self, to: writer, check: check)
        try check(xmlTextWriterEndDocument(writer), "xmlTextWriterEndDocument")
        // Freeing the writer flushes it into the buffer.
        xmlFreeTextWriter(writer)
        freed = true
        guard let content = xmlBufferContent(buffer) else { throw XMLTextError(function: "xmlBufferContent") }
        return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
    }

    private func write(
        _ element: XMLText, to writer: xmlTextWriterPtr, check: (Int32, String) throws(XMLTextError) -> Void
    ) throws(XMLTextError) {
        try check(xmlTextWriterStartElement(writer, element.name), "xmlTextWriterStartElement")
        for attribute in element.attributes {
            try check(
                xmlTextWriterWriteAttribute(writer, attribute.name, Self.characters(attribute.value)), "xmlTextWriterWriteAttribute")
        }
        if let text = element.text { try check(xmlTextWriterWriteString(writer, Self.characters(text)), "xmlTextWriterWriteString") }
        for child in element.children { try write(child, to: writer, check: check) }
        try check(xmlTextWriterEndElement(writer), "xmlTextWriterEndElement")
    }
}

extension XMLText {
    /// `text` with every character XML 1.0 cannot carry, escaped or not (control characters
    /// other than tab, newline and carriage return; U+FFFE and U+FFFF), replaced by U+FFFD: a
    /// reason string in a manifest from a pull request could otherwise make the report
    /// unreadable. libxml2 escapes the rest.
    static func characters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !allowed($0) }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { allowed($0) ? $0 : "\u{FFFD}" }))
    }

    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}

/// A libxml2 writer call failed.
package struct XMLTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The libxml2 function.
    package let function: String
    package var description: String { "\(function) failed" }
}
