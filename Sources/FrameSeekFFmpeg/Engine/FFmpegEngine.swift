import Foundation
import FrameSeekCore

/// The FFmpeg playback engine: opens media, indexes the selected stream, and lands seeks on
/// exactly the frame the landing rules name.
///
/// Not Sendable: it owns an `AVFormatContext` and an `AVCodecContext`, which FFmpeg does not
/// allow two threads to touch. Keep each engine on one executor (the CLI is single-threaded;
/// `Player` confines its engine to one actor).
public final class FFmpegEngine: PlaybackEngine {
    /// How to open media.
    public struct Options: Sendable, Hashable {
        /// The absolute index of the stream to seek in (as ffprobe numbers streams); nil picks
        /// FFmpeg's best video stream, else its best audio stream.
        public var streamIndex: Int?
        /// Decoder threads. 1 keeps latency lowest and measurements comparable across
        /// machines; 0 lets FFmpeg use every core.
        public var threads: Int
        /// The frame cache's bound in bytes; 0 turns the cache off.
        public var cacheBytes: Int
        /// Whether decoding toward a target skips the non-reference frames before it
        /// (`skip_frame = AVDISCARD_NONREF` per packet, never on the target's own packet).
        /// Changes no pixel of any landed frame; off only to measure what it saves.
        public var skipsNonReferenceFrames: Bool
        /// The bound in bytes on what the decoders parked in recently visited GOPs hold, their
        /// pictures and their demuxers' indexes (see `decoderPoolBoundBytes`); 0 keeps one
        /// decoder, as a pool of one.
        public var decoderPoolBytes: Int
        /// Whether opening decodes keyframes on a second core while the file is scanned, for
        /// landings that decode a keyframe alone (thumbnails; see `KeyframePrefetch`). Changes
        /// no landing and no pixel; costs a decoder and at most 64 MiB of pictures. An MP4 read
        /// from its index is not scanned, so nothing is prefetched there: its index says where
        /// each keyframe is, and a landing reads that keyframe alone.
        public var prefetchesKeyframes = false
        /// Tests: the prefetch decodes every keyframe the scan passes, and opening waits for
        /// them, so which landings it serves does not depend on timing.
        package var prefetchesEveryKeyframe = false
        /// Whether an MP4 or MOV is indexed from its sample table, reading only its boxes
        /// (`FrameTable.Source.containerIndex`); tests turn it off to compare with the full scan.
        package var readsContainerIndex = true
        /// Where frame tables are kept between opens of a local file (`IndexCache`); nil, the
        /// default, builds every table from the media. The command line uses
        /// `IndexCache.defaultDirectory` unless given `--no-index-cache`.
        public var indexCache: IndexCache?
        /// Whether the whole stream is indexed when the media opens, or only what each seek
        /// needs (`FrameIndexing`). `full` by default; the command line's `seek` reads windows
        /// unless given `--index full`.
        public var indexing = FrameIndexing.full
        /// How media over HTTP is read: retries and timeouts (`NetworkPolicy`).
        public var network = NetworkPolicy()
        /// What named media opened from memory (`init(bytes:name:options:)`), which bounds
        /// what its demuxer may open in turn: remote unless a local playlist named it.
        package var memoryOrigin = ResourceOrigin.remote
        /// Whether the leading pictures of the first keyframe (an open GOP's RASL pictures, shown
        /// before the CRA they follow in decode order) are frames of the table. They are not in a
        /// file, whose decode starts there and drops them; a playlist's segment keeps them, since
        /// a decode that comes from the segment before shows them (`HLSEngine`).
        package var listsLeadingPictures = false
        /// How HDR pictures (PQ, HLG) are brought to SDR BT.709 in every picture the engine
        /// makes; SDR pictures and MD5s are the same whatever it says.
        public var toneMapping = ToneMapping.default
        /// Threads that convert each picture to RGB side by side, a slice of its rows each
        /// (`ScaleContext`); 1 converts on the engine's own thread. The pixels are the same
        /// whatever it says. By default one per core, at most 2 (the Performance article's
        /// "Pictures on two threads").
        public var conversionThreads = Options.defaultConversionThreads
        /// Whether a forward step lands the next one on another thread while the caller works
        /// with its frame (`DecodeAhead`), as a player decodes ahead: step after step with a
        /// picture each, decoding and conversion then share the cores. Steps land on the same
        /// frames, with the same pixels and reports but for their latency, which is the time the
        /// caller waited; a later landing on a frame decoded ahead and never taken finds it
        /// without decoding it again.
        public var decodesAhead = true

