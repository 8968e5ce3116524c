import Foundation
import FrameSeekCore

/// A playback engine over an HLS playlist (VOD, EVENT or live), reading the playlist itself and
/// opening each segment through FFmpeg.
///
/// libavformat's HLS demuxer skips EXT-X-PROGRAM-DATE-TIME and refuses to seek in a live
/// playlist, so this engine parses the playlist (`HLSPlaylist`), places its segments on an
/// `HLSTimeline`, and indexes every segment of the window with an `FFmpegEngine` of its own,
/// opened on the segment's bytes (the EXT-X-MAP section first, for fMP4). The segments' frame
/// tables become one `frameTable` over the window (see `HLSWindowIndex`), so seeks and steps
/// follow the same landing rules as in any file, across segment boundaries, discontinuities
/// and 33-bit timestamp wraps. A landing is carried out by the engine of the segment that holds
/// the planned frame (`FFmpegEngine.land`), on that frame by index.
///
/// A VOD playlist opened with `FrameIndexing.asNeeded` is read as a player reads it: the open
/// fetches the playlists and what describes the streams (the init segment, or the first
/// seek's segment when the caller names it, or the first segment), and each seek fetches
/// only the segments its landing needs (see `seekInSegments`), and each step only the segments
/// around the landed frame (`step`), so its landings carry no frame number. Anything that needs
/// the whole window's table (`frameTable`) indexes every segment first, as a `full` open would
/// have.
///
/// A segment that cannot be fetched or opened does not fail the open (unless none can be
/// read): it is missing data in `media` and `frameTable`, and a seek into it lands damaged and
/// outside tolerance, as in a file with a hole. A reload retries it.
///
/// Not Sendable, like `FFmpegEngine`: keep it on one executor.
public final class HLSEngine: LivePlaybackEngine {
    /// How many segment engines stay open at once (see `SegmentEngineCache`).
    public static let openSegmentEngines = 3

    /// The playlist URL or path as given.
    public let url: String
    /// The media playlist read: `url` itself, or the chosen variant's playlist when `url` is a
    /// multivariant playlist.
    public let mediaPlaylistURL: URL
    /// For a DASH presentation, each segment's offset from its media time to the
    /// presentation's timeline, by Media Sequence Number: its frames are placed by their own
    /// timestamps, as DASH clients place them, not by the manifest's segment times. Nil for
    /// HLS, whose segments are placed where the playlist starts them (`HLSWindowIndex`).
    /// A live presentation's offsets cover its current window: a reload replaces them.
    var mediaTimeOffsets: [Int: MediaTime]?
    /// For a live DASH presentation, the presentation time the timeline's 0 stands for (see
    /// `dashListing`); zero otherwise. Set once at open.
    let dashOrigin: MediaTime
    /// `dash` or `hls`: the container `media` names.
    var container: String { mediaTimeOffsets == nil ? "hls" : "dash" }
    /// The variant read when `url` is a multivariant playlist, with its 0-based position in
    /// playlist order; nil for a media playlist.
    public let variant: (position: Int, variant: HLSVariant)?
    /// What named the media playlist: the user (`.local`), or a multivariant playlist, whose
    /// own origin then bounds what the media playlist may be.
    let mediaPlaylistOrigin: ResourceOrigin
    /// What the media playlist's segments and EXT-X-MAP sections may be: a playlist fetched
    /// over the network names only network resources (`ResourceOrigin`).
    var segmentOrigin: ResourceOrigin { ResourceOrigin.of(mediaPlaylistURL.absoluteString) }
    /// The playlist as of the last load and the stable times of its segments.
    public internal(set) var timeline: HLSTimeline
    /// The window's media: container `hls` or `dash`, path `url`, the streams of the first readable
    /// segment, duration the window's span, and the window's missing data.
    public internal(set) var media: MediaDescription
    /// Every frame of the window, in presentation order, on the timeline (see `HLSWindowIndex`).
    /// An engine that opened as needed indexes every segment of the window first.
    /// Empty when no segment of the window can be read.
    public var frameTable: FrameTable {
        try? indexWholeWindow()
        return index.table
    }
    /// The whole window's table once it is indexed (by a `full` open, or since by a step or
    /// `frameTable`); nil while seeks read the window segment by segment, so that a caller
    /// that only reports the table does not fetch every segment for it.
    public var indexedFrameTable: FrameTable? { indexesWholeWindow ? index.table : nil }
    /// The landed frame's time, numbered or not.
    public var currentFrame: FrameEntry? { landedFrame }
    /// The whole window's table's range once it is indexed; before, the playlist's window.
    public var seekableRange: Range<MediaTime>? {
        indexesWholeWindow ? index.table.seekableRange : liveSeekWindow.seekableRange
    }
    /// The frame last landed or stepped on, as a global index; nil before any, and after a
    /// reload dropped its segment from the window.
    public internal(set) var currentFrameIndex: Int?
    /// The engine of the segment holding the landed frame, for its picture and sound; nil
    /// before any landing.
    public internal(set) var currentSegmentEngine: FFmpegEngine?

