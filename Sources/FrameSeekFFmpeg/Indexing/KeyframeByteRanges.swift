import Foundation
import FrameSeekCore

/// One keyframe of a resource and the bytes a player fetches to show it alone, as an HLS
/// I-frame playlist names them (RFC 8216 4.3.3.6).
public struct KeyframeByteRange: Sendable, Hashable {
    /// The keyframe's presentation time: its PTS in the stream's time base, as the demuxer gives it.
    public let time: MediaTime
    /// The bytes, within the whole resource: for MPEG-TS from the keyframe's first TS packet to
    /// the next video packet's (the TS packets between carry the keyframe and other streams);
    /// for fragmented MP4 from the `moof` describing the sample to the sample's end. After the
    /// resource's map they demux to exactly that keyframe.
    public let bytes: Range<Int64>
}

/// The keyframes of one resource (a file, or one segment of a media playlist) with their bytes.
public struct KeyframeResource: Sendable {
    /// The resource: a path or URL as given, or the segment's resolved URI.
    public let location: URL
    /// The EXT-X-MAP section the bytes need first: a fragmented MP4's `ftyp` and `moov` (a
    /// segment's own map, or the start of a file), or an MPEG-TS resource's first PAT and PMT.
    public let map: (location: URL, range: HLSByteRange?)
    /// Keyframes in presentation order.
    public let keyframes: [KeyframeByteRange]
    /// Keyframes left out because no byte range holds them alone: in fragmented MP4 those not
    /// first among their fragment's video samples (the bytes from their `moof` would bring the
    /// samples before them), in MPEG-TS those sharing a PES with another frame.
    public let leftOut: Int
    /// Where the resource's first video frame starts and its last one ends, on the same clock as
    /// `keyframes`.
    public let begin: MediaTime, end: MediaTime
    /// For a playlist's segment: its start on the playlist's timeline and whether an
    /// EXT-X-DISCONTINUITY precedes it (or an EXT-X-GAP segment before it that had one): its
    /// timestamps then start over.
    public let playlistStart: MediaTime?
    public let discontinuity: Bool
}

/// Every keyframe of a file's or an HLS media playlist's video, with the bytes of each: what an
/// I-frame playlist is written from (`frameseek iframes`).
public struct KeyframeByteRanges: Sendable {
    /// The resources in playlist order (one for a file).
    public let resources: [KeyframeResource]
    /// The video's size in pixels.
    public let width: Int, height: Int
    /// The RFC 6381 codec name (`avc1.64001F`) for H.264; nil for a codec it is not made for.
    public let codecs: String?

    /// Reads `path` (a file or URL: MPEG-TS or fragmented MP4), or, when it is an HLS media
    /// playlist, each of its segments (TS or fMP4) in turn, demuxing every packet of the video
    /// stream and decoding nothing.
    ///
    /// - Throws: `MediaError`: no video (`noPlayableStream`); a container or playlist an I-frame
    ///   playlist cannot name (`unsupported`: progressive MP4, Matroska, DASH, live playlists,
    ///   encrypted segments, fMP4 segments without EXT-X-MAP, TS without a PAT and PMT in its
    ///   first MiB); a file whose boxes or packets do not read to its end (`truncated`,
    ///   `readFailed`); the open's own errors.
    public static func read(_ path: String, options: FFmpegEngine.Options = .init()) throws(MediaError) -> KeyframeByteRanges {
        let url = path.contains("://") ? URL(string: path) : URL(fileURLWithPath: path)
        guard let url else { throw MediaError(path: path, reason: .invalidRequest, cause: "not a URL") }
        if HLSEngine.isPlaylist(url) { return try readPlaylist(path, options: options) }
        if !path.contains("://") { try MediaOpener.checkLocalFile(path) }
        FFmpegLog.installOnce()
        let demuxer = try MediaOpener.openDemuxer(path, log: FFmpegLogSink(), memory: nil, options: options)
        let video = try videoStream(demuxer, path: path)
        let fragmented = try containerKind(demuxer, path: path)
        let reader = ByteRangeReader(borrowing: demuxer)
        guard let size = reader?.size else {
            throw MediaError(path: path, reason: .unsupported, cause: "the size of the resource is unknown")
        }
        let scan = try scanPackets(demuxer, stream: video.index, within: size, path: path)
        let read: (Int64, Int) -> [UInt8]? = { offset, count in try? reader?.read(at: offset, count: count) }
        let fragments = fragmented ? try fragmentStarts(size: size, path: path, read: read) : []
        if fragmented && fragments.isEmpty {
            throw MediaError(path: path, reason: .unsupported, cause: "not a fragmented MP4: no moof box")
        }
        let map = try mapRange(fragments: fragments, path: path) { read(0, Int(min(size, Int64(TransportStreamTables.searchBytes)))) ?? [] }
        let (keyframes, leftOut) = try ranges(scan, fragments: fragments, shift: 0, resourceEnd: size, path: path)
        guard !keyframes.isEmpty else { throw MediaError(path: path, reason: .readFailed, cause: noKeyframe) }
        return KeyframeByteRanges(
            resources: [
                KeyframeResource(
                    location: url, map: (url, map), keyframes: keyframes, leftOut: leftOut, begin: scan.begin, end: scan.end,
                    playlistStart: nil, discontinuity: false)
            ],
            width: video.width, height: video.height, codecs: codecName(video))
    }

