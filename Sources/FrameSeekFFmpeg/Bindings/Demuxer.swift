internal import CFFmpeg
import Foundation
import FrameSeekCore

/// An open `AVFormatContext`: the one place FrameSeek reads containers.
///
/// Every stream but the selected one is set to `AVDISCARD_ALL`, so demuxers that can skip
/// other streams' data do.
final class Demuxer {
    let context: UnsafeMutablePointer<AVFormatContext>
    let path: String
    /// Where FFmpeg's messages about this file go; kept alive as long as the context.
    let log: FFmpegLogSink
    /// The bytes read instead of `path` when the media is in memory; nil for files and URLs.
    let memory: MemoryInput?
    /// The context reading `memory`, freed after the format context (stored properties are
    /// released after `deinit` has closed it).
    private let reader: MemoryReader?
    /// The context reading the file with its payloads skipped, for an index scan; freed after
    /// the format context, as `reader` is.
    let payloadSkipping: PayloadSkippingReader?
    /// The context reading a file over HTTP in bounded ranges; nil for anything else.
    let ranged: RangedHTTPReader?
    /// How a file over HTTP is read (`RangedHTTPReader`); a demuxer opened again from this one
    /// takes the same.
    let network: NetworkPolicy
    /// What named the media: the user (`.local`), or a playlist fetched over the network, for
    /// media in memory. It bounds the protocols the demuxer may open (`ResourceOrigin`); a
    /// demuxer opened again from this one takes the same.
    let origin: ResourceOrigin
    /// Bounds each open, read and seek of media over the network in wall-clock time
    /// (`NetworkPolicy.timeout`); nil for local files and media in memory, whose reads FFmpeg's
    /// network protocols do not make.
    private let deadline: NetworkDeadline?

    /// Opens `path` (a file or any URL FFmpeg's I/O layer reads) and reads stream info.
    /// FFmpeg's error messages while opening and reading go to `log`.
    ///
    /// With `memory`, FFmpeg reads those bytes through a custom `AVIOContext` instead, and
    /// `path` is only the name it probes and logs by.
    ///
    /// - Throws: `FFmpegError` from `avformat_alloc_context`, `avformat_open_input` or
    ///   `avformat_find_stream_info`, or `MemoryReader`'s allocations.
    ///
    /// With `probingStreams` false, stream info is read only when the container's header does
    /// not list its streams (`AVFMTCTX_NOHEADER`: MPEG-TS, FLV, ...): a second demuxer of a file
    /// already probed needs only the packets, and probing would decode frames for nothing.
    ///
    /// With `skippingPayloads`, FFmpeg reads `path` through that context, with no parser
    /// (`AVFMT_FLAG_NOPARSE`: packets carry the flags of the container's index and nothing
    /// looks at their payload) and without probing streams: the demuxer of an index scan.
    init(
        path: String, log: FFmpegLogSink, memory: MemoryInput? = nil, probingStreams: Bool = true,
        skippingPayloads: PayloadSkippingReader? = nil, network: NetworkPolicy = NetworkPolicy(),
        origin: ResourceOrigin = .local
    ) throws(FFmpegError) {
        ProcessMemory.limitFFmpegBlocks()
        let reader = try memory.map { input throws(FFmpegError) in try MemoryReader(input) }
        // Allocated here rather than by avformat_open_input, so that the messages it logs
        // while probing already carry the sink's token.
        var context: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
        guard let allocated = context else {
            throw FFmpegError(function: "avformat_alloc_context", code: fs_averror(ENOMEM))
        }
        allocated.pointee.opaque = log.token
        let deadline = memory == nil && ResourceOrigin.of(path) == .remote ? NetworkDeadline() : nil
        if let deadline {
            allocated.pointee.interrupt_callback = deadline.callback
            deadline.arm(network.timeout)
        }
        // A plain file over HTTP is read in bounded ranges; a playlist is left to FFmpeg, whose
        // HLS demuxer fetches its segments itself.
        let isPlainRemoteFile = memory == nil && skippingPayloads == nil && RangedHTTPReader.reads(path)
        // Protocol contexts belong to no engine: their messages (a certificate that does not
        // verify, a redirect loop) reach this demuxer's log only when attributed to it.
        let ranged = isPlainRemoteFile ? FFmpegLog.attributing(to: log) { RangedHTTPReader(url: path, policy: network) } : nil
        allocated.pointee.pb = reader?.context ?? skippingPayloads?.context ?? ranged?.reading.context
        if skippingPayloads != nil { allocated.pointee.flags |= AVFMT_FLAG_NOPARSE }
        // One dictionary for every open: the protocols this media's origin allows (so a demuxer
        // that opens further resources, such as a playlist's, cannot reach a local file from
        // remote media), timeouts, certificate checks, redirects.
        let whitelist =
            memory == nil && origin == .local ? ResourceOrigin.whitelist(forGiven: path) : origin.protocolWhitelist
        let options = network.openOptions(whitelist: whitelist)
        // On failure avformat_open_input frees the context and sets it to NULL.
        try check(FFmpegLog.attributing(to: log) { avformat_open_input(&context, path, nil, &options.pointer) }, "avformat_open_input")
        guard let opened = context else { throw FFmpegError(function: "avformat_open_input", code: fs_averror_invaliddata()) }
        // Before any stored property is set: a class initializer that throws once they all are
        // runs `deinit`, which would close the context a second time (found by the fuzzer).
        do {
            if skippingPayloads == nil && (probingStreams || opened.pointee.ctx_flags & AVFMTCTX_NOHEADER != 0) {
                try check(avformat_find_stream_info(opened, nil), "avformat_find_stream_info")
            }
        } catch {
            avformat_close_input(&context)
            throw error
        }
        self.context = opened
        self.path = path
        self.log = log
        self.memory = memory
        self.reader = reader
        self.payloadSkipping = skippingPayloads
        self.ranged = ranged
        self.network = network
        self.origin = origin
        self.deadline = deadline
        if !Self.checksumsThroughBuffer(formatName) { ranged?.headerWasRead() }
    }

