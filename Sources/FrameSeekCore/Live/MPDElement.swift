/// One element of an MPD as an XML parser read it: its local name (without a namespace
/// prefix), attributes, child elements and text. The XML parser lives at the edge (FrameSeekFFmpeg
/// reads the document with libxml2); what the elements mean is read here, from values.
public struct MPDElement: Sendable, Hashable {
    /// The local name: `Period`, `SegmentTemplate`, ...
    public let name: String
    /// Attributes by local name.
    public let attributes: [String: String]
    /// Child elements in document order.
    public let children: [MPDElement]
    /// The element's own text, trimmed (a `BaseURL`'s URL).
    public let text: String

    /// An element with every property stated.
    public init(name: String, attributes: [String: String], children: [MPDElement], text: String) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The children named `name`, in document order.
    public func children(_ name: String) -> [MPDElement] { children.filter { $0.name == name } }

    /// The first child named `name`.
    public func child(_ name: String) -> MPDElement? { children.first { $0.name == name } }
}

/// Why an MPD cannot be read as a presentation: the element and what is wrong with it.
public struct MPDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The element's path in the document (`MPD/Period[2]/AdaptationSet[1]`), or the
    /// document's part the error is about.
    public let element: String
    /// What is wrong, in words.
    public let reason: String
    /// Whether the document is valid but asks for what FrameSeek does not read yet (a dynamic
    /// MPD, SegmentBase), rather than being malformed.
    public let isUnsupported: Bool

    /// An error about `element`.
    public init(element: String, reason: String, isUnsupported: Bool = false) {
        self.element = element
        self.reason = reason
        self.isUnsupported = isUnsupported
    }

    /// `MPD/Period[1]: reason`.
    public var description: String { "\(element): \(reason)" }
}