    /// The map of a resource without an EXT-X-MAP of its own: a fragmented MP4's boxes before
    /// its first `moof`, or a TS resource's PAT and PMT (found in `head`, its first bytes).
    private static func mapRange(fragments: [Int64], path: String, head: () -> [UInt8]) throws(MediaError) -> HLSByteRange {
        if let first = fragments.first {
            guard first > 0, let length = Int(exactly: first) else {
                throw MediaError(path: path, reason: .unsupported, cause: "not a fragmented MP4: nothing before its first moof")
            }
            return HLSByteRange(length: length, offset: 0)
        }
        guard let tables = TransportStreamTables.programTables(in: head()) else {
            throw MediaError(
                path: path, reason: .unsupported,
                cause: "no PAT and PMT in the first MiB of 188-byte TS packets, for the I-frames' EXT-X-MAP")
        }
        return HLSByteRange(length: Int(tables.count), offset: Int(tables.lowerBound))
    }

    /// Each segment of the media playlist at `path`, fetched whole (with its map) as a player
    /// fetches it, and scanned as a file is.
    private static func readPlaylist(_ path: String, options: FFmpegEngine.Options) throws(MediaError) -> KeyframeByteRanges {
        var opening = options
        opening.indexing = .asNeeded
        let playlistEngine = try HLSEngine(url: path, options: opening)
        guard playlistEngine.container == "hls" else {
            throw MediaError(path: path, reason: .unsupported, cause: "an I-frame playlist is written for HLS, not for a DASH MPD")
        }
        let playlist = playlistEngine.timeline.playlist
        guard playlist.hasEndList else {
            throw MediaError(
                path: path, reason: .unsupported, cause: "a live playlist (no EXT-X-ENDLIST): its I-frames would change with its window")
        }
        var resources: [KeyframeResource] = []
        var video: (width: Int, height: Int, codecs: String?)?
        var discontinuity = false
        for (segment, start) in zip(playlist.segments, playlistEngine.timeline.segmentStarts) {
            let name = SegmentFetcher.location(of: segment.uri)
            discontinuity = discontinuity || segment.discontinuity
            if segment.isGap { continue }
            if segment.key != nil || segment.map?.key != nil {
                throw MediaError(
                    path: name, reason: .unsupported, cause: "an encrypted segment: byte ranges of its ciphertext cannot be decrypted alone"
                )
            }
            let map = try segment.map.map { map throws(MediaError) in
                do { return try playlistEngine.mapSection(map, sequence: segment.mediaSequence) } catch {
                    throw MediaError(path: name, reason: .readFailed, cause: "cannot read the EXT-X-MAP section: \(error)")
                }
            }
            // One map at a time: a playlist naming a new map for every segment must not hold them all.
            playlistEngine.mapSections.removeAll { $0 != segment.map }
            let media = try playlistEngine.bytes(of: segment, withMap: false)
            guard !media.isEmpty else { throw MediaError(path: name, reason: .emptyFile, cause: "empty segment (0 bytes)") }
            var segmentOptions = options
            segmentOptions.memoryOrigin = playlistEngine.segmentOrigin
            let demuxer = try MediaOpener.openDemuxer(
                name, log: FFmpegLogSink(), memory: MemoryInput(bytes: (map ?? []) + media), options: segmentOptions)
            let stream = try videoStream(demuxer, path: name)
            if video == nil { video = (stream.width, stream.height, codecName(stream)) }
            let fragmented = try containerKind(demuxer, path: name)
            if fragmented && segment.map == nil {
                throw MediaError(path: name, reason: .unsupported, cause: "a fragmented MP4 segment without EXT-X-MAP")
            }
            let scan = try scanPackets(demuxer, stream: stream.index, within: Int64((map?.count ?? 0) + media.count), path: name)
            let fragments =
                fragmented
                ? try fragmentStarts(size: Int64(media.count), path: name) { offset, count in
                    Array(media[Int(offset)..<min(media.count, Int(offset) + count)])
                } : []
            let offset = Int64(segment.byteRange?.offset ?? 0)
            var segmentMap = segment.map.map { ($0.uri, $0.byteRange) }
            if segmentMap == nil {
                let tables = try mapRange(fragments: [], path: name) { Array(media.prefix(TransportStreamTables.searchBytes)) }
                segmentMap = (segment.uri, HLSByteRange(length: tables.length, offset: tables.offset + Int(offset)))
            }
            let (keyframes, leftOut) = try ranges(
                scan, fragments: fragments, shift: offset - Int64(map?.count ?? 0), resourceEnd: offset + Int64(media.count), path: name,
                fragmentOffset: offset)
            resources.append(
                KeyframeResource(
                    location: segment.uri, map: segmentMap!, keyframes: keyframes, leftOut: leftOut, begin: scan.begin, end: scan.end,
                    playlistStart: start, discontinuity: discontinuity))
            discontinuity = false
        }
        guard let video else { throw MediaError(path: path, reason: .readFailed, cause: "no segment could be read") }
        guard resources.contains(where: { !$0.keyframes.isEmpty }) else {
            throw MediaError(path: path, reason: .readFailed, cause: noKeyframe)
        }
        return KeyframeByteRanges(resources: resources, width: video.width, height: video.height, codecs: video.codecs)
    }

