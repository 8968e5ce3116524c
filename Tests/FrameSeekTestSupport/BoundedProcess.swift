// A process run with a bound on its time, for the tests that a hostile input must end by
// itself: a hang is killed at the bound and reported as such, instead of blocking the suite.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How one bounded run of a program ended.
package struct BoundedRun: Sendable {
    /// The exit status, nil when the process died on a signal or was killed at the bound.
    package let exitStatus: Int32?
    /// The signal that ended it, nil when it exited.
    package let signal: Int32?
    /// Whether it was still running at the bound (and was killed then).
    package let timedOut: Bool
    /// Its peak resident set in bytes: `ru_maxrss` as a small parent (Python) read it with
    /// wait4. Not this process's own wait4: a child spawned from the test process starts with
    /// the test process's high-water mark, which survives exec (getrusage(2)).
    package let peakResidentBytes: Int
    /// How long it ran.
    package let took: Duration
    package let stdout: String
    package let stderr: String

    /// stderr's lines, empty ones left out.
    package var errorLines: [String] { stderr.split(whereSeparator: \.isNewline).map(String.init) }
}

/// Runs `arguments` (the program first, a path) in `directory` (this process's when nil) with
/// stdout and stderr going to files, and kills it with SIGKILL if it runs past `bound` (its
/// whole process group). Its peak memory is read by a small Python parent that forks and execs
/// it and waits with wait4; the parent passes its exit status through and dies on the signal
/// the program died on.
package func runBounded(_ arguments: [String], in directory: String? = nil, bound: Duration) throws -> BoundedRun {
    let scratch = try TemporaryDirectory()
    let outPath = scratch.file("stdout"), errPath = scratch.file("stderr")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // Swift's backtracer would attach to a crashing child and wait: a signal must show as one.
    let environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
    // env -C changes the folder and then execs the program itself: the pid waited on stays
    // the program's (glibc's posix_spawn_file_actions_addchdir_np is not visible to Swift).
    let rssPath = scratch.file("maxrss")
    let parent = [
        "/usr/bin/env", "python3", "-c",
        """
        import os, signal, sys
        pid = os.fork()
        if pid == 0:
            os.execv(sys.argv[2], sys.argv[2:])
        _, status, usage = os.wait4(pid, 0)
        open(sys.argv[1], "w").write(str(usage.ru_maxrss))
        if os.WIFSIGNALED(status):
            signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
            os.kill(os.getpid(), os.WTERMSIG(status))
        os._exit(os.WEXITSTATUS(status))
        """,
        rssPath
    ]
    let command = (directory.map { ["/usr/bin/env", "-C", $0] } ?? []) + parent + arguments
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    // A process group of its own, so a kill at the bound reaches the program, not only its parent.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let spawned = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw OracleError("posix_spawn \(command[0]) failed: \(String(cString: strerror(spawned)))") }
    let clock = ContinuousClock()
    let start = clock.now
    var status: Int32 = 0
    var usage = rusage()
    var timedOut = false
    while true {
        let waited = wait4(pid, &status, WNOHANG, &usage)
        if waited == pid { break }
        if clock.now - start > bound, !timedOut {
            timedOut = true
            kill(-pid, SIGKILL)
        }
        usleep(20_000)
    }
    let took = clock.now - start
    let exited = status & 0x7f == 0
    let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    return BoundedRun(
        exitStatus: exited ? (status >> 8) & 0xff : nil, signal: exited ? nil : status & 0x7f, timedOut: timedOut,
        peakResidentBytes: (Int(read(rssPath)) ?? 0) * 1024, took: took, stdout: read(outPath), stderr: read(errPath))
}