    let options: FFmpegEngine.Options
    let fetcher: SegmentFetcher
    /// Whether seeks fetch only the segments they need (`FrameIndexing.asNeeded` on a playlist
    /// with EXT-X-ENDLIST); a live window is small and is indexed whole.
    let indexesAsNeeded: Bool
    /// What every fetch cost so far: playlists, EXT-X-MAP sections and segments, in bytes and,
    /// over the network, requests (failed attempts included).
    public internal(set) var reads = MediaReads.none
    /// What opening cost: `reads` when the open returned.
    public private(set) var openReads = MediaReads.none
    /// Whether `index` is the whole window's table: from the open, or once an engine that
    /// opens as needed built it (`indexWholeWindow`). Set only by `rebuildIndex`.
    var indexesWholeWindow = false
    /// Whether `media`'s streams come from the EXT-X-MAP section alone, until a segment is
    /// read (`describeStreams`).
    var streamsFromInitSection = false
    /// The frame last landed or stepped on, on the window's timeline, which stays known while
    /// the whole window is not indexed; nil before any landing.
    var landedFrame: FrameEntry?
    /// The window's segments in playlist order, with what indexing them found.
    var segments: [IndexedSegment]
    var index: HLSWindowIndex
    /// Set once at open (see `HLSWindowIndex.timeBase(for:)`).
    private(set) var timeBase: TimeBase
    let engines = SegmentEngineCache(capacity: HLSEngine.openSegmentEngines)
    /// The landed frame by segment, which survives reloads that renumber the global frames.
    var landedLocation: HLSWindowIndex.Location?
    /// EXT-X-MAP sections by URI and range, decrypted: segments share one, so it is fetched once.
    var mapSections = MapSectionCache()
    /// EXT-X-KEY keys by URI: segments share one, so it is fetched once.
    var keyBytes: [URL: [UInt8]] = [:]
    /// The last segment opened after the segment before it, for its leading pictures (see
    /// `landLeadingPicture`): steps through them reuse it.
    var leadingPictureEngine: (sequence: Int, engine: FFmpegEngine)?
    /// Leading pictures that decoding after the segment before did not produce: steps pass
    /// over them. Only those of the window's segments are kept.
    var undecodableLeadingPictures: Set<HLSWindowIndex.Location> = []

