import Foundation
import FrameSeekCore
#if canImport(Glibc)
    import Glibc
#endif

/// Frame tables kept on disk, so that opening a file again reads its table instead of its
/// media: what makes a second open of an MPEG-TS or Matroska file, which has no index FFmpeg
/// can read, cost its table and not its gigabytes.
///
/// A file's entry is keyed as FFMS2 and L-SMASH Works key theirs: its size, modification time
/// and the SHA-256 of its first and last MiB, with the inode's change time (which no one can
/// set back, so an edit in the middle that restores the modification time, as `cp -p` or
/// `touch -r` do, still changes the key), the stream, FrameSeek's version, the FFmpeg
/// libraries' versions and the cache format. The key is stored inside the entry and compared
/// whole, so an entry copied from another file, or left from this one before it changed, is
/// rejected, as is one whose checksum or table does not hold (`IndexCacheFile`).
///
/// An entry is not trusted for being well formed: anyone who can write the cache folder can
/// write a well-formed entry. Its table is checked against the stream it is opened for
/// (`StreamFacts`) before anything uses it. A rejected entry is rebuilt from the media and
/// written again.
///
/// The cache is bounded: after each write the entries least recently used (read or written)
/// are removed until the folder holds at most `sizeLimitBytes`, keeping the entry just written;
/// a write's temporary file left by a process that died (older than ten minutes) goes too.
public struct IndexCache: Sendable, Hashable {
    /// Where the entries live.
    public let directory: String

    /// The most bytes of entries the cache keeps (the entry just written is kept even when it
    /// alone is larger).
    public let sizeLimitBytes: Int64

    /// A cache in `directory` (created when the first entry is written), holding at most
    /// `sizeLimitBytes` of entries.
    public init(directory: String, sizeLimitBytes: Int64) {
        self.directory = directory
        self.sizeLimitBytes = max(0, sizeLimitBytes)
    }

    /// A cache in `directory` of `defaultSizeLimitBytes`.
    public init(directory: String) { self.init(directory: directory, sizeLimitBytes: Self.defaultSizeLimitBytes) }

    /// `$XDG_CACHE_HOME/frameseek/index`, else `~/.cache/frameseek/index`.
    public static var defaultDirectory: String { defaultDirectory(environment: ProcessInfo.processInfo.environment) }

    /// `defaultDirectory` for the given environment variables. A relative or empty
    /// `XDG_CACHE_HOME` is ignored, as the XDG Base Directory specification requires: a
    /// relative one would put the cache wherever the command happens to run.
    public static func defaultDirectory(environment: [String: String]) -> String {
        let base = XDGBaseDirectory.path("XDG_CACHE_HOME", orHome: ".cache", environment: environment)
        return ((base as NSString).appendingPathComponent("frameseek") as NSString).appendingPathComponent("index")
    }

    /// 512 MiB, or `FRAMESEEK_INDEX_CACHE_MB` mebibytes when that is set to a whole number
    /// (0 keeps only the entry just written).
    public static var defaultSizeLimitBytes: Int64 {
        defaultSizeLimitBytes(environment: ProcessInfo.processInfo.environment)
    }

    /// `defaultSizeLimitBytes` for the given environment variables.
    public static func defaultSizeLimitBytes(environment: [String: String]) -> Int64 {
        let mebibyte: Int64 = 1 << 20
        guard let text = environment["FRAMESEEK_INDEX_CACHE_MB"], let megabytes = Int64(text), megabytes >= 0 else {
            return 512 * mebibyte
        }
        let (bytes, overflow) = megabytes.multipliedReportingOverflow(by: mebibyte)
        return overflow ? .max : bytes
    }

    /// What the cache did for one open.
    public enum Outcome: Sendable, Hashable {
        /// The table came from `path`.
        case read(path: String)
        /// The table was built from the media and written to `path`.
        case written(path: String)
        /// The entry at `path` was not trusted, for `reason`; the table was built from the
        /// media, and written again unless `rewriteFailure` says why not.
        case rejected(path: String, reason: String, rewriteFailure: String?)
        /// The table was built from the media and could not be written, for `reason`.
        case notWritten(reason: String)
        /// The table came from an MP4's sample table, which opens as fast as an entry would
        /// (`IndexCache.needsEntry(for:)`): nothing was read or written.
        case notNeeded
    }

    /// Whether a table from `source` is worth an entry. An MP4 opened from its sample table
    /// reads its boxes and a few packets, as fast as reading an entry (a two-hour film: 0.99x
    /// ffmpeg's seek from its boxes, 0.86x from an entry): the cache is for containers without
    /// an index. An audio table from packets (an MP3, ADTS AAC, FLAC) needs one: its scan reads
    /// the whole file, and its entry is a few bytes a frame (see `IndexCacheFile`).
    static func needsEntry(for source: FrameTable.Source) -> Bool { source != .sampleTable }

