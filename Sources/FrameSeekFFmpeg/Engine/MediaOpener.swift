import Foundation
import FrameSeekCore

/// The steps of opening media that need no engine yet: checking a local path, opening the
/// demuxer and naming its failure, choosing the stream, opening the first decoder, and the
/// index cache's part. `FFmpegEngine`'s initializers run them in order.
enum MediaOpener {
    /// The FFmpeg libraries an index cache entry was made with, in its key: another FFmpeg may
    /// index the same file otherwise.
    static let cacheLibraries = FFmpegLibraries.versions.sorted { $0.key < $1.key }
        .map { "\($0.key) \($0.value)" }.joined(separator: " ")

    /// What the cache did: read the entry, or write `built` (after rejecting a bad entry).
    static func cacheOutcome(
        _ cache: IndexCache?, key: IndexCache.Key?,
        cached: Result<FrameTableBuilder.Result, IndexCacheRejection>?,
        built: FrameTableBuilder.Result
    ) -> IndexCache.Outcome? {
        guard let cache, let key else { return nil }
        switch cached {
        case .success: return .read(path: key.path)
        case .failure(let rejection):
            return .rejected(path: key.path, reason: rejection.reason, rewriteFailure: cache.write(built, as: key))
        case nil:
            guard IndexCache.needsEntry(for: built.table.source) else { return .notNeeded }
            return cache.write(built, as: key).map { .notWritten(reason: $0) } ?? .written(path: key.path)
        }
    }

    /// A demuxer for `path` (or `memory`, named by `options.memoryOrigin`), its failure named
    /// by `openError`.
    static func openDemuxer(
        _ path: String, log: FFmpegLogSink, memory: MemoryInput?,
        probingStreams: Bool = true, options: FFmpegEngine.Options
    ) throws(MediaError) -> Demuxer {
        do {
            return try Demuxer(
                path: path, log: log, memory: memory, probingStreams: probingStreams, network: options.network,
                origin: memory == nil ? .local : options.memoryOrigin)
        } catch {
            throw openError(error, path: path, log: log)
        }
    }

    /// The decoder pool, holding its first decoder: `demuxer` reading only the selected stream,
    /// and a decoder for it that `opener` opens.
    static func openPool(
        _ demuxer: Demuxer, opener: DecoderSlotOpener, options: FFmpegEngine.Options, path: String
    ) throws(MediaError) -> DecoderPool {
        do {
            return DecoderPool(first: try opener.open(reading: demuxer), boundBytes: options.decoderPoolBytes, opener: opener)
        } catch {
            throw MediaError(
                path: path, reason: .streamUnavailable,
                cause: "stream \(opener.streamIndex) cannot be decoded: \(opener.log.message(for: error))")
        }
    }

