import Foundation
import FrameSeekCore

extension SQLiteProgressStore {
    /// Where the store lives unless the app says otherwise: `$XDG_DATA_HOME/frameseek/progress.sqlite`,
    /// else `~/.local/share/frameseek/progress.sqlite` (the XDG Base Directory defaults).
    public static var defaultPath: String { defaultPath(environment: ProcessInfo.processInfo.environment) }

    /// ``defaultPath`` for the given environment variables, so callers (and tests) can resolve
    /// it for an environment other than the process's.
    ///
    /// A relative or empty `XDG_DATA_HOME` is ignored, as the XDG specification requires.
    public static func defaultPath(environment: [String: String]) -> String {
        let base = XDGBaseDirectory.path("XDG_DATA_HOME", orHome: ".local/share", environment: environment)
        return (base as NSString).appendingPathComponent("frameseek/progress.sqlite")
    }

    /// A key for the media file at `path`: `file:<real path>:<size>:<modification time in ns>`
    /// (in seconds, with nine decimals, for a time past 2262).
    ///
    /// Built from the file's identity rather than its contents, so computing it reads no media
    /// bytes (it runs on every open, and media can sit on slow or network storage):
    /// - the same file reopened, through any relative path or symlink, gets the same key
    ///   (the path is resolved with `realpath`);
    /// - two different files never share one: different files at once have different real
    ///   paths, and a file replaced at the same path almost always changes size or modification
    ///   time (which has nanosecond resolution), so a re-encoded file starts over rather than
    ///   resuming at a position meant for other content.
    ///
    /// The cost of that choice: moving, renaming or copying a file (without preserving its
    /// time) loses its saved position. An app that has a better identifier (a library ID, a
    /// URL) should use it as the key instead.
    ///
    /// When the file cannot be examined the key is `path:<absolute path>`, so a key is always
    /// returned.
    public static func defaultKey(forFileAt path: String) -> String {
        let absolute =
            path.hasPrefix("/")
            ? path
            : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        guard let resolvedPointer = realpath(path, nil) else { return "path:" + absolute }
        let resolved = String(cString: resolvedPointer)
        free(resolvedPointer)
        var status = stat()
        guard stat(resolved, &status) == 0 else { return "path:" + absolute }
        return "file:\(resolved):\(status.st_size):\(modificationTime(status.st_mtim))"
    }

    /// `time` in nanoseconds; a time whose nanoseconds overflow an Int64 (past 2262 or before
    /// 1678, which any program can set) is `<seconds>.<nine digits>` instead, which no whole
    /// number of nanoseconds spells, so keys stay distinct for distinct times.
    static func modificationTime(_ time: timespec) -> String {
        let seconds = Int64(time.tv_sec)
        let fraction = Int64(time.tv_nsec)
        let (scaled, overflowScaling) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (nanoseconds, overflowAdding) = scaled.addingReportingOverflow(fraction)
        if !overflowScaling && !overflowAdding { return "\(nanoseconds)" }
        let digits = String(fraction)
        return "\(seconds)." + String(repeating: "0", count: max(0, 9 - digits.count)) + digits
    }
}