    /// Opens the playlist at `url` (a path, `file://`, `http://` or `https://` URL) and indexes
    /// every segment of its window.
    ///
    /// - Parameters:
    ///   - variant: which variant to read when `url` is a multivariant playlist.
    ///   - options: how each segment is opened; `streamIndex` numbers the streams of a
    ///     segment. The frame cache bound is shared among the open segment engines.
    /// - Throws: `MediaError` naming the playlist: it cannot be read (`readFailed`), is not a
    ///   playlist (`notMedia`), names no such variant (`streamUnavailable`), or none of its
    ///   segments can be read (the first segment's cause).
    ///   - describingAt: for an engine that opens as needed, the time whose segment describes the
    ///     streams (the first seek's target, so that the open fetches the segment that seek
    ///     needs); when nil, the EXT-X-MAP section (the init segment) describes them where there
    ///     is one, else the window's first segment.
    public init(
        url: String, variant: HLSVariantSelection = .highestBandwidth,
        options: FFmpegEngine.Options = .init(), describingAt: MediaTime? = nil
    ) throws(MediaError) {
        self.url = url
        var segmentOptions = options
        segmentOptions.cacheBytes = options.cacheBytes / HLSEngine.openSegmentEngines
        segmentOptions.decoderPoolBytes = options.decoderPoolBytes / HLSEngine.openSegmentEngines
        self.options = segmentOptions
        let fetcher = SegmentFetcher(policy: options.network)
        self.fetcher = fetcher
        var reads = MediaReads.none
        let given = url.contains("://") ? URL(string: url) : URL(fileURLWithPath: url)
        guard let given else { throw MediaError(path: url, reason: .invalidRequest, cause: "not a URL") }
        var playlist: HLSMediaPlaylist
        var mediaURL = given
        var mediaOrigin = ResourceOrigin.local
        var chosen: (position: Int, variant: HLSVariant)?
        var offsets: [Int: MediaTime]?
        var origin = MediaTime.zero
        var dateOrigin: ProgramDate?
        switch try Self.readManifest(given, namedBy: .local, fetcher: fetcher, name: url, counting: &reads) {
        case .dash(let presentation):
            let listing = try Self.dashListing(
                presentation, selecting: variant, origin: nil, name: url, fetcher: fetcher, reads: &reads)
            if presentation.live != nil { dateOrigin = listing.playlist.segments.first?.programDate }
            (playlist, chosen, offsets, origin) = (listing.playlist, listing.chosen, listing.offsets, listing.origin)
        case .hls(.media(let media)):
            playlist = media
        case .hls(.multivariant(let multivariant)):
            mediaOrigin = ResourceOrigin.of(given.absoluteString)
            do {
                let picked = try multivariant.variant(selecting: variant)
                chosen = (multivariant.variants.firstIndex(of: picked) ?? 0, picked)
                mediaURL = picked.uri
            } catch {
                throw MediaError(path: url, reason: .streamUnavailable, cause: error.description)
            }
            guard
                case .media(let media) = try Self.readPlaylist(
                    mediaURL, namedBy: mediaOrigin, fetcher: fetcher, name: url, counting: &reads)
            else {
                throw MediaError(
                    path: url, reason: .notMedia,
                    cause: "variant \(mediaURL.absoluteString) is a multivariant playlist, not a media playlist")
            }
            playlist = media
        }
        mediaPlaylistURL = mediaURL
        mediaPlaylistOrigin = mediaOrigin
        self.variant = chosen
        mediaTimeOffsets = offsets
        dashOrigin = origin
        // A live DASH window is placed by its segments' dates, which its frames' own
        // timestamps agree with (see `dashListing`).
        timeline = HLSTimeline(playlist: playlist, dateOrigin: dateOrigin)
        indexesAsNeeded = options.indexing == .asNeeded && playlist.hasEndList
        self.reads = reads
        // Placeholders until the segments are indexed; every stored property must be set first.
        segments = []
        timeBase = TimeBase(numerator: 1, denominator: 90_000)
        index = HLSWindowIndex(
            table: FrameTable(
                streamIndex: 0, timeBase: timeBase, originPTS: 0, frames: [],
                randomAccessPoints: [], source: .packetScan),
            locations: [], globalIndices: [:])
        media = MediaDescription(
            path: url, container: offsets == nil ? "hls" : "dash", startTime: .zero, duration: nil, streams: [],
            selectedStreamIndex: 0)
        if indexesAsNeeded {
            try describeStreams(at: describingAt)
            openReads = self.reads
            return
        }
        segments = indexWindow(reusing: [])
        guard let first = segments.lazy.compactMap(\.frames).first else {
            let cause =
                segments.first.map { segment -> String in
                    if case .failure(let error)? = segment.content { return error.description }
                    return "no frames"
                } ?? "the playlist lists no segments"
            throw MediaError(path: url, reason: .noPlayableStream, cause: "no segment can be read: \(cause)")
        }
        timeBase = windowTimeBase(forStream: first.table.timeBase)
        try rebuildIndex()
        openReads = self.reads
    }

