import Foundation

/// Where a location was named, which decides what that location may name in turn.
///
/// A playlist, a segment or a media file fetched over HTTP comes from a server nobody here
/// controls. If what it names were opened as the user's own input, a remote playlist whose
/// segment line is `file:///home/me/private.ts` would have that local file read, decoded and
/// its MD5 or picture printed. So a resource that arrived over the network may name only
/// network resources; only what the user gave on the command line or in code, and what a local
/// playlist names, may be a local file. FFmpeg's own HLS demuxer draws the same line.
public enum ResourceOrigin: Sendable, Hashable, CustomStringConvertible {
    /// Given by the user, or named by a local file: local files and http(s) may be opened.
    case local
    /// Named by something fetched over the network: http(s) only.
    case remote

    /// The origin of whatever `location` (a path or URL) names: remote for a network URL
    /// (any scheme but `file`), local for a path or a `file:` URL.
    public static func of(_ location: String) -> ResourceOrigin {
        guard let scheme = Self.scheme(of: location) else { return .local }
        return scheme == "file" ? .local : .remote
    }

    /// Whether a resource of this origin may name `url`.
    public func permits(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "http", "https": return true
        case "file": return self == .local
        default: return false
        }
    }

    /// The FFmpeg protocols an open of this origin's resources may use, as FFmpeg's
    /// `protocol_whitelist` option takes them. http and https run over tcp and tls, and over
    /// httpproxy when the environment names a proxy; every layer must be listed, since FFmpeg
    /// checks each protocol a URL's open goes through, redirects included.
    var protocolWhitelist: String {
        switch self {
        case .local: return "file,http,https,tls,tcp,httpproxy"
        case .remote: return "http,https,tls,tcp,httpproxy"
        }
    }

    /// The whitelist for opening `location` itself when the user gave it: this origin's,
    /// plus the location's own scheme (the user may name an `rtmp://` or `ftp://` source, and
    /// FFmpeg's lower layers for it), so what the user asked for is never refused while what
    /// it names stays bounded by the origin.
    static func whitelist(forGiven location: String) -> String {
        let origin = ResourceOrigin.of(location)
        guard let scheme = scheme(of: location), scheme != "file", scheme != "http", scheme != "https" else {
            return origin.protocolWhitelist
        }
        return "\(origin.protocolWhitelist),\(scheme),udp,rtp"
    }

    /// The lowercased scheme of `location`, nil for a plain path.
    private static func scheme(of location: String) -> String? {
        guard let colon = location.range(of: "://") else { return nil }
        let scheme = location[..<colon.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else {
            return nil
        }
        return scheme.lowercased()
    }

    public var description: String { self == .local ? "local" : "remote" }
}