    private static let noKeyframe = "no keyframe a player could fetch alone (none, or none first in its fragment)"

    /// Keyframes left out in all (`KeyframeResource.leftOut`).
    public var leftOut: Int { resources.reduce(0) { $0 + $1.leftOut } }

    /// The video stream FFmpeg would choose.
    private static func videoStream(_ demuxer: Demuxer, path: String) throws(MediaError) -> Demuxer.Stream {
        guard let index = demuxer.bestStream(of: .video) else {
            throw MediaError(path: path, reason: .noPlayableStream, cause: "no video stream: an I-frame playlist names video keyframes")
        }
        return demuxer.stream(index)
    }

    /// Whether the container is fragmented MP4 (true) or MPEG-TS (false).
    private static func containerKind(_ demuxer: Demuxer, path: String) throws(MediaError) -> Bool {
        if demuxer.formatName == "mpegts" { return false }
        if demuxer.formatName.hasPrefix("mov") { return true }
        throw MediaError(
            path: path, reason: .unsupported,
            cause: "\(demuxer.formatName): an I-frame playlist names MPEG-TS or fragmented MP4 bytes")
    }

    /// What one pass over a stream's packets found.
    private struct PacketScan {
        /// Every packet with a position and a payload, in file order: (position, size, PTS (nil
        /// for a packet that has none: it still bounds the keyframe before it), keyframe).
        var packets: [(position: Int64, size: Int64, pts: Int64?, isKeyframe: Bool)] = []
        /// Where the first frame starts and the last one ends.
        var begin = MediaTime.zero, end = MediaTime.zero
        var timeBase = TimeBase(numerator: 1, denominator: 90_000)
    }

    /// Every packet of `stream`; a position outside the input's `size` bytes is refused, so the
    /// sums made of positions later cannot overflow, and so is more than one packet per byte,
    /// which only a container's lie about its samples gives.
    private static func scanPackets(_ demuxer: Demuxer, stream: Int, within size: Int64, path: String) throws(MediaError) -> PacketScan {
        demuxer.selectOnly(streamIndex: stream)
        var scan = PacketScan()
        scan.timeBase = demuxer.stream(stream).timeBase
        var span: ClosedRange<Int64>?
        let packet = Packet()
        do {
            while try demuxer.read(into: packet) {
                defer { packet.unref() }
                guard packet.streamIndex == stream, packet.size > 0 else { continue }
                guard let position = packet.position, packet.pts != nil || !packet.isKeyframe else {
                    throw MediaError(path: path, reason: .readFailed, cause: "a keyframe packet without a position or a PTS")
                }
                guard position < size, packet.size <= size - position, scan.packets.count < size else {
                    throw MediaError(path: path, reason: .readFailed, cause: "a packet at byte \(position) past the end of the input")
                }
                if let pts = packet.pts {
                    let (packetEnd, overflow) = pts.addingReportingOverflow(max(0, packet.duration))
                    guard !overflow else { throw MediaError(path: path, reason: .readFailed, cause: "a PTS out of range") }
                    span = min(span?.lowerBound ?? pts, pts)...max(span?.upperBound ?? packetEnd, packetEnd)
                }
                scan.packets.append((position, packet.size, packet.pts, packet.isKeyframe))
            }
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(path: path, reason: .readFailed, cause: "cannot read the packets: \(error)")
        }
        if let span {
            (scan.begin, scan.end) = (scan.timeBase.time(ofTicks: span.lowerBound), scan.timeBase.time(ofTicks: span.upperBound))
        }
        return scan
    }