    /// Sets `timeBase` and `media` without reading the window's segments yet: from the
    /// EXT-X-MAP section (a CMAF or DASH init segment) when `time` is nil and the first segment
    /// has one, as a player is ready once it has the manifest and the init segment; else from
    /// the segment holding `time` (the window's start when nil), or when it cannot be read the
    /// nearest after it that can, else the nearest before it.
    ///
    /// - Throws: `MediaError` (`.noPlayableStream`) when no segment can be read.
    private func describeStreams(at time: MediaTime?) throws(MediaError) {
        let playlist = timeline.playlist
        segments = playlist.segments.indices.map {
            IndexedSegment(segment: playlist.segments[$0], start: timeline.segmentStarts[$0], content: nil)
        }
        if time == nil, let first = playlist.segments.first, let map = first.map, map.key == nil || map.key?.iv != nil,
            let section = try? mapSection(map, sequence: first.mediaSequence),
            let described = try? FFmpegEngine.describe(
                bytes: section, name: SegmentFetcher.location(of: map.uri), options: options),
            described.streams.indices.contains(described.selectedStreamIndex)
        {
            timeBase = windowTimeBase(forStream: described.selectedStream.timeBase)
            describeWindow(streams: described)
            streamsFromInitSection = true
            return
        }
        var firstCause: String?
        let holding = segmentPosition(holding: time ?? .zero)
        for position in Array(holding..<segments.count) + (0..<holding).reversed() {
            guard let frames = indexSegment(at: position) else {
                if firstCause == nil, case .failure(let error)? = segments[position].content {
                    firstCause = error.description
                }
                continue
            }
            timeBase = windowTimeBase(forStream: frames.table.timeBase)
            describeWindow(streams: frames.media)
            return
        }
        throw MediaError(
            path: url, reason: .noPlayableStream,
            cause: "no segment can be read: \(firstCause ?? "the playlist lists no segments")")
    }

    /// The window table's time base for a stream counted in `own` ticks: an HLS window's
    /// (`HLSWindowIndex.timeBase(forStream:)`), fine enough for the playlist's EXTINF starts;
    /// a DASH presentation's own, since its frames are placed by their own timestamps, which
    /// a coarser or other clock would round (1/12288 s does not divide into 1/90000 s).
    func windowTimeBase(forStream own: TimeBase) -> TimeBase {
        mediaTimeOffsets != nil && own.numerator == 1 ? own : HLSWindowIndex.timeBase(forStream: own)
    }

    /// `media` for a window not indexed whole: its span, and the streams `described` names.
    func describeWindow(streams described: MediaDescription) {
        let window = timeline.window.seekableRange
        media = MediaDescription(
            path: url, container: container, startTime: .zero, duration: window.upperBound - window.lowerBound,
            streams: described.streams, selectedStreamIndex: described.selectedStreamIndex)
    }

    /// The window as of the last load or reload.
    public var liveSeekWindow: LiveSeekWindow { timeline.window }

    /// When to reload next (`HLSTimeline.reloadDelay`): the target duration after a load that
    /// changed the playlist, half of it after one that did not, nil once it has EXT-X-ENDLIST
    /// or when it is VOD.
    public var reloadDelay: MediaTime? { timeline.reloadDelay }