    /// Whether `formatName`'s demuxer checksums what it reads as the bytes pass through its
    /// context's buffer (`ffio_init_checksum`): Ogg's CRC of each page, NUT's of its frames. A
    /// context that sends every seek to its reader (`RangedHTTPReader.headerWasRead()`) drops
    /// its buffer at each, and the sum then covers other bytes: over HTTP, every Ogg page after
    /// the first failed its CRC and was skipped, and the stream seemed to end after a second.
    static func checksumsThroughBuffer(_ formatName: String) -> Bool { formatName == "ogg" || formatName == "nut" }

    /// Another demuxer of the same media, with the same log, memory, network policy and
    /// origin: a second reader of what this one opened.
    ///
    /// - Throws: `FFmpegError` as `init` does.
    func reopened(probingStreams: Bool = true) throws(FFmpegError) -> Demuxer {
        try Demuxer(path: path, log: log, memory: memory, probingStreams: probingStreams, network: network, origin: origin)
    }

    deinit {
        var toClose: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&toClose)
    }

    var streamCount: Int { Int(context.pointee.nb_streams) }

    /// The stream at `index`, which the caller keeps below `streamCount`.
    func avStream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        context.pointee.streams[index]!
    }

    /// The container's start time in microseconds, nil when unknown.
    var startTimeMicroseconds: Int64? {
        context.pointee.start_time == fs_nopts_value() ? nil : context.pointee.start_time
    }

    /// The container's duration in microseconds, nil when unknown.
    var durationMicroseconds: Int64? {
        context.pointee.duration == fs_nopts_value() || context.pointee.duration <= 0 ? nil : context.pointee.duration
    }

    /// Whether the header states the container's duration (`fs_format_duration_is_stated`),
    /// rather than FFmpeg estimating it from timestamps or the bit rate.
    var durationIsStated: Bool { fs_format_duration_is_stated(context) != 0 }

    var formatName: String { String(cString: context.pointee.iformat.pointee.name) }

    /// The container's bit rate in bits a second, as its header states it or FFmpeg works it out
    /// from the file's size and duration; nil when unknown.
    var bitRate: Int64? { context.pointee.bit_rate > 0 ? context.pointee.bit_rate : nil }

    /// The input's size in bytes (`avio_size`), nil when its protocol cannot tell.
    var byteSize: Int64? {
        guard let io = context.pointee.pb else { return nil }
        let size = avio_size(io)
        return size >= 0 ? size : nil
    }

    /// Reads only `streamIndex`'s packets from now on.
    func selectOnly(streamIndex: Int) {
        for index in 0..<streamCount {
            avStream(index).pointee.discard = index == streamIndex ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    /// Reads the next packet. Returns false at the end of the file.
    ///
    /// - Throws: `FFmpegError` from `av_read_frame`.
    func read(into packet: Packet) throws(FFmpegError) -> Bool {
        deadline?.arm(network.timeout)
        let code = av_read_frame(context, packet.pointer)
        if code == fs_averror_eof() { return false }
        try check(code, "av_read_frame")
        return true
    }

    /// How many entries the container's index of `streamIndex` holds: one per sample in decode
    /// order for MP4, after edit lists; 0 when the demuxer keeps none.
    func indexEntryCount(of streamIndex: Int) -> Int {
        Int(avformat_index_get_entries_count(avStream(streamIndex)))
    }

    /// The bytes one entry of a container's index costs: the `AVIndexEntry` (24), up to a
    /// sixteenth more where FFmpeg grew the array an entry at a time, and the composition
    /// offset (8) the mov demuxer keeps beside each sample; rounded up.
    static let indexBytesPerEntry = 40

    /// The memory the container's index holds, from its entry counts in every stream (a
    /// discarded stream keeps its index too): an MP4's demuxer holds its whole sample table,
    /// however few packets it reads.
    var indexBytes: Int {
        (0..<streamCount).reduce(0) { $0 + indexEntryCount(of: $1) } * Self.indexBytesPerEntry
    }

    /// Whether every entry of `streamIndex`'s index has a position and ends within the first
    /// `size` bytes (`fs_index_entries_lie_within`, one pass in C).
    func indexEntriesLie(in size: Int64, of streamIndex: Int) -> Bool {
        fs_index_entries_lie_within(avStream(streamIndex), size) != 0
    }

    /// The timestamps of the first `count` entries of the container's index of `streamIndex`,
    /// and their flags (`SampleTablePackets.keyframe`, `.discarded`), copied in one pass in C
    /// (`fs_index_entries_copy`); nil when the index holds fewer.
    func indexTimestampsAndFlags(of streamIndex: Int, count: Int) -> (timestamps: [Int64], flags: [UInt8])? {
        guard count > 0, let count32 = Int32(exactly: count) else { return count == 0 ? ([], []) : nil }
        var copied = false
        var flags: [UInt8] = []
        let timestamps = [Int64](unsafeUninitializedCapacity: count) { timestampBuffer, timestampsCount in
            flags = [UInt8](unsafeUninitializedCapacity: count) { flagBuffer, flagsCount in
                copied =
                    fs_index_entries_copy(
                        avStream(streamIndex), count32, timestampBuffer.baseAddress,
                        flagBuffer.baseAddress) != 0
                flagsCount = copied ? count : 0
            }
            timestampsCount = copied ? count : 0
        }
        return copied ? (timestamps, flags) : nil
    }

    /// Entry `position` of the container's index of `streamIndex` (`avformat_index_get_entry`),
    /// copied out: the pointer FFmpeg gives is only valid until its next libavformat call.
    func indexEntry(of streamIndex: Int, at position: Int) -> ContainerIndexEntry? {
        guard let entry = avformat_index_get_entry(avStream(streamIndex), Int32(position)) else { return nil }
        return ContainerIndexEntry(
            position: entry.pointee.pos, timestamp: entry.pointee.timestamp,
            size: Int(fs_index_entry_size(entry)),
            isKeyframe: fs_index_entry_is_keyframe(entry) != 0,
            isDiscarded: fs_index_entry_is_discarded(entry) != 0)
    }

    /// What this demuxer has read since it was opened: its I/O context's byte count
    /// (`AVIOContext.bytes_read`, which every context keeps, FFmpeg's and ours); over HTTP the
    /// bytes its ranged reader's responses carried (each request's range, which the server
    /// sends whole, though reading may stop short of its end) and the requests it made: what
    /// crossed the network, as the server counts it.
    var reads: MediaReads {
        if let traffic = ranged?.traffic { return MediaReads(bytes: traffic.bytesRequested, requests: traffic.requests) }
        return MediaReads(bytes: context.pointee.pb.map { $0.pointee.bytes_read } ?? 0, requests: nil)
    }

    /// Over HTTP, that reads will come from `range` next (`RangedHTTPReader.expect(_:)`).
    func expectReads(in range: Range<Int64>?) { ranged?.expect(range) }

    /// Over HTTP, frees the bytes kept to be read again (`RangedHTTPReader.forgetFetchedBytes()`).
    func forgetFetchedBytes() { ranged?.forgetFetchedBytes() }

    /// Over HTTP, that reads will likely stay in `range` (`RangedHTTPReader.expectReadsToStay(in:)`).
    func expectReadsToStay(in range: Range<Int64>?) { ranged?.expectReadsToStay(in: range) }

    /// Seeks `streamIndex` to the last sample at or before `timestamp`, keyframe or not
    /// (`AVSEEK_FLAG_ANY`): how one packet is read on its own.
    ///
    /// - Throws: `FFmpegError` from `av_seek_frame`.
    func seekToAnySample(streamIndex: Int, atOrBefore timestamp: Int64) throws(FFmpegError) {
        deadline?.arm(network.timeout)
        try check(av_seek_frame(context, Int32(streamIndex), timestamp, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_ANY), "av_seek_frame")
    }

    /// Tells a demuxer that seeks through FFmpeg's generic index (`AVFMT_GENERIC_INDEX`: MP3,
    /// ADTS AAC, raw streams) that the packet with DTS `timestamp` starts at byte `position`,
    /// as the frame table knows. That index holds only the packets read so far, so without the
    /// entry a seek past them reads every packet up to the target (half of a three-hour MP3 for
    /// a seek to its middle). Other demuxers keep their own index and are left alone.
    func addSeekPoint(streamIndex: Int, position: Int64, timestamp: Int64) {
        guard context.pointee.iformat.pointee.flags & AVFMT_GENERIC_INDEX != 0 else { return }
        av_add_index_entry(avStream(streamIndex), position, timestamp, 0, 0, AVINDEX_KEYFRAME)
    }

    /// Adds a keyframe entry to `streamIndex`'s index (`av_add_index_entry`) whatever the
    /// demuxer: a Matroska cluster that `MatroskaClusterBisection` found, where FFmpeg's
    /// Matroska seek goes as it goes to a cue.
    func addKeyframeEntry(streamIndex: Int, position: Int64, timestamp: Int64) {
        av_add_index_entry(avStream(streamIndex), position, timestamp, 0, 0, AVINDEX_KEYFRAME)
    }

    /// Seeks `streamIndex` to the keyframe `point`, by the timestamp this demuxer finds it by.
    ///
    /// Most demuxers seek by a time where the smaller of DTS and PTS never lands after the
    /// keyframe (MPEG-TS bisects by DTS). Two take the PTS, as a DTS there lands a whole GOP
    /// early: a GOP read for nothing, megabytes over HTTP. FFmpeg's mov demuxer shifts the PTS
    /// by the composition offset before searching its DTS index (`mov_seek_stream`); Matroska's
    /// index (its Cues, and the keyframes it adds as it reads) holds each keyframe's PTS, and
    /// the DTS FFmpeg guesses for a keyframe is below it. A PTS that lands late is for the
    /// caller to send further back.
    ///
    /// - Throws: `FFmpegError` from `av_seek_frame`.
    func seek(streamIndex: Int, toKeyframe point: RandomAccessPoint) throws(FFmpegError) {
        let format = formatName
        let byPTS = format.hasPrefix("mov") || format == "matroska,webm"
        let timestamp = byPTS ? point.pts : min(point.dts ?? point.pts, point.pts)
        try seek(streamIndex: streamIndex, to: timestamp)
    }

    /// Seeks `streamIndex` to the last keyframe at or before `timestamp` (stream time base).
    ///
    /// - Throws: `FFmpegError` from `av_seek_frame`.
    func seek(streamIndex: Int, to timestamp: Int64) throws(FFmpegError) {
        deadline?.arm(network.timeout)
        try check(av_seek_frame(context, Int32(streamIndex), timestamp, AVSEEK_FLAG_BACKWARD), "av_seek_frame")
    }
}

/// One entry of a container's index, as `Demuxer.indexEntries(of:)` copies it.
struct ContainerIndexEntry: Sendable, Hashable {
    /// The sample's byte offset in the file.
    let position: Int64
    /// Its timestamp as the demuxer indexes it: the DTS, for MP4.
    let timestamp: Int64
    /// Its size in bytes.
    let size: Int
    /// Whether decoding can start at it (a sync sample).
    let isKeyframe: Bool
    /// Whether an edit list discards it.
    let isDiscarded: Bool

    /// The sample's bytes in the file; nil when its position and size, both the container's
    /// to state, pass 64 bits.
    var bytes: Range<Int64>? {
        let (end, overflow) = position.addingReportingOverflow(Int64(size))
        return overflow || size < 0 ? nil : position..<end
    }
}
