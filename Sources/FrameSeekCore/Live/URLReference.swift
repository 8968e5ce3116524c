import Foundation

/// A URI reference of a playlist or MPD resolved against the URL it is relative to, within a
/// bound on the result's length.
///
/// Every segment keeps its own resolved URL, and a short reference resolved against a long base
/// (a variant URI or BaseURL of megabytes) is as long as the base: unbounded, a listing of
/// millions of segments would hold millions of copies of it. The bound is CloudFront's (it refuses a request whose URL passes 8,192 bytes); signed CDN
/// URLs with their tokens run to one to three kilobytes.
enum URLReference {
    /// The longest resolved URL, in UTF-8 bytes.
    static let maxResolvedLength = 8_192

    /// Why a reference has no usable URL.
    enum Failure: Error, Equatable {
        /// Empty, or not a URI reference.
        case notAURL
        /// Resolved, it is `length` bytes long, more than `maxResolvedLength`.
        case tooLong(length: Int)
    }

    /// `reference` resolved against `base`.
    static func resolve(_ reference: String, against base: URL) throws(Failure) -> URL {
        guard !reference.isEmpty, let url = URL(string: reference, relativeTo: base)?.absoluteURL else { throw .notAURL }
        let length = url.absoluteString.utf8.count
        guard length <= maxResolvedLength else { throw .tooLong(length: length) }
        return url
    }
}
