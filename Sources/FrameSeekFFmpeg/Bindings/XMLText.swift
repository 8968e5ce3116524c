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

extension XMLText {
    /// `document` (an XML file's bytes) with this element appended as the last child of its
    /// first element named `parent`, in document order, reserialized by libxml2
    /// (`xmlDocCopyNode`, `xmlAddChild`, `xmlDocDumpFormatMemory`): how a thumbnail
    /// AdaptationSet joins a given MPD's Period.
    ///
    /// The document is read as an MPD is (`XML_PARSE_NONET`, no entity substitution, no DTD).
    ///
    /// - Throws: `XMLTextError` naming what failed: the document is not XML, has no `parent`,
    ///   or libxml2 runs out of memory.
    package func appended(toFirst parent: String, in document: [UInt8]) throws(XMLTextError) -> [UInt8] {
        let fragment = try self.document()
        guard let target = Self.parse(document, name: "document.xml"), let own = Self.parse(fragment, name: "fragment.xml") else {
            throw XMLTextError(function: "xmlReadMemory (not well-formed XML)")
        }
        defer {
            xmlFreeDoc(target)
            xmlFreeDoc(own)
        }
        guard let root = xmlDocGetRootElement(target), let place = Self.first(named: parent, under: root) else {
            throw XMLTextError(function: "no \(parent) element in the document")
        }
        guard let element = xmlDocGetRootElement(own), let copy = xmlDocCopyNode(element, target, 1) else {
            throw XMLTextError(function: "xmlDocCopyNode")
        }
        guard xmlAddChild(place, copy) != nil else {
            xmlFreeNode(copy)
            throw XMLTextError(function: "xmlAddChild")
        }
        var bytes: UnsafeMutablePointer<xmlChar>?
        var count: Int32 = 0
        xmlDocDumpFormatMemory(target, &bytes, &count, 1)
        guard let bytes, count > 0 else { throw XMLTextError(function: "xmlDocDumpFormatMemory") }
        defer { fs_xml_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(count)))
    }

    /// `bytes` read by libxml2 as hostile input is read (`XML_PARSE_NONET`, no entity
    /// substitution, no DTD, errors not printed); nil when they are empty, longer than
    /// `xmlReadMemory` takes, or not well-formed. The caller frees the document (`xmlFreeDoc`).
    static func parse(_ bytes: [UInt8], name: String) -> xmlDocPtr? {
        guard !bytes.isEmpty, let length = Int32(exactly: bytes.count) else { return nil }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { xmlReadMemory($0, length, name, nil, options) }
            }
        }
    }

    /// The first element named `name` at or under `node`, depth first.
    private static func first(named name: String, under node: xmlNodePtr) -> xmlNodePtr? {
        if node.pointee.type == XML_ELEMENT_NODE, String(cString: node.pointee.name) == name { return node }
        var child = node.pointee.children
        while let current = child {
            if let found = first(named: name, under: current) { return found }
            child = current.pointee.next
        }
        return nil
    }
}
