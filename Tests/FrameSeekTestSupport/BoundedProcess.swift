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
    /// Its peak resident set in bytes (wait4's `ru_maxrss`, this process alone).
    package let peakResidentBytes: Int
    /// How long it ran.
    package let took: Duration
    package let stdout: String
    package let stderr: String

    /// stderr's lines, empty ones left out.
    package var errorLines: [String] { stderr.split(whereSeparator: \.isNewline).map(String.init) }
}

/// Runs `arguments` (the program first, a path) with stdout and stderr going to files, and
/// kills it with SIGKILL if it runs past `bound`. Its rusage is its own (wait4), so the peak
/// memory is not mixed with the test process's other children.
package func runBounded(_ arguments: [String], bound: Duration) throws -> BoundedRun {
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
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    guard spawned == 0 else { throw OracleError("posix_spawn \(arguments[0]) failed: \(String(cString: strerror(spawned)))") }
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
            kill(pid, SIGKILL)
        }
        usleep(20_000)
    }
    let took = clock.now - start
    let exited = status & 0x7f == 0
    let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    return BoundedRun(
        exitStatus: exited ? (status >> 8) & 0xff : nil, signal: exited ? nil : status & 0x7f, timedOut: timedOut,
        peakResidentBytes: usage.ru_maxrss * 1024, took: took, stdout: read(outPath), stderr: read(errPath))
}