    /// Local paths get their own checks first, so a missing or empty file is named as such
    /// rather than as whatever FFmpeg's probing makes of it.
    static func checkLocalFile(_ path: String) throws(MediaError) {
        if path.contains("://") { return }
        try checkFileKind(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MediaError(path: path, reason: .fileNotFound, cause: "no such file")
        }
        if isDirectory.boolValue {
            throw MediaError(path: path, reason: .notMedia, cause: "is a directory, not a media file")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        if size == 0 {
            throw MediaError(path: path, reason: .emptyFile, cause: "empty file (0 bytes)")
        }
    }

    /// Names the cause of a failed open from what FFmpeg returned and logged and from how the
    /// file starts (`ContainerSignature`): FFmpeg's codes alone mislead. ENOMEM while reading a
    /// header means the header asks for an impossible size (a damaged count), not that memory
    /// ran out; "invalid data" is a damaged header when the file starts as a container does,
    /// a truncated file when an MP4 lacks its moov, and only otherwise not media at all.
    static func openError(_ error: FFmpegError, path: String, log: FFmpegLogSink) -> MediaError {
        if error.isFileNotFound { return MediaError(path: path, reason: .fileNotFound, cause: "no such file") }
        let logged = log.takeLastError()
        let cause = logged ?? "\(error.function): \(error.message)"
        if error.code == FFmpegError.Code.exit {
            // Only the network deadline interrupts an open (`NetworkDeadline`).
            return MediaError(
                path: path, reason: .readFailed,
                cause: "no answer within the network timeout (NetworkPolicy.timeout, --timeout): \(error.function) was interrupted")
        }
        let signature = ContainerSignature(path: path)
        if error.code == FFmpegError.Code.outOfMemory && error.function != "avformat_alloc_context" {
            return MediaError(
                path: path, reason: .damagedHeader,
                cause:
                    "damaged header: \(signature?.name ?? "the container") header states sizes no file holds (FFmpeg: \(error.message), \(cause))"
            )
        }
        guard error.isInvalidData || error.function == "avformat_find_stream_info" else {
            // FFmpeg's logged words name the cause the code hides ("Error in the pull function",
            // a certificate that does not verify, a redirect loop).
            return MediaError(
                path: path, reason: .readFailed, cause: "cannot open (\(error.description)\(logged.map { ": \($0)" } ?? ""))")
        }
        switch signature {
        // A URL's start is not read here (`ContainerSignature` reads files on disk); the mov
        // demuxer, which probed it as ISO media from its first bytes, speaks for it. A file on
        // disk that only its name calls MP4 is not media.
        case .isoMedia? where cause.contains("moov atom not found"),
            nil where cause.contains("moov atom not found") && (path.hasPrefix("http://") || path.hasPrefix("https://")):
            return MediaError(
                path: path, reason: .truncated,
                cause:
                    "truncated or unfinished MP4: it has no moov box, the index written last, so the file was cut short or never finalized (\(cause))"
            )
        case let container?:
            return MediaError(
                path: path, reason: .damagedHeader,
                cause: "damaged header: the file starts as \(container.name) but FFmpeg cannot read its header (\(cause))")
        case nil:
            return MediaError(path: path, reason: .notMedia, cause: "not a media file FFmpeg can read (\(cause))")
        }
    }

    static func selectStream(in demuxer: Demuxer, requested: Int?, path: String) throws(MediaError) -> Int {
        if let requested {
            guard requested >= 0 && requested < demuxer.streamCount else {
                throw MediaError(
                    path: path, reason: .streamUnavailable,
                    cause:
                        "no stream \(requested) (the file has \(demuxer.streamCount) stream\(demuxer.streamCount == 1 ? "" : "s"), numbered from 0)"
                )
            }
            let type = demuxer.stream(requested).mediaType
            guard type == .video || type == .audio else {
                throw MediaError(
                    path: path, reason: .streamUnavailable,
                    cause: "stream \(requested) is \(type.rawValue); FrameSeek seeks in video or audio streams")
            }
            // A cover has one picture and no timeline: nothing to seek in, and its missing
            // timestamps would otherwise be blamed on the file.
            guard !demuxer.stream(requested).isAttachedPicture else {
                let audio = demuxer.bestStream(of: .audio).map { "; the audio is stream \($0)" } ?? ""
                throw MediaError(
                    path: path, reason: .streamUnavailable,
                    cause: "stream \(requested) is an attached picture (cover art), a still with no timeline to seek in\(audio)")
            }
            return requested
        }
        // `bestStream` passes over attached pictures: an MP3, FLAC or M4A with cover art is audio.
        if let video = demuxer.bestStream(of: .video) { return video }
        if let audio = demuxer.bestStream(of: .audio) { return audio }
        throw MediaError(path: path, reason: .noPlayableStream, cause: "no video or audio stream")
    }

    /// Time zero of the timeline in the stream's time base: the container's start time, as
    /// `ffmpeg -ss` counts, else the stream's own start.
    ///
    /// FFmpeg holds the container's start in microseconds, the earliest stream's start rounded.
    /// When that is the selected stream's own start (it rounds to the same microsecond), the
    /// stream's exact start is time zero: in a time base finer than a microsecond (an MP3's
    /// 1/14112000) the microseconds rescaled back miss the first frame by a few ticks, and a
    /// target of 0 was clamped to a first frame after it, or the first frame had a negative time.
    /// In a coarser time base the two are the same tick.
    ///
    /// A container start set by another stream can fall between two of this stream's ticks (an
    /// MP4 whose AAC starts 22 ms before its video: 18918.4 ticks of 1/12800). Time zero is then
    /// the tick after it. Rounded to the nearest, down there, every frame's time came out 0.4
    /// ticks late, so a seek to a frame's time as `ffmpeg -ss` counts it (its PTS less the
    /// container's start) landed on the frame before. Rounded up, a frame's time is under a tick
    /// early, and a seek to any frame's `ffmpeg -ss` time lands on that frame: the target is a
    /// whole tick count from zero, and no other frame starts within a tick before it.
    static func originPTS(of demuxer: Demuxer, stream: Demuxer.Stream) -> Int64 {
        guard let start = demuxer.startTimeMicroseconds else { return stream.startTime ?? 0 }
        if let ownStart = stream.startTime, stream.timeBase.rescale(ownStart, to: .microseconds) == start {
            return ownStart
        }
        return TimeBase.microseconds.rescaleRoundingUp(start, to: stream.timeBase)
    }

    /// Names what a local path is when it is not a regular file, before FFmpeg is given it:
    /// FFmpeg would block on a FIFO or read `/dev/zero` forever (`FileKind`).
    static func checkFileKind(_ path: String) throws(MediaError) {
        switch FileKind(at: path) {
        case .linkLoop: throw MediaError(path: path, reason: .readFailed, cause: "symbolic link loop")
        case .fifo: throw MediaError(path: path, reason: .notMedia, cause: "is a FIFO, not a media file")
        case .characterDevice, .blockDevice: throw MediaError(path: path, reason: .notMedia, cause: "is a device, not a media file")
        case .socket: throw MediaError(path: path, reason: .notMedia, cause: "is a socket, not a media file")
        // Missing and unreadable paths, and folders, are named by the checks that follow.
        case .regular, .folder, .missing, .unknown: return
        }
    }
}
