import Foundation
import FrameSeekCore

extension HLSEngine {
    /// Fetches and parses the playlist at `url`, which something of `origin` named (`.local`
    /// for the playlist the user gave).
    ///
    /// - Throws: `MediaError` naming `name` (the URL the caller gave): `.readFailed` with the
    ///   fetch's cause, `.notMedia` with the parser's line and cause.
    static func readPlaylist(
        _ url: URL, namedBy origin: ResourceOrigin, fetcher: SegmentFetcher, name: String,
        counting reads: inout MediaReads
    ) throws(MediaError) -> HLSPlaylist {
        switch try readManifest(url, namedBy: origin, fetcher: fetcher, name: name, counting: &reads) {
        case .hls(let playlist): return playlist
        case .dash: throw MediaError(path: name, reason: .notMedia, cause: "\(url.absoluteString) is a DASH MPD, not an HLS playlist")
        }
    }

    /// What a manifest can be: an HLS playlist, or a DASH MPD.
    enum Manifest {
        case hls(HLSPlaylist)
        case dash(DASHPresentation)
    }

    /// Fetches the manifest at `url` and reads it as an MPD when it is XML (its first
    /// character after any byte order mark and white space is `<`), else as an HLS playlist.
    ///
    /// - Throws: `MediaError` naming `name`: `.readFailed` with the fetch's cause, `.notMedia`
    ///   with the parser's line or element and cause, `.unsupported` for an MPD FrameSeek does
    ///   not read yet (dynamic, SegmentBase).
    static func readManifest(
        _ url: URL, namedBy origin: ResourceOrigin, fetcher: SegmentFetcher, name: String,
        counting reads: inout MediaReads
    ) throws(MediaError) -> Manifest {
        let text: String
        do {
            text = try fetcher.text(at: url, namedBy: origin, counting: &reads)
        } catch {
            throw MediaError(path: name, reason: .readFailed, cause: "cannot read playlist \(error.description)")
        }
        if text.drop(while: { $0 == "\u{FEFF}" || $0.isWhitespace }).first == "<" {
            do {
                return .dash(try DASHPresentation(root: try MPDDocument.root(of: Array(text.utf8)), url: url))
            } catch {
                throw MediaError(
                    path: name, reason: error.isUnsupported ? .unsupported : .notMedia,
                    cause: "not a DASH MPD FrameSeek reads: \(error.description)")
            }
        }
        do {
            return .hls(try HLSPlaylist.parse(text: text, url: url))
        } catch {
            throw MediaError(path: name, reason: .notMedia, cause: "not an HLS playlist: \(error.description)")
        }
    }

    /// Fetches segment `segment` (its EXT-X-MAP section first, when it has one), decrypts what
    /// EXT-X-KEY encrypts, and opens an engine on the bytes, named by the segment's URL.
    ///
    /// - Throws: `MediaError` whose path is the segment's URL: `.readFailed` for a segment
    ///   EXT-X-GAP marks (never fetched), with the fetch's cause ("HTTP error 404 Not Found"),
    ///   or when decryption fails; `.unsupported` for a key FrameSeek cannot use (SAMPLE-AES);
    ///   or the segment engine's own open errors.
    func openSegment(_ segment: HLSSegment) throws(MediaError) -> FFmpegEngine {
        let name = SegmentFetcher.location(of: segment.uri)
        if segment.isGap {
            throw MediaError(path: name, reason: .readFailed, cause: "EXT-X-GAP: the playlist marks the segment as missing")
        }
        for key in [segment.map?.key, segment.key].compactMap(\.self) {
            if let reason = key.unsupportedReason { throw MediaError(path: name, reason: .unsupported, cause: reason) }
        }
        if let key = segment.map?.key, key.iv == nil {
            // RFC 8216 4.3.2.5: no Media Sequence Number stands in for an encrypted map's IV.
            throw MediaError(
                path: name, reason: .readFailed, cause: "EXT-X-MAP under EXT-X-KEY AES-128 without IV (RFC 8216 requires one)")
        }
        var segmentOptions = options
        segmentOptions.memoryOrigin = segmentOrigin
        segmentOptions.listsLeadingPictures = true
        return try FFmpegEngine(bytes: try bytes(of: segment, withMap: true), name: name, options: segmentOptions)
    }