        /// One conversion thread per core, at most 2.
        public static let defaultConversionThreads = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 2)
        /// The default frame cache bound (192 MiB).
        public static let defaultCacheBytes = FrameCache.defaultCapacityBytes
        /// The default bound on the decoder pool (256 MiB).
        public static let defaultDecoderPoolBytes = DecoderPool.defaultBoundBytes

        /// Options with FFmpeg's stream choice, one decoder thread, the default cache and the
        /// default decoder pool.
        public init(
            streamIndex: Int? = nil, threads: Int = 1, cacheBytes: Int = Options.defaultCacheBytes,
            skipsNonReferenceFrames: Bool = true, decoderPoolBytes: Int = Options.defaultDecoderPoolBytes
        ) {
            self.streamIndex = streamIndex
            self.threads = threads
            self.cacheBytes = cacheBytes
            self.skipsNonReferenceFrames = skipsNonReferenceFrames
            self.decoderPoolBytes = decoderPoolBytes
        }
    }

    /// The opened media (as the last landing left it while a step is decoded ahead).
    public var media: MediaDescription { decodeAhead.standing?.media ?? executor.media }
    /// The selected stream's frames in presentation order. An engine opened with
    /// `FrameIndexing.asNeeded` builds the table on first use (`completeFrameTable()`); should
    /// that fail, this is the seek window the last landing was planned on
    /// (`FrameTable.coversStream` is false), and `completeFrameTable()` throws why.
    public var frameTable: FrameTable {
        if let standing = decodeAhead.standing { return standing.table }
        if !executor.table.coversStream { _ = try? completeFrameTable() }
        return executor.table
    }
    /// How long opening and indexing took.
    public let openLatency: Duration
    /// Frames whose packet the demuxer flagged corrupt while the index was built: damage known
    /// without decoding (`frameseek frames` reports it). Decode errors show on landings.
    public let demuxerFlaggedFrames: Set<Int>
    /// When the table came from the container's index (`FrameTable.Source.containerIndex`): the
    /// bytes the index scan read from the file (its boxes), and the sample bytes it did not
    /// read. Nil for a table from a full scan, which reads every byte.
    public let indexScanBytes: (read: Int64, skipped: Int64)?
    /// For a file over HTTP, what opening it cost: the header, the sample table's boxes and the
    /// packets that checked them. Nil for local files and playlists.
    public let openTraffic: HTTPTraffic?
    /// What opening read from the media (`MediaReads`; over HTTP, the bytes the responses
    /// carried and the requests): the cost a player pays before its first seek.
    public let openReads: MediaReads
    /// What the index cache did for this open, or for the whole table built after an open
    /// that deferred it; nil without a cache, for media in memory and for URLs.
    public var indexCacheOutcome: IndexCache.Outcome? { deferredIndex?.cacheOutcome ?? openCacheOutcome }
    private let openCacheOutcome: IndexCache.Outcome?
    /// The whole stream's table and the current seek window of an engine opened with
    /// `FrameIndexing.asNeeded` that deferred its table; nil when the open built it.
    let deferredIndex: DeferredIndex?
    /// The frame the engine last landed or stepped on, nil before any and while landings are
    /// planned on a seek window (its frames are not numbered in the stream).
    public var currentFrameIndex: Int? {
        // Steps are decoded ahead only on the whole stream's table.
        if let standing = decodeAhead.standing { return standing.index }
        return executor.table.numbersStreamFrames ? executor.landedFrameIndex : nil
    }
    /// The landed frame, also on a seek window, whose frames are not numbered.
    public var currentFrame: FrameEntry? {
        if let standing = decodeAhead.standing { return standing.table.frames[standing.index] }
        return executor.landedFrameIndex.map { executor.table.frames[$0] }
    }
    /// The name of the FFmpeg decoder that decodes the selected stream (`codec->name`:
    /// `h264`, `hevc`, `libdav1d`, ...). A landing manifest records it because a different
    /// decoder of the same codec may produce different pixels.
    public var decoderName: String { executor.pool.active.decoder.codecName }
    /// The most bytes the frame cache has held.
    public var cachePeakBytes: Int { executor.cache.peakBytes }
    /// The bytes the frame cache holds now.
    public var cacheUsedBytes: Int { executor.cache.usedBytes }
    /// The bound on the bytes the decoder pool's decoders and their demuxers hold together
    /// (`Options.decoderPoolBytes`). One decoder is always kept, so a single decoder that
    /// holds more than the option is the bound then.
    public var decoderPoolBoundBytes: Int { pool.keptBoundBytes }
    /// The most bytes the decoder pool has held after a landing: its decoders' buffer pools at
    /// the largest picture each has made (frames lent to the frame cache included), and their
    /// demuxers' indexes.
    public var decoderPoolPeakBytes: Int { pool.peakHeldBytes }
    /// The most decoders the pool has held at once.
    public var decoderPoolPeakDecoders: Int { pool.peakSlots }
    /// What the decoder pool's demuxers have read so far, retired ones included: the
    /// difference over a step is what the step read, which `FrameStepReport` does not carry.
    public var demuxerReads: MediaReads { pool.reads }

    /// The media's path, or its name when opened from memory: what errors name.
    var path: String { media.path }
    let options: Options
    /// Lands plans: the decoders, where they stand, the landed frame and the frame cache.
    /// Reached through `executor`, which waits for a step decoded ahead.
    private let landingExecutor: LandingExecutor
    /// The executor, once no step is being decoded ahead on another thread (`DecodeAhead`):
    /// every use of it waits here, so only one thread ever touches it. So nothing holds it
    /// across a call that may step on the engine, which starts that thread again: a batch
    /// reaches it anew after each `each` (`executorForBatch`).
    var executor: LandingExecutor {
        decodeAhead.finish()
        return landingExecutor
    }
    /// The next forward step, landed on another thread while the caller works with this one's
    /// frame (`Options.decodesAhead`).
    let decodeAhead = DecodeAhead()
    /// Keyframes decoded while the file was scanned, shared with the engines opened from this
    /// one's index; nil unless `Options.prefetchesKeyframes`.
    package var keyframePrefetch: KeyframePrefetch? { executor.keyframePrefetch }
    /// Converts landed frames and pictures to RGB: the engine's one swscale context and
    /// tone-mapping graph, kept between calls.
    let converter: PixelConverter
    /// The error messages FFmpeg logs for this engine's demuxer and decoders, and no other's.
    let log: FFmpegLogSink
    /// The error messages swscale and the tone-mapping graph log while the caller converts a
    /// picture: a sink of their own, because a step decoding ahead (`DecodeAhead`) logs into
    /// `log` from its worker at the same time, and a failed conversion must quote its own cause.
    let conversionLog = FFmpegLogSink()
    /// The decoders that share a batch's GOP runs with this engine (`BatchDecoders`).
    let batchDecoders = BatchDecoders()
    /// Makes this engine land only the first and last runs of a batch, and its helpers every
    /// run between (`BatchDecoders.leaveRunsToHelpers()`): for tests, since the engine would
    /// otherwise take runs too rather than wait.
    package func leaveBatchRunsToHelpers() { batchDecoders.leaveRunsToHelpers() }

    // A step decoded ahead holds the executor, its demuxer's file and its decoders: they close
    // with the engine, not after it.
    // A step ahead still retrying over damage is stopped rather than waited for.
    deinit { decodeAhead.abandon() }

    /// Opens `path`, a local file or any URL FFmpeg's I/O layer reads, and indexes its stream.
    ///
    /// The first engine opened in a process installs FrameSeek's FFmpeg log callback, which
    /// is process-wide (`av_log_set_callback`), and sets FFmpeg's log level to errors, unless
    /// `FFmpegEngine.logPolicy` is `.leaveCallbackAlone` by then; see `FFmpegLogPolicy`. The first
    /// demuxer opened limits FFmpeg's largest allocation (`ProcessMemory.ffmpegBlockLimit`).
    ///
    /// - Throws: `MediaError` naming the file and the cause: missing, empty, not media, no
    ///   playable stream, truncated, undecodable.
    public convenience init(path: String, options: Options = Options()) throws(MediaError) {
        try MediaOpener.checkLocalFile(path)
        try self.init(path: path, memory: nil, options: options)
    }

    /// Opens media held in memory, read through a custom `AVIOContext` by the same code that
    /// reads files; `name` stands for the path in `media` and in errors, and its extension
    /// helps FFmpeg's probe as a file's would. The fuzzer and its regression tests open their
    /// inputs this way.
    ///
    /// - Throws: `MediaError` as `init(path:options:)` does.
    package convenience init(bytes: [UInt8], name: String, options: Options = Options()) throws(MediaError) {
        guard !bytes.isEmpty else { throw MediaError(path: name, reason: .emptyFile, cause: "empty file (0 bytes)") }
        try self.init(path: name, memory: MemoryInput(bytes: bytes), options: options)
    }

    private init(path: String, memory: MemoryInput?, options: Options) throws(MediaError) {
        let clock = ContinuousClock()
        let start = clock.now
        self.options = options
        self.converter = PixelConverter(toneMapping: options.toneMapping, threads: options.conversionThreads)
        FFmpegLog.installOnce()
        let log = FFmpegLogSink()
        self.log = log
        let demuxer = try MediaOpener.openDemuxer(path, log: log, memory: memory, options: options)
        let streamIndex = try MediaOpener.selectStream(in: demuxer, requested: options.streamIndex, path: path)
        let stream = demuxer.stream(streamIndex)
        let decoderParameters: StreamParameters
        do { decoderParameters = try StreamParameters(copying: stream) } catch {
            throw MediaError(
                path: path, reason: .readFailed, cause: "cannot copy the parameters of stream \(streamIndex): \(error.description)")
        }
        let pool = try MediaOpener.openPool(
            demuxer, opener: DecoderSlotOpener(streamIndex: streamIndex, parameters: decoderParameters, threads: options.threads, log: log),
            options: options, path: path)
        let originPTS = MediaOpener.originPTS(of: demuxer, stream: stream)
        let demuxerForScan = demuxer
        let threads = options.threads
        // A decoder that cannot open only means no prefetch: the landings decode as ever. An
        // MP4's index says where each keyframe is, and so do the Cues of a Matroska file opened
        // as needed (`landsOnListedKeyframes`), so their keyframes are read when asked for
        // rather than all of them during a scan of the whole file.
        let cuesListKeyframes =
            options.indexing == .asNeeded && memory == nil && demuxer.formatName == "matroska,webm"
            && (ByteRangeReader(borrowing: demuxer).flatMap { try? MatroskaClusterBisection.seekHeadListsCues(in: $0) } ?? false)
        let indexLocatesKeyframes =
            cuesListKeyframes
            || (options.readsContainerIndex && memory == nil && demuxer.formatName.hasPrefix("mov")
                && demuxer.indexEntryCount(of: streamIndex) > 0)
        let isVideo = stream.mediaType == .video
        let prefetch =
            !options.prefetchesKeyframes || indexLocatesKeyframes || !isVideo
            ? nil
            : (try? Decoder(parameters: decoderParameters, threads: threads, log: FFmpegLogSink()))
                .map { KeyframePrefetch(decoder: $0, decodesEveryOffer: options.prefetchesEveryKeyframe) }
        var builder = FrameTableBuilder(
            demuxer: demuxer, streamIndex: streamIndex, originPTS: originPTS,
            onKeyframePacket: prefetch.map { prefetch in { prefetch.offer($0) } })
        builder.listsLeadingPictures = options.listsLeadingPictures
        defer { prefetch?.scanEnded() }
        let cacheKey =
            memory == nil && IndexCache.holdsItsOwnMedia(demuxer.formatName)
            ? options.indexCache?.key(
                forFileAt: path, stream: .init(demuxer: demuxer, streamIndex: streamIndex, originPTS: originPTS),
                libraries: MediaOpener.cacheLibraries) : nil
        let cache = IndexCacheSource(cached: cacheKey.flatMap { options.indexCache?.read($0) })
        let decoder = { (demuxer: Demuxer) throws(FFmpegError) -> Decoder in
            try Decoder(stream: demuxer.stream(streamIndex), threads: threads, log: log)
        }
        let makeDecoder = { () throws(FFmpegError) -> Decoder in try decoder(demuxerForScan) }
        // The sources, in the order they answer. A scan that hands keyframes to the prefetch
        // reads every packet's payload, so it is never an index scan.
        let indexSources: [any FrameTableSource] =
            options.readsContainerIndex && prefetch == nil ? [FragmentedMP4Source(), MP4SampleTableSource(), ContainerIndexSource()] : []
        let sources: [any FrameTableSource] =
            [cache] + (isVideo ? indexSources + [PacketScanSource()] : [AudioPacketTableSource(makeDecoder: makeDecoder)])
        let cached = cache.cached
        // Audio lands in windows where a landing's samples may come from a bounded pre-roll
        // inside one (for AAC and AC-3 only where a check allows; else `landedAudio` decodes
        // from the start).
        let windowsFit =
            isVideo
            || (FrameTableBuilder.audioFramesFollowPackets(codecName: stream.codecName)
                && (Self.audioPreroll(codecName: stream.codecName) ?? Self.stateCheckedPreroll(codecName: stream.codecName)) != nil)
        // An entry in the index cache, good or rejected, means the table was wanted whole: it is
        // read, or rebuilt and written again, as a `full` open does.
        let defers =
            options.indexing == .asNeeded && memory == nil && windowsFit && prefetch == nil
            && SeekWindowReader.reads(demuxer, stream: stream) && cached == nil
        let statedDuration = { TruncationCheck.statedDuration(demuxer, streamIndex: streamIndex, originPTS: originPTS) }
        let built: FrameTableBuilder.Result
        let truncation: Truncation?
        if defers {
            let indexCache = options.indexCache
            let carriesDecodeTime = SeekWindowReader.packetsCarryDecodeTime(demuxer)
            let readsPrefix = SeekWindowReader.readsPrefix(demuxer, stream: stream)
            deferredIndex = DeferredIndex(
                windowReader: { demuxer in
                    var reader = SeekWindowReader(
                        builder: FrameTableBuilder(demuxer: demuxer, streamIndex: streamIndex, originPTS: originPTS),
                        streamStart: min(stream.startTime ?? originPTS, originPTS),
                        packetsCarryDecodeTime: carriesDecodeTime, isAudio: !isVideo)
                    if readsPrefix { reader.prefixDecoder = decoder }
                    return reader
                },
                // Taken before any window is read: a fragmented MP4's demuxer updates it from the
                // fragments it reads.
                statedDuration: statedDuration(), indexListsKeyframes: cuesListKeyframes,
                buildTable: { () throws(MediaError) in
                    // The deferred containers have no sample table: a fragmented MP4's boxes, or a
                    // scan. An MP3's packets have their durations from the probe.
                    let fresh = try builder.reopened(probingStreams: readsPrefix)
                    let sources: [any FrameTableSource] =
                        isVideo ? [FragmentedMP4Source(), PacketScanSource()] : [AudioPacketTableSource(makeDecoder: makeDecoder)]
                    let built = try FrameTableChoice(builder: fresh, sources: sources, makeDecoder: makeDecoder).build()
                    guard !built.table.frames.isEmpty else {
                        throw MediaError(path: path, reason: .noPlayableStream, cause: "stream \(streamIndex) has no frames")
                    }
                    return (built, MediaOpener.cacheOutcome(indexCache, key: cacheKey, cached: cached, built: built))
                })
            openCacheOutcome = nil
            // No frame is known before the first seek reads its window; the open read too little
            // to tell a truncated file (a window that reaches the end of the stream does).
            built = FrameTableBuilder.Result(
                table: FrameTable(
                    streamIndex: streamIndex, timeBase: stream.timeBase, originPTS: originPTS, frames: [], randomAccessPoints: [],
                    source: .seekWindow),
                packetOrder: DecodeOrderByPTS(others: [:]))
            truncation = nil
        } else {
            deferredIndex = nil
            built = try FrameTableChoice(builder: builder, sources: sources, makeDecoder: makeDecoder).build()
            openCacheOutcome = MediaOpener.cacheOutcome(options.indexCache, key: cacheKey, cached: cached, built: built)
            guard !built.table.frames.isEmpty else {
                if let cause = TruncationCheck.emptyStreamCause(demuxer, streamIndex: streamIndex) {
                    throw MediaError(path: path, reason: .truncated, cause: cause)
                }
                throw MediaError(path: path, reason: .noPlayableStream, cause: "stream \(streamIndex) has no frames")
            }
            truncation = TruncationCheck.check(demuxer, table: built.table, readError: built.readError, stated: statedDuration())
        }
        demuxerFlaggedFrames = built.corruptFrames
        indexScanBytes = built.indexScanBytes
        openTraffic = demuxer.ranged?.traffic
        openReads = demuxer.reads + (built.separateReads ?? .none)
        let media = MediaProbe.describe(
            demuxer, path: path, selectedStream: streamIndex, truncation: truncation, missingData: built.table.missingData)
        landingExecutor = LandingExecutor(
            media: media, table: built.table, packetOrder: built.packetOrder, pool: pool, cacheBytes: options.cacheBytes,
            skipsNonReferenceFrames: options.skipsNonReferenceFrames, keyframePrefetch: prefetch)
        openLatency = clock.now - start
    }

    /// Opens the media `blueprint` describes once more, with a demuxer and decoder of its own,
    /// and takes its index from there instead of scanning the file again: another decoder for
    /// work split between decoders (`seek(to:precision:decoders:interruption:each:)`), open in
    /// the time one demuxer and one decoder take.
    ///
    /// - Throws: `MediaError` as `init(path:options:)` does, or `.readFailed` when the file no
    ///   longer has the blueprint's stream.
    package init(sharingIndexOf blueprint: EngineBlueprint) throws(MediaError) {
        let clock = ContinuousClock()
        let start = clock.now
        let path = blueprint.path
        options = blueprint.options
        converter = PixelConverter(toneMapping: options.toneMapping, threads: options.conversionThreads)
        FFmpegLog.installOnce()
        let log = FFmpegLogSink()
        self.log = log
        // The blueprint's engine probed the file: this demuxer only reads packets.
        let demuxer = try MediaOpener.openDemuxer(path, log: log, memory: blueprint.memory, probingStreams: false, options: options)
        guard demuxer.streamCount == blueprint.media.streams.count else {
            throw MediaError(
                path: path, reason: .readFailed,
                cause: "the file changed since it was opened: it has \(demuxer.streamCount) streams, not \(blueprint.media.streams.count)")
        }
        let pool = try MediaOpener.openPool(
            demuxer,
            opener: DecoderSlotOpener(
                streamIndex: blueprint.frameTable.streamIndex, parameters: blueprint.decoderParameters, threads: options.threads, log: log),
            options: options, path: path)
        demuxerFlaggedFrames = blueprint.demuxerFlaggedFrames
        indexScanBytes = nil
        openTraffic = nil
        openReads = demuxer.reads
        openCacheOutcome = nil
        deferredIndex = nil
        landingExecutor = LandingExecutor(
            media: blueprint.media, table: blueprint.frameTable, packetOrder: blueprint.packetOrder, pool: pool,
            cacheBytes: options.cacheBytes, skipsNonReferenceFrames: options.skipsNonReferenceFrames,
            keyframePrefetch: blueprint.keyframePrefetch)
        openLatency = clock.now - start
    }
}
