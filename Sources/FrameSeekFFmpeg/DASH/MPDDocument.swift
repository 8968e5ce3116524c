import Foundation
import FoundationXML
import FrameSeekCore

/// An MPD's XML read by FoundationXML (libxml2 underneath), as `MPDElement` values: the one
/// place FrameSeek touches XML, so what the elements mean is read from plain values.
///
/// The document is hostile: external entities are never loaded (no file or URL is read on the
/// document's behalf), and a document nested deeper than `depthLimit` or holding more than
/// `elementLimit` elements is refused rather than walked. Its size is bounded before this, by
/// the playlist limit the fetch applies.
enum MPDDocument {
    /// Deeper than any MPD nests (MPD/Period/AdaptationSet/Representation/SegmentTemplate/
    /// SegmentTimeline/S is 7).
    static let depthLimit = 32
    /// Elements in one document: a SegmentTimeline of two million S elements is refused here.
    static let elementLimit = 2_000_000

    /// The document's root element.
    ///
    /// - Throws: `MPDError` naming the document when it is not well-formed XML (with
    ///   libxml2's message) or exceeds the limits.
    static func root(of bytes: [UInt8]) throws(MPDError) -> MPDElement {
        let document: XMLDocument
        do {
            document = try XMLDocument(data: Data(bytes), options: [.nodeLoadExternalEntitiesNever])
        } catch {
            throw MPDError(element: "document", reason: "not well-formed XML: \(error.localizedDescription)")
        }
        guard let root = document.rootElement() else { throw MPDError(element: "document", reason: "no root element") }
        var count = 0
        return try element(root, depth: 0, count: &count)
    }

    private static func element(_ node: XMLElement, depth: Int, count: inout Int) throws(MPDError) -> MPDElement {
        count += 1
        guard depth < depthLimit, count <= elementLimit else {
            throw MPDError(element: "document", reason: "nested deeper than \(depthLimit) or more than \(elementLimit) elements")
        }
        var attributes: [String: String] = [:]
        for attribute in node.attributes ?? [] {
            guard let name = attribute.localName ?? attribute.name else { continue }
            attributes[name] = attribute.stringValue ?? ""
        }
        var children: [MPDElement] = []
        var text = ""
        for child in node.children ?? [] {
            if let child = child as? XMLElement {
                children.append(try element(child, depth: depth + 1, count: &count))
            } else if child.kind == .text {
                text += child.stringValue ?? ""
            }
        }
        return MPDElement(
            name: node.localName ?? node.name ?? "", attributes: attributes, children: children,
            text: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