    /// `segment`'s media, fetched and decrypted, after its EXT-X-MAP section when `withMap`.
    ///
    /// - Throws: `MediaError` as `openSegment` does for a segment it cannot read.
    func bytes(of segment: HLSSegment, withMap: Bool) throws(MediaError) -> [UInt8] {
        let name = SegmentFetcher.location(of: segment.uri)
        var bytes: [UInt8] = []
        do {
            if withMap, let map = segment.map { bytes = try mapSection(map, sequence: segment.mediaSequence) }
            var media = try fetcher.bytes(
                at: segment.uri, range: segment.byteRange, namedBy: segmentOrigin, counting: &reads)
            if let key = segment.key { media = try decrypt(media, under: key, sequence: segment.mediaSequence) }
            bytes += media
        } catch let error as FetchError {
            throw MediaError(path: error.url, reason: .readFailed, cause: "cannot read segment: \(error.cause)")
        } catch let error as AESDecryption.Failure {
            throw MediaError(path: name, reason: .readFailed, cause: "cannot decrypt segment: \(error.description)")
        } catch {
            throw MediaError(path: name, reason: .readFailed, cause: "cannot read segment: \(error)")
        }
        return bytes
    }

    /// The EXT-X-MAP section `map`, decrypted (with segment `sequence`'s IV when its key gives
    /// none), fetched once while it stays in `mapSections`.
    func mapSection(_ map: HLSMap, sequence: Int) throws -> [UInt8] {
        if let known = mapSections[map] { return known }
        var bytes = try fetcher.bytes(at: map.uri, range: map.byteRange, namedBy: segmentOrigin, counting: &reads)
        if let key = map.key { bytes = try decrypt(bytes, under: key, sequence: sequence) }
        mapSections.keep(bytes, for: map)
        return bytes
    }

    /// `bytes` decrypted under `key` (fetched once per URI) with segment `sequence`'s IV.
    private func decrypt(_ bytes: [UInt8], under key: HLSKey, sequence: Int) throws -> [UInt8] {
        let secret: [UInt8]
        if let known = keyBytes[key.uri] {
            secret = known
        } else {
            secret = try fetcher.key(at: key.uri, namedBy: segmentOrigin, counting: &reads)
            keyBytes[key.uri] = secret
        }
        return try AESDecryption.decrypt(bytes, key: secret, iv: key.iv(forMediaSequence: sequence))
    }

    /// Indexes every segment of the timeline's window: segments already indexed in `previous`
    /// with the same media (`HLSSegment.isSameMedia(as:)`) keep their frames; new ones, and ones
    /// that were missing, are fetched and opened. A segment that fails is recorded with its
    /// cause, not thrown.
    func indexWindow(reusing previous: [IndexedSegment]) -> [IndexedSegment] {
        let known = Dictionary(previous.map { ($0.segment.mediaSequence, $0) }, uniquingKeysWith: { $1 })
        let playlist = timeline.playlist
        return playlist.segments.indices.map { position in
            let segment = playlist.segments[position]
            let start = timeline.segmentStarts[position]
            if let old = known[segment.mediaSequence], old.segment.isSameMedia(as: segment), let frames = old.frames {
                return IndexedSegment(segment: segment, start: placedStart(of: segment, frames, listed: start), content: .success(frames))
            }
            return read(segment, listedAt: start)
        }
    }

    /// `segment` fetched and opened now, its engine kept open, placed on the timeline
    /// (`placedStart`); a segment that cannot be read is recorded with its cause, at `start`.
    func read(_ segment: HLSSegment, listedAt start: MediaTime) -> IndexedSegment {
        do throws(MediaError) {
            let engine = try openSegment(segment)
            engines.insert(engine, for: segment.mediaSequence)
            let frames = IndexedSegment.Frames(
                table: engine.frameTable, media: engine.media, leadBeforeFirstKeyframe: Self.leadBeforeFirstKeyframe(of: engine))
            // An init section leaves what only decoding tells (the pixel format) unknown; the
            // first segment read tells it.
            if streamsFromInitSection {
                streamsFromInitSection = false
                describeWindow(streams: frames.media)
            }
            return IndexedSegment(segment: segment, start: placedStart(of: segment, frames, listed: start), content: .success(frames))
        } catch {
            return IndexedSegment(segment: segment, start: start, content: .failure(error))
        }
    }

