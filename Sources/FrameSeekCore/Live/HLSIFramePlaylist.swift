import Foundation

/// An HLS I-frame playlist (RFC 8216 4.3.3.6, `EXT-X-I-FRAMES-ONLY`): one entry per keyframe,
/// each a byte range of a segment that holds that keyframe alone, timed by the distance to
/// the next keyframe. AVPlayer scrubs and plays trick play from it.
public struct HLSIFramePlaylist: Sendable {
    /// The section every entry's bytes need first (`EXT-X-MAP`).
    public struct Map: Sendable, Hashable {
        /// As written in the playlist: relative to it, or absolute.
        public let uri: String
        public let range: HLSByteRange?

        public init(uri: String, range: HLSByteRange?) {
            self.uri = uri
            self.range = range
        }
    }

    /// One keyframe.
    public struct IFrame: Sendable, Hashable {
        /// The resource, as written in the playlist.
        public let uri: String
        /// The keyframe's bytes in it.
        public let bytes: HLSByteRange
        public let map: Map?
        /// Where it is shown on the playlist's timeline, in microseconds: the sum of the EXTINFs
        /// before it. Times are rounded to microseconds before they are differenced, so that
        /// the EXTINFs add up to each keyframe's time without drifting.
        public let microseconds: Int64
        /// Its EXTINF, in microseconds: up to the next keyframe, or to the end of the last frame.
        public let durationMicroseconds: Int64
        /// Whether its timestamps start over (`EXT-X-DISCONTINUITY` before it).
        public let discontinuity: Bool

        public init(uri: String, bytes: HLSByteRange, map: Map?, microseconds: Int64, durationMicroseconds: Int64, discontinuity: Bool) {
            self.uri = uri
            self.bytes = bytes
            self.map = map
            self.microseconds = microseconds
            self.durationMicroseconds = durationMicroseconds
            self.discontinuity = discontinuity
        }
    }

    public let iframes: [IFrame]

    public init(iframes: [IFrame]) { self.iframes = iframes }

    /// EXT-X-TARGETDURATION in seconds: RFC 8216 4.3.3.1 has every EXTINF, rounded to the
    /// nearest integer, at most the target.
    public var targetDuration: Int64 { max(1, iframes.map { Self.roundedSeconds($0.durationMicroseconds) }.max() ?? 0) }

    /// The playlist's text.
    public var text: String {
        let target = targetDuration
        let hasMap = iframes.contains { $0.map != nil }
        // RFC 8216 7: BYTERANGE and I-FRAMES-ONLY need version 4, EXT-X-MAP in an I-frame
        // playlist version 5.
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:\(hasMap ? 5 : 4)", "#EXT-X-TARGETDURATION:\(target)", "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-I-FRAMES-ONLY"
        ]
        var map: Map?
        for iframe in iframes {
            if iframe.discontinuity { lines.append("#EXT-X-DISCONTINUITY") }
            if let next = iframe.map, next != map {
                lines.append("#EXT-X-MAP:URI=\"\(next.uri)\"" + (next.range.map { ",BYTERANGE=\"\($0.length)@\($0.offset)\"" } ?? ""))
            }
            map = iframe.map
            lines.append("#EXTINF:\(Self.decimal(iframe.durationMicroseconds)),")
            lines.append("#EXT-X-BYTERANGE:\(iframe.bytes.length)@\(iframe.bytes.offset)")
            lines.append(iframe.uri)
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The peak segment bit rate (RFC 8216 4.3.4.2), the BANDWIDTH of
    /// `EXT-X-I-FRAME-STREAM-INF`: the highest bit rate of any run of consecutive entries lasting
    /// between 0.5 and 1.5 times the target duration (runs of up to 4096 entries, which bounds
    /// the work on a hostile playlist of many tiny entries and one long one); of the whole
    /// playlist when no run qualifies.
    public var peakBandwidth: Int {
        let target = Double(targetDuration) * 1_000_000
        var peak: Double?
        for first in iframes.indices {
            var bytes = 0.0, duration = 0.0
            for entry in iframes[first...].prefix(4096) {
                bytes += Double(entry.bytes.length)
                duration += Double(entry.durationMicroseconds)
                if duration > target * 1.5 { break }
                if duration >= target * 0.5 { peak = max(peak ?? 0, bytes * 8 * 1_000_000 / duration) }
            }
        }
        if peak == nil {
            let bytes = iframes.reduce(0.0) { $0 + Double($1.bytes.length) }
            let duration = iframes.reduce(0.0) { $0 + Double($1.durationMicroseconds) }
            peak = duration > 0 ? bytes * 8 * 1_000_000 / duration : 0
        }
        return Int(min((peak ?? 0).rounded(.up), Double(Int64.max / 2)))
    }

    /// The `EXT-X-I-FRAME-STREAM-INF` line for a multivariant playlist, naming `uri`.
    public func streamLine(uri: String, width: Int, height: Int, codecs: String?) -> String {
        var attributes = ["BANDWIDTH=\(peakBandwidth)", "RESOLUTION=\(width)x\(height)"]
        if let codecs { attributes.append("CODECS=\"\(codecs)\"") }
        attributes.append("URI=\"\(uri)\"")
        return "#EXT-X-I-FRAME-STREAM-INF:" + attributes.joined(separator: ",")
    }

    /// Microseconds as whole seconds, rounded half up, without overflowing.
    static func roundedSeconds(_ microseconds: Int64) -> Int64 {
        microseconds / 1_000_000 + (microseconds % 1_000_000 >= 500_000 ? 1 : 0)
    }

    /// Microseconds as seconds with six decimals.
    static func decimal(_ microseconds: Int64) -> String {
        let fraction = String(microseconds % 1_000_000)
        return "\(microseconds / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
