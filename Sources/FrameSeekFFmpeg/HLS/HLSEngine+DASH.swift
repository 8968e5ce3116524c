import FrameSeekCore

extension HLSEngine {
    /// What a DASH presentation lists now for the engine: its media playlist, the chosen
    /// Representation, each segment's offset from media time to the timeline by Media Sequence
    /// Number, and the presentation time the timeline's 0 stands for.
    struct DASHListing {
        let playlist: HLSMediaPlaylist
        let chosen: (position: Int, variant: HLSVariant)
        let offsets: [Int: MediaTime]
        let origin: MediaTime
    }

    /// `presentation`'s segments of the Representation `selection` picks, as of now.
    ///
    /// A static presentation's timeline is its presentation time. A live one's timeline starts,
    /// as an HLS live playlist's does (`HLSTimeline`), at the first segment of the first load:
    /// `origin`, that segment's presentation time (from its date; nil at the first load, to take
    /// it from this listing), is taken from every offset, so frames placed by their own
    /// timestamps land where the timeline places their segment.
    ///
    /// - Throws: `MediaError` naming `name` (`.streamUnavailable`) when no such Representation
    ///   exists or its segments cannot be listed.
    ///
    /// A SegmentBase Representation's `sidx` is fetched here (by range, counted in `reads`).
    static func dashListing(
        _ presentation: DASHPresentation, selecting selection: HLSVariantSelection, origin: MediaTime?, name: String,
        fetcher: SegmentFetcher, reads: inout MediaReads
    ) throws(MediaError) -> DASHListing {
        do {
            var indexes: [String: SegmentIndexBox] = [:]
            for needed in try presentation.segmentIndexRanges(selecting: selection) {
                let bytes: [UInt8]
                do {
                    bytes = try fetcher.bytes(
                        at: needed.url, range: needed.range, namedBy: ResourceOrigin.of(presentation.url.absoluteString),
                        counting: &reads)
                } catch {
                    throw MediaError(path: name, reason: .readFailed, cause: "cannot read the SegmentBase's sidx: \(error.description)")
                }
                indexes[needed.path] = try SegmentIndexBox(bytes: bytes, offset: needed.range.offset, element: needed.path)
            }
            let read = try presentation.mediaPlaylist(selecting: selection, segmentIndexes: indexes)
            let first = read.playlist.segments.first?.programDate
            let origin = origin ?? presentation.live.flatMap { live in first.map { live.availabilityStart.interval(to: $0) } } ?? .zero
            let offsets = Dictionary(
                zip(read.playlist.segments.map(\.mediaSequence), read.offsets.map { $0 - origin })
            ) { first, _ in first }
            return DASHListing(playlist: read.playlist, chosen: read.chosen, offsets: offsets, origin: origin)
        } catch let error as MediaError {
            throw error
        } catch let error as MPDError {
            throw MediaError(path: name, reason: error.isUnsupported ? .unsupported : .streamUnavailable, cause: error.description)
        } catch {
            throw MediaError(path: name, reason: .streamUnavailable, cause: "\(error)")
        }
    }

    /// The media playlist read again for a reload: the HLS media playlist, or the DASH
    /// presentation's listing now (its offsets replace `mediaTimeOffsets`, which then covers
    /// the new window only).
    ///
    /// - Throws: `MediaError` naming the playlist when it cannot be read or parsed, or changed
    ///   kind (a media playlist became a multivariant one, or HLS became DASH or back).
    func readMediaPlaylistAgain() throws(MediaError) -> HLSMediaPlaylist {
        let manifest = try Self.readManifest(
            mediaPlaylistURL, namedBy: mediaPlaylistOrigin, fetcher: fetcher, name: url, counting: &reads)
        switch (manifest, mediaTimeOffsets) {
        case (.hls(.media(let playlist)), nil):
            return playlist
        case (.hls(.multivariant), nil):
            throw MediaError(
                path: url, reason: .notMedia, cause: "\(mediaPlaylistURL.absoluteString) became a multivariant playlist on reload")
        case (.dash(let presentation), _?):
            let listing = try Self.dashListing(
                presentation, selecting: .index(variant?.position ?? 0), origin: dashOrigin, name: url, fetcher: fetcher,
                reads: &reads)
            mediaTimeOffsets = listing.offsets
            return listing.playlist
        case (.dash, nil), (.hls, _?):
            throw MediaError(
                path: url, reason: .notMedia, cause: "\(mediaPlaylistURL.absoluteString) changed between HLS and DASH on reload")
        }
    }
}
