import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension IndexCache {
    /// The name ending of a write's temporary file.
    static let temporarySuffix = ".tmp"

    /// How old a temporary file must be to count as left by a write that died: a write takes
    /// well under a second, and ten minutes leave room for a slow or busy disk.
    static let staleTemporaryAge: TimeInterval = 600

    /// Records that the entry at `path` was just used, by setting its modification time to now:
    /// eviction reads that time. Access times cannot serve, as many file systems do not keep
    /// them (`noatime`, `relatime`). A failure only makes the entry older to eviction.
    func markUsed(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    /// Removes the entries least recently used until those left hold at most
    /// `sizeLimitBytes`, never `kept` (the entry just written), and every temporary file that
    /// a write of another process left more than `staleTemporaryAge` ago.
    ///
    /// Another process may evict at the same moment: a file already gone is no error, and an
    /// entry removed under a reader is read as no entry at all.
    func evict(keeping kept: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let staleBefore = Date().timeIntervalSince1970 - Self.staleTemporaryAge
        var entries: [(path: String, used: timespec, size: Int64)] = []
        var total: Int64 = 0
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if name.hasSuffix(Self.temporarySuffix) {
                if Double(status.st_mtim.tv_sec) < staleBefore && !Self.isOwnTemporary(name) { unlink(path) }
            } else if name.hasSuffix(Self.entrySuffix) {
                let size = Int64(status.st_size)
                entries.append((path, status.st_mtim, size))
                let (sum, overflow) = total.addingReportingOverflow(size)
                total = overflow ? .max : sum
            }
        }
        guard total > sizeLimitBytes else { return }
        entries.sort { ($0.used.tv_sec, $0.used.tv_nsec) < ($1.used.tv_sec, $1.used.tv_nsec) }
        for entry in entries where total > sizeLimitBytes && entry.path != kept {
            unlink(entry.path)
            total -= entry.size
        }
    }

    /// Whether the temporary file `name` (`ENTRY.PID.UUID.tmp`) is one this process is writing.
    private static func isOwnTemporary(_ name: String) -> Bool {
        let fields = name.split(separator: ".")
        return fields.count >= 4 && fields[fields.count - 3] == "\(getpid())"
    }
}