    /// The start of every `moof` among the top-level boxes of `size` bytes read by `read`.
    private static func fragmentStarts(
        size: Int64, path: String, read: @escaping (Int64, Int) -> [UInt8]?
    ) throws(MediaError) -> [Int64] {
        var starts: [Int64] = []
        guard
            MP4SampleTable.mediaDataBodies(fileSize: size, using: read, visiting: { if $0.type == "moof" { starts.append($0.start) } })
                != nil
        else { throw MediaError(path: path, reason: .truncated, cause: "the MP4 boxes do not read to the end of the file") }
        return starts
    }

    /// The keyframes of `scan` with their bytes: positions moved by `shift` into the resource,
    /// `fragments` (moof starts, relative to `fragmentOffset`) for fragmented MP4.
    private static func ranges(
        _ scan: PacketScan, fragments: [Int64], shift: Int64, resourceEnd: Int64, path: String, fragmentOffset: Int64 = 0
    ) throws(MediaError) -> (keyframes: [KeyframeByteRange], leftOut: Int) {
        let byPosition = scan.packets.sorted { $0.position < $1.position }
        var keyframes: [KeyframeByteRange] = []
        var leftOut = 0
        for (order, packet) in byPosition.enumerated() where packet.isKeyframe {
            guard let pts = packet.pts else { continue }
            let start = packet.position + shift
            let end: Int64
            let from: Int64
            if fragments.isEmpty {
                from = start
                // Frames sharing the keyframe's PES (the same position) would come with it.
                let shared =
                    (order > 0 && byPosition[order - 1].position == packet.position)
                    || (order + 1 < byPosition.count && byPosition[order + 1].position == packet.position)
                if shared {
                    leftOut += 1
                    continue
                }
                end = order + 1 < byPosition.count ? byPosition[order + 1].position + shift : resourceEnd
            } else {
                guard let moof = fragments.last(where: { $0 + fragmentOffset < start }) else {
                    throw MediaError(path: path, reason: .readFailed, cause: "a keyframe at byte \(start) before any moof box")
                }
                from = moof + fragmentOffset
                end = start + packet.size
                // The moof's samples before it would come with it, and a player would show the
                // fragment's first frame: only a fragment's first video sample stands alone.
                if order > 0, byPosition[order - 1].position + shift >= from {
                    leftOut += 1
                    continue
                }
            }
            guard from >= 0, from < end, end <= resourceEnd else {
                throw MediaError(path: path, reason: .readFailed, cause: "a keyframe's bytes \(from)..<\(end) outside the resource")
            }
            keyframes.append(KeyframeByteRange(time: scan.timeBase.time(ofTicks: pts), bytes: from..<end))
        }
        return (keyframes.sorted { $0.time < $1.time }, leftOut)
    }

    /// `avc1.PPCCLL` from the H.264 stream's SPS (in its `avcC` or in Annex B extradata).
    private static func codecName(_ stream: Demuxer.Stream) -> String? {
        guard stream.codecName == "h264" else { return nil }
        let extradata = stream.extradata
        var profile: ArraySlice<UInt8>?
        if extradata.count >= 4, extradata[0] == 1 {
            profile = extradata[1..<4]
        } else if extradata.count >= 8 {
            for index in 0..<(extradata.count - 6)
            where extradata[index] == 0 && extradata[index + 1] == 0 && extradata[index + 2] == 1 && extradata[index + 3] & 0x1F == 7 {
                profile = extradata[(index + 4)..<(index + 7)]
                break
            }
        }
        return profile.map { "avc1." + $0.map { String(format: "%02X", $0) }.joined() }
    }
}
