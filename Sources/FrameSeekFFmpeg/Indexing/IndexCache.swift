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
/// and the SHA-256 of its first and last MiB, with the stream, FrameSeek's version, the FFmpeg
/// libraries' versions and the cache format. The key is stored inside the entry and compared
/// whole, so an entry copied from another file, or left from this one before it changed, is
/// rejected, as is one whose checksum or table does not hold (`IndexCacheFile`). A rejected
/// entry is rebuilt from the media and written again.
public struct IndexCache: Sendable, Hashable {
    /// Where the entries live.
    public let directory: String

    /// A cache in `directory` (created when the first entry is written).
    public init(directory: String) { self.directory = directory }

    /// `$XDG_CACHE_HOME/frameseek/index`, else `~/.cache/frameseek/index`.
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".cache")
        return ((base as NSString).appendingPathComponent("frameseek") as NSString).appendingPathComponent("index")
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

    /// One file's key: the identity text stored in the entry, and the entry's path.
    struct Key {
        let text: String
        let path: String
    }

    /// The key of the local file at `path` for `streamIndex`, nil when it is not a regular
    /// file that can be read (a URL, a FIFO).
    func key(forFileAt path: String, streamIndex: Int, libraries: String) -> Key? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            let handle = FileHandle(forReadingAtPath: path)
        else { return nil }
        defer { try? handle.close() }
        let size = Int64(status.st_size)
        let mebibyte: Int64 = 1 << 20
        guard let head = try? handle.read(upToCount: Int(mebibyte)) ?? Data(),
            (try? handle.seek(toOffset: UInt64(max(0, size - mebibyte)))) != nil,
            let tail = try? handle.readToEnd() ?? Data(),
            let headDigest = SHA256Digest.digest(of: head), let tailDigest = SHA256Digest.digest(of: tail)
        else { return nil }
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        let text =
            "frameseek \(FrameSeekVersion.current) format \(IndexCacheFile.formatVersion) \(libraries) "
            + "size \(size) mtime \(modified) head \(lowercaseHex(headDigest)) tail \(lowercaseHex(tailDigest)) stream \(streamIndex)"
        guard let name = SHA256Digest.digest(of: Array(text.utf8)) else { return nil }
        return Key(text: text, path: (directory as NSString).appendingPathComponent(lowercaseHex(Array(name.prefix(16))) + ".fsidx"))
    }

    /// The entry for `key`: nil when there is none, else the table or why it was rejected.
    func read(_ key: Key) -> Result<FrameTableBuilder.Result, IndexCacheRejection>? {
        guard let data = FileManager.default.contents(atPath: key.path) else { return nil }
        return IndexCacheFile.decode(data, key: key.text)
    }

    /// Writes `result` as `key`'s entry, whole or not at all (a temporary file renamed over
    /// it); the reason when it could not.
    func write(_ result: FrameTableBuilder.Result, as key: Key) -> String? {
        guard let bytes = IndexCacheFile.encode(result, key: key.text) else { return "out of memory" }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // A name of its own per write: two engines of one process may write one entry at once.
            let temporary = key.path + ".\(getpid()).\(UUID().uuidString).tmp"
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, key.path) == 0 else {
                let cause = String(cString: strerror(errno))
                try? FileManager.default.removeItem(atPath: temporary)
                return "cannot rename into \(key.path): \(cause)"
            }
            return nil
        } catch {
            return "cannot write \(key.path): \(error.localizedDescription)"
        }
    }
}
