import Foundation
import FrameSeekCore

#if canImport(Glibc)
    import Glibc
#endif

/// The lock every `SQLiteProgressStore`, in every process, takes around each use of its
/// database, so that recovery never moves a database aside while a call of another process is
/// on it.
///
/// Two sibling files, each locked with `flock(2)`, and never removed (removing a lock file
/// lets two processes lock two different files of one name):
/// - `PATH.lock`, the store lock: held shared for each call (open, load, save, remove), and
///   exclusive to move a damaged database aside and create its replacement.
/// - `PATH.lock-gate`, a turnstile: a process that wants the store lock exclusive holds the
///   gate exclusive while it waits, and a process that wants it shared passes the gate first
///   (takes it shared and lets go). Once recovery waits, no new call starts and those under
///   way end, so processes that save in a loop cannot starve it.
///
/// Why it cannot deadlock: the locks are taken in one order (gate, then store lock) and held
/// for one call, never across calls. Inside a call, holding the store lock shared, a process
/// waits only for SQLite's own file locks, and those are held only by other processes inside
/// their own calls, which need nothing more from it: no process asks for a lock of this type
/// while it holds a SQLite lock (recovery lets go of its shared lock, with no transaction
/// open, before it asks for the exclusive one). Every wait is bounded as well: a lock not had
/// within the store's timeout (held by a stopped process, say) is an error, never a hang.
final class StoreLock: Sendable {
    private let storeDescriptor: Int32
    private let gateDescriptor: Int32
    private let path: String

    /// Opens (creating when missing) `databasePath`'s lock files.
    init(databasePath: String) throws(ProgressStoreError) {
        path = databasePath + ".lock"
        storeDescriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard storeDescriptor >= 0 else {
            throw ProgressStoreError(path: databasePath, cause: "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        gateDescriptor = open(path + "-gate", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard gateDescriptor >= 0 else {
            let cause = String(cString: strerror(errno))
            close(storeDescriptor)
            throw ProgressStoreError(path: databasePath, cause: "cannot open the lock file \(path)-gate: \(cause)")
        }
    }

    deinit {
        close(storeDescriptor)
        close(gateDescriptor)
    }

    /// Runs `body` holding the store lock shared.
    func shared<Result>(
        within timeout: Duration, _ body: () throws(ProgressStoreError) -> Result
    ) throws(ProgressStoreError) -> Result {
        let deadline = ContinuousClock.now + timeout
        try lock(gateDescriptor, LOCK_SH, "-gate", until: deadline)
        flock(gateDescriptor, LOCK_UN)
        try lock(storeDescriptor, LOCK_SH, "", until: deadline)
        defer { flock(storeDescriptor, LOCK_UN) }
        return try body()
    }

    /// Runs `body` holding the store lock exclusive (and the gate, so that no new call starts
    /// while this waits).
    func exclusive<Result>(
        within timeout: Duration, _ body: () throws(ProgressStoreError) -> Result
    ) throws(ProgressStoreError) -> Result {
        let deadline = ContinuousClock.now + timeout
        try lock(gateDescriptor, LOCK_EX, "-gate", until: deadline)
        defer { flock(gateDescriptor, LOCK_UN) }
        try lock(storeDescriptor, LOCK_EX, "", until: deadline)
        defer { flock(storeDescriptor, LOCK_UN) }
        return try body()
    }

    /// Takes `operation` on `descriptor`, trying again with growing pauses until `deadline`.
    /// Polled (`LOCK_NB`) rather than blocking, because a blocking `flock` cannot time out.
    private func lock(
        _ descriptor: Int32, _ operation: Int32, _ suffix: String, until deadline: ContinuousClock.Instant
    )
        throws(ProgressStoreError)
    {
        var pause = Duration.microseconds(200)
        while flock(descriptor, operation | LOCK_NB) != 0 {
            let cause = errno
            guard cause == EWOULDBLOCK || cause == EINTR else {
                throw ProgressStoreError(path: path, cause: "cannot lock: \(String(cString: strerror(cause)))")
            }
            guard ContinuousClock.now + pause < deadline else {
                throw ProgressStoreError(path: path + suffix, cause: "still locked by another process after waiting; try again")
            }
            Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18 + Double(pause.components.seconds))
            pause = min(pause * 2, .milliseconds(20))
        }
    }
}

/// Which file a path names: its device and inode. A connection opened while the store lock
/// was held is to the file its path named then; once the path names another file, the
/// database it had open was moved aside.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path`, nil when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