    /// Whether a file of the FFmpeg format `formatName` holds all of its media itself, so that
    /// its own identity is its media's. A playlist (HLS, DASH, concat) names other files, which
    /// can change, go missing or differ between two copies of the same playlist: those are
    /// never cached.
    static func holdsItsOwnMedia(_ formatName: String) -> Bool {
        let selfContained: Set<String> = [
            "mov", "mp4", "matroska", "webm", "mpegts", "avi", "flv", "mpeg", "mp3", "aac",
            "flac", "wav", "ogg", "asf", "mxf", "ivf", "h264", "hevc", "m4v", "obu", "nut"
        ]
        return formatName.split(separator: ",").contains { selfContained.contains(String($0)) }
    }

    /// One file's key: the identity text stored in the entry, the entry's path, and the
    /// stream the table is for.
    struct Key {
        let text: String
        let path: String
        let stream: StreamFacts
    }

    /// The key of the local file at `path` for `stream`, nil when it is not a regular file
    /// that can be read (a URL, a FIFO).
    func key(forFileAt path: String, stream: StreamFacts, libraries: String) -> Key? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            let handle = FileHandle(forReadingAtPath: path)
        else { return nil }
        defer { try? handle.close() }
        let size = Int64(status.st_size)
        let mebibyte: Int64 = 1 << 20
        guard let head = try? handle.read(upToCount: Int(mebibyte)) ?? Data(),
            (try? handle.seek(toOffset: UInt64(max(0, size - mebibyte)))) != nil,
            // At most a MiB, as the head: a file still being written has grown since stat.
            let tail = try? handle.read(upToCount: Int(mebibyte)) ?? Data(),
            let headDigest = SHA256Digest.digest(of: head), let tailDigest = SHA256Digest.digest(of: tail)
        else { return nil }
        // Seconds and nanoseconds as they are: no arithmetic on what the file system says.
        let modified = "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        let changed = "\(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec)"
        let text =
            "frameseek \(FrameSeekVersion.current) format \(IndexCacheFile.formatVersion) \(libraries) "
            + "size \(size) mtime \(modified) ctime \(changed) head \(lowercaseHex(headDigest)) tail \(lowercaseHex(tailDigest)) "
            + "stream \(stream.index)"
        guard let name = SHA256Digest.digest(of: Array(text.utf8)) else { return nil }
        return Key(
            text: text, path: (directory as NSString).appendingPathComponent(lowercaseHex(Array(name.prefix(16))) + Self.entrySuffix),
            stream: stream)
    }

    /// The name ending of an entry.
    static let entrySuffix = ".fsidx"

    /// The largest entry read: the cache's size, and at least the default 512 MiB, since a
    /// cache of 0 keeps the entry just written. At some 7 bytes a frame, a day at 60 fps is
    /// about 36 MiB.
    var entryLimitBytes: Int { Int(clamping: max(sizeLimitBytes, 512 << 20)) }

    /// The entry for `key`: nil when there is none, else the table or why it was rejected.
    /// A table read is marked as just used, so eviction keeps it longest.
    func read(_ key: Key) -> Result<FrameTableBuilder.Result, IndexCacheRejection>? {
        // The folder is not trusted: a FIFO, a device or a huge file planted under an entry's
        // name must not block the open or fill memory.
        let data: Data
        do { data = try FileContents.read(key.path, limit: entryLimitBytes) } catch {
            if case .missing = error { return nil }
            return .failure(IndexCacheRejection("it \(error)"))
        }
        switch IndexCacheFile.decode(data, key: key.text) {
        case .failure(let rejection):
            return .failure(rejection)
        case .success(let entry):
            if let mismatch = key.stream.mismatch(of: entry) { return .failure(IndexCacheRejection(mismatch)) }
            markUsed(key.path)
            return .success(entry.result)
        }
    }

    /// Writes `result` as `key`'s entry, whole or not at all (a temporary file renamed over
    /// it), then evicts down to the size limit; the reason when it could not write.
    func write(_ result: FrameTableBuilder.Result, as key: Key) -> String? {
        guard let bytes = IndexCacheFile.encode(result, stream: key.stream, key: key.text) else { return "out of memory" }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // A name of its own per write: two engines of one process may write one entry at once.
            let temporary = key.path + ".\(getpid()).\(UUID().uuidString)" + Self.temporarySuffix
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, key.path) == 0 else {
                let cause = String(cString: strerror(errno))
                try? FileManager.default.removeItem(atPath: temporary)
                return "cannot rename into \(key.path): \(cause)"
            }
            evict(keeping: key.path)
            return nil
        } catch {
            return "cannot write \(key.path): \(error.localizedDescription)"
        }
    }
}
