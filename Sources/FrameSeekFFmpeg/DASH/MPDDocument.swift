internal import CXML2
import FrameSeekCore

/// An MPD's XML read by libxml2 (`xmlReadMemory`), as `MPDElement` values: the one place
/// FrameSeek touches XML, so what the elements mean is read from plain values. The document is
/// freed (`xmlFreeDoc`) before this returns.
///
/// The document is hostile: it is parsed with no network access (`XML_PARSE_NONET`), external
/// entities and DTDs are never loaded and entities are not substituted (libxml2's defaults
/// without `XML_PARSE_NOENT` and `XML_PARSE_DTDLOAD`), libxml2's own limits on depth and entity
/// expansion apply (no `XML_PARSE_HUGE`), and a document nested deeper than `depthLimit` or
/// holding more than `elementLimit` elements is refused. Its size is bounded before this, by
/// the playlist limit the fetch applies. An attribute's value is read with its entity
/// references expanded (`xmlNodeListGetString`), and libxml2 checks each expansion on its own
/// only, so a 1 MB entity named in a million attributes would make terabytes of values from a
/// 13 MB document: the values and texts together may not be longer than the document itself,
/// which no document without entities can exceed (references and escapes only shorten).
package enum MPDDocument {
    /// Deeper than any MPD nests (MPD/Period/AdaptationSet/Representation/SegmentTemplate/
    /// SegmentTimeline/S is 7).
    static let depthLimit = 32
    /// Elements in one document: a SegmentTimeline of two million S elements is refused here.
    static let elementLimit = 2_000_000

    /// The document's root element.
    ///
    /// - Throws: `MPDError` naming the document when `xmlReadMemory` makes no document of it
    ///   (with libxml2's message) or it exceeds the limits.
    package static func root(of bytes: [UInt8]) throws(MPDError) -> MPDElement {
        guard !bytes.isEmpty else { throw MPDError(element: "document", reason: "empty: no XML") }
        guard Int32(exactly: bytes.count) != nil else {
            throw MPDError(element: "document", reason: "\(bytes.count) bytes: more than xmlReadMemory takes")
        }
        guard let document = XMLText.parse(bytes, name: "manifest.mpd") else {
            let message = xmlGetLastError().map { String(cString: $0.pointee.message).trimmingCharacters(in: .whitespacesAndNewlines) }
            throw MPDError(element: "document", reason: "xmlReadMemory: not well-formed XML" + (message.map { ": \($0)" } ?? ""))
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { throw MPDError(element: "document", reason: "no root element") }
        var count = 0
        var textBudget = bytes.count
        return try element(root, depth: 0, count: &count, textBudget: &textBudget)
    }

    /// `node` as a value; `count` counts the elements read so far, and `textBudget` is what is
    /// left of the document's length for attribute values and texts.
    private static func element(_ node: xmlNodePtr, depth: Int, count: inout Int, textBudget: inout Int) throws(MPDError) -> MPDElement {
        count += 1
        guard depth < depthLimit, count <= elementLimit else {
            throw MPDError(element: "document", reason: "nested deeper than \(depthLimit) or more than \(elementLimit) elements")
        }
        func spend(_ text: String) throws(MPDError) {
            textBudget -= text.utf8.count
            guard textBudget >= 0 else {
                throw MPDError(element: "document", reason: "its entities expand to values longer than the document itself")
            }
        }
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = String(cString: current.pointee.name)
            if let value = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1) {
                let text = String(cString: value)
                fs_xml_free(value)
                try spend(text)
                attributes[name] = text
            } else {
                attributes[name] = ""
            }
            attribute = current.pointee.next
        }
        var children: [MPDElement] = []
        var text = ""
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE: children.append(try element(current, depth: depth + 1, count: &count, textBudget: &textBudget))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content {
                    let part = String(cString: content)
                    try spend(part)
                    text += part
                }
            default: break
            }
            child = current.pointee.next
        }
        return MPDElement(
            name: String(cString: node.pointee.name), attributes: attributes, children: children,
            text: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