    /// The EXT-X-PROGRAM-DATE-TIME date of the landed frame; nil before any landing or when the
    /// playlist has no dates.
    ///
    /// Dated by the segment the frame came from: its date, plus where the segment's first
    /// keyframe was placed after its listed start (DASH places it by its timestamp), plus the
    /// frame's distance from that keyframe in the segment's own table. Not by the frame's time
    /// on the window: that is rounded down to the window's ticks, which puts the first frame of
    /// a segment whose EXTINF start is off the 1/90000 grid before that start, in the segment
    /// before, whose date may be an hour away across an EXT-X-PROGRAM-DATE-TIME jump.
    public var landedDate: ProgramDate? {
        guard let location = landedLocation,
            let listed = liveSeekWindow.segments.first(where: { $0.mediaSequence == location.sequence }),
            let date = listed.date,
            let indexed = segments.first(where: { $0.segment.mediaSequence == location.sequence }),
            let table = indexed.frames?.table, table.frames.indices.contains(location.localIndex),
            table.frames.indices.contains(table.leadingPictureCount)
        else { return nil }
        let sinceKeyframe = table.frames[location.localIndex].time - table.frames[table.leadingPictureCount].time
        return date.advanced(by: (indexed.start - listed.start) + sinceKeyframe)
    }

    /// The landed frame's picture, from the segment engine holding it (see
    /// `FFmpegEngine.landedPicture()`); nil before any landing.
    ///
    /// - Throws: `MediaError` as `FFmpegEngine.landedPicture()` does.
    public func landedPicture() throws(MediaError) -> DecodedPicture? {
        try currentSegmentEngine?.landedPicture()
    }

    /// The landed frame's samples, from the segment engine holding it (see
    /// `FFmpegEngine.landedAudio()`); nil before any landing.
    ///
    /// - Throws: `MediaError` as `FFmpegEngine.landedAudio()` does.
    public func landedAudio() throws(MediaError) -> DecodedAudio? {
        try currentSegmentEngine?.landedAudio()
    }

    /// Seeks as the landing rules say, on the window's frame table, and decodes the landed frame
    /// with the engine of the segment that holds it.
    ///
    /// - Throws: `MediaError`: `.invalidRequest` for a target no landing can satisfy,
    ///   `.readFailed` when the segment cannot be fetched again, the segment engine's errors
    ///   while decoding, `.interrupted` when `interruption` is set (the previous landing stays).
    public func seek(
        to time: MediaTime, precision: SeekPrecision,
        interruption: SeekInterruptionFlag?
    ) throws(MediaError) -> SeekLanding {
        if indexesAsNeeded, !indexesWholeWindow {
            return try seekInSegments(to: time, precision: precision, interruption: interruption)
        }
        let readsBefore = reads
        let plan = try frameTable.planLanding(at: time, precision: precision, for: url)
        return try land(plan, on: index, mode: .decode, interruption: interruption, readsBefore: readsBefore)
    }

