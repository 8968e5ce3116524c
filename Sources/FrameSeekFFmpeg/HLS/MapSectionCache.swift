import FrameSeekCore

/// The `EXT-X-MAP` sections an HLS engine has fetched, decrypted, by URI and byte range:
/// segments share one, so it is fetched once while the sections kept stay within `limit`.
///
/// An initialization section is a few kilobytes, but a hostile playlist may name a section of up
/// to the segment limit for every segment of its window, and the window names them all: past the
/// limit the others are dropped, and fetched again when named. The byte count is kept as the
/// sections change, so a window of a few hundred thousand one-byte ranges is not summed on every
/// fetch.
struct MapSectionCache {
    /// The most bytes kept together, by default.
    static let defaultLimit = 64 << 20

    /// The most bytes kept together (tests lower it).
    var limit = MapSectionCache.defaultLimit
    /// The sections kept.
    private(set) var sections: [HLSMap: [UInt8]] = [:]
    /// Their bytes, together.
    private(set) var byteCount = 0

    /// The section kept for `map`, if any.
    subscript(map: HLSMap) -> [UInt8]? { sections[map] }

    /// Keeps `bytes` for `map`, first dropping the others when they would pass `limit` together.
    mutating func keep(_ bytes: [UInt8], for map: HLSMap) {
        if byteCount + bytes.count > limit { (sections, byteCount) = ([:], 0) }
        if let replaced = sections.updateValue(bytes, forKey: map) { byteCount -= replaced.count }
        byteCount += bytes.count
    }

    /// Drops the sections whose map `isDropped` says so.
    mutating func removeAll(where isDropped: (HLSMap) -> Bool) {
        for map in sections.keys where isDropped(map) { byteCount -= sections.removeValue(forKey: map)?.count ?? 0 }
    }
}