    /// Where `segment`'s first keyframe goes on the timeline: where the playlist starts the
    /// segment (`listed`) for HLS, later by the packets shown before it where the segment does
    /// not start with it (`IndexedSegment.Frames.leadBeforeFirstKeyframe`); for DASH, the
    /// frame's own media time plus the Period's offset (`mediaTimeOffsets`), as DASH clients
    /// place media.
    func placedStart(of segment: HLSSegment, _ frames: IndexedSegment.Frames, listed: MediaTime) -> MediaTime {
        let table = frames.table
        guard let offset = mediaTimeOffsets?[segment.mediaSequence], table.frames.indices.contains(table.leadingPictureCount)
        else { return frames.leadBeforeFirstKeyframe.map { listed + $0.duration } ?? listed }
        return offset + table.timeBase.time(ofTicks: table.frames[table.leadingPictureCount].pts)
    }

    /// How long before its first keyframe a segment's first packet (in decode order) is shown,
    /// and how many packets precede that keyframe; nil when the segment starts with it, or its
    /// engine cannot tell its packets apart (`DecodeOrderByPTS.identifiesPackets`).
    static func leadBeforeFirstKeyframe(of engine: FFmpegEngine) -> (duration: MediaTime, packets: Int)? {
        let table = engine.frameTable
        guard let keyframe = table.firstRandomAccessPointDecoded, keyframe.decodeOrder > 0,
            let firstPTS = engine.executor.packetOrder.others.first(where: { $0.value == 0 })?.key
        else { return nil }
        let (ticks, overflow) = keyframe.pts.subtractingReportingOverflow(firstPTS)
        guard !overflow, ticks > 0 else { return nil }
        return (table.timeBase.time(ofTicks: ticks), keyframe.decodeOrder)
    }

    /// Rebuilds the global table and `media` from `segments`, and moves the landed frame's
    /// global index to where its segment's frame now is.
    ///
    /// - Throws: `MediaError` (`.noPlayableStream`) when no segment of the window can be read;
    ///   nothing changes then.
    func rebuildIndex() throws(MediaError) {
        guard let built = HLSWindowIndex.build(segments, timeBase: timeBase, limitsByNextStart: mediaTimeOffsets == nil),
            let first = segments.lazy.compactMap(\.frames).first
        else {
            let causes = segments.compactMap { segment -> String? in
                if case .failure(let error)? = segment.content { return error.description }
                return nil
            }
            throw MediaError(
                path: url, reason: .noPlayableStream,
                cause: "no segment of the window can be read"
                    + (causes.isEmpty ? "" : ": \(causes.joined(separator: "; "))"))
        }
        index = built
        indexesWholeWindow = true
        let window = timeline.window
        let window0 = window.seekableRange.lowerBound
        // A hole at the end of the window is missing data, as one anywhere else is: the
        // playlist says the segment is there, so the window is not cut short.
        media = MediaDescription(
            path: url, container: container, startTime: .zero,
            duration: window.seekableRange.upperBound - window0,
            streams: first.media.streams, selectedStreamIndex: first.media.selectedStreamIndex,
            truncation: nil, missingData: built.table.missingData)
        let sequences = Set(segments.map(\.segment.mediaSequence))
        engines.keepOnly(sequences)
        undecodableLeadingPictures = undecodableLeadingPictures.filter { sequences.contains($0.sequence) }
        // A live stream may rotate its EXT-X-MAP sections: keep only those the window names,
        // or the cache would grow for as long as the stream runs.
        let maps = Set(segments.compactMap(\.segment.map))
        mapSections.removeAll { !maps.contains($0) }
        let keys = Set(segments.flatMap { [$0.segment.key?.uri, $0.segment.map?.key?.uri].compactMap(\.self) })
        keyBytes = keyBytes.filter { keys.contains($0.key) }
        if let landed = landedLocation,
            let global = built.globalIndex(sequence: landed.sequence, localIndex: landed.localIndex)
        {
            currentFrameIndex = global
            landedFrame = built.table.frames[global]
        } else {
            // The landed frame's segment left the window: nothing in the window is current.
            currentFrameIndex = nil
            landedLocation = nil
            landedFrame = nil
            currentSegmentEngine = nil
        }
    }
}