    /// Carries out a plan made on the window's table: plans the same frame on its segment's
    /// table and lets that segment's engine land on it. The landing reports the global plan
    /// and frame, with the work the segment engine did.
    /// `index` is the whole window's (`isWholeWindow`), or a run of segments'
    /// (`seekInSegments`), whose frame numbers are not the window's: the landing then says it
    /// is not indexed. Its reads are what was fetched since `readsBefore`.
    func land(
        _ plan: LandingPlan, on index: HLSWindowIndex, isWholeWindow: Bool = true, mode: LandingMode,
        interruption: SeekInterruptionFlag?, readsBefore: MediaReads
    ) throws(MediaError) -> SeekLanding {
        let start = ContinuousClock.now
        let location = index.locations[plan.frameIndex]
        let engine = try segmentEngine(location.sequence)
        if location.localIndex < engine.frameTable.leadingPictureCount {
            // A leading picture of an open GOP at the segment's start refers to the segment
            // before, which a player has decoded: decode it after that segment (the window
            // lists it only where that segment is there).
            let leading: (SeekLanding, (engine: FFmpegEngine, localIndex: Int, keyframe: (sequence: Int, localIndex: Int)?))?
            do { leading = try landLeadingPicture(location, of: engine, mode: mode, interruption: interruption) } catch {
                if error.reason != .interrupted { undecodableLeadingPictures.insert(location) }
                throw error
            }
            guard let leading else {
                // Steps pass over it from now on, as over any frame the decoder cannot produce.
                undecodableLeadingPictures.insert(location)
                throw MediaError(
                    path: url, reason: .decodeFailed,
                    cause: "segment \(location.sequence) frame \(location.localIndex) is a leading picture that no decode after "
                        + "the segment before produces")
            }
            return landing(
                plan, on: index, isWholeWindow: isWholeWindow, local: leading.0, landedIn: leading.1, since: start, readsBefore: readsBefore
            )
        }
        let localPlan: LandingPlan
        do {
            localPlan = try engine.frameTable.planLanding(onFrame: location.localIndex)
        } catch {
            throw MediaError(
                path: url, reason: .decodeFailed,
                cause: "segment \(location.sequence) frame \(location.localIndex): \(error.description)")
        }
        var local: SeekLanding
        var landedIn = (engine: engine, localIndex: 0, keyframe: nil as (sequence: Int, localIndex: Int)?)
        do {
            local = try engine.land(localPlan, mode: mode, interruption: interruption)
            landedIn.localIndex = local.frame.index
            landedIn.keyframe = local.keyframeIndex.map { (location.sequence, $0) }
        } catch  where engine.undecodable[location.localIndex] != nil {
            // A leading picture of an open GOP at the segment's start refers to the segment
            // before, which a player has decoded: decode it after that segment.
            guard let leading = try landLeadingPicture(location, of: engine, mode: mode, interruption: interruption) else { throw error }
            (local, landedIn) = leading
        }
        return landing(
            plan, on: index, isWholeWindow: isWholeWindow, local: local, landedIn: landedIn, since: start, readsBefore: readsBefore)
    }

    /// The global landing for `plan` from the segment engine's `local` one, after which the
    /// engine stands on it.
    private func landing(
        _ plan: LandingPlan, on index: HLSWindowIndex, isWholeWindow: Bool, local: SeekLanding,
        landedIn: (engine: FFmpegEngine, localIndex: Int, keyframe: (sequence: Int, localIndex: Int)?),
        since start: ContinuousClock.Instant, readsBefore: MediaReads
    ) -> SeekLanding {
        let location = index.locations[plan.frameIndex]
        let global = index.globalIndex(sequence: location.sequence, localIndex: landedIn.localIndex) ?? plan.frameIndex
        currentSegmentEngine = landedIn.engine
        currentFrameIndex = isWholeWindow ? global : nil
        landedLocation = index.locations[global]
        landedFrame = index.table.frames[global]
        return SeekLanding(
            plan: plan, frame: index.table.frames[global],
            keyframeIndex: landedIn.keyframe.flatMap { index.globalIndex(sequence: $0.sequence, localIndex: $0.localIndex) },
            framesDecoded: local.framesDecoded, demuxerSeeks: local.demuxerSeeks,
            latency: ContinuousClock.now - start, decodeErrors: local.decodeErrors,
            missingData: index.table.missingData(at: plan.target),
            reads: reads - readsBefore, isIndexed: isWholeWindow)
    }

    /// The engine of segment `sequence`: an open one, or the segment fetched and opened again.
    ///
    /// - Throws: `MediaError` (`.readFailed`) naming the segment when it is no longer in the
    ///   window or cannot be fetched or opened now.
    func segmentEngine(_ sequence: Int) throws(MediaError) -> FFmpegEngine {
        if let open = engines.engine(sequence) { return open }
        guard let segment = segments.first(where: { $0.segment.mediaSequence == sequence })?.segment else {
            throw MediaError(path: url, reason: .readFailed, cause: "segment \(sequence) is no longer in the window")
        }
        let engine = try openSegment(segment)
        engines.insert(engine, for: sequence)
        return engine
    }
}
