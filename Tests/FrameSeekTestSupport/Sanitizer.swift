// Whether the suite runs under a sanitizer (`make test-tsan`, `make test-asan`), for the tests
// whose measure a sanitizer changes.

#if canImport(Glibc)
    import Glibc
#endif

/// The sanitizer runtime this process carries, if any. The executables the tests run are built
/// in the same build directory with the same sanitizer (`Repository.builtExecutable`).
package enum Sanitizer {
    /// Whether AddressSanitizer's or ThreadSanitizer's runtime is linked in: both define the
    /// common allocator's count, which the dynamic linker then finds. Under either, a process's
    /// resident memory is mostly the sanitizer's (ThreadSanitizer's shadow of every byte
    /// touched, AddressSanitizer's quarantine of freed blocks), not what FrameSeek holds.
    package static let isActive = dlsym(nil, "__sanitizer_get_current_allocated_bytes") != nil
}

/// Runs `body`, a parse that was once quadratic (hours on a hostile input) and is linear now
/// (about a second under a sanitizer, alone), and fails the test past a minute, ten under a
/// sanitizer, counted as `WaitBudget` counts: in time the test got to run. Swift Testing's
/// time limit counts wall time from the test's start, and in a parallel run of the whole suite
/// on 2 cores a test can wait minutes for a thread before its body runs: a limit of a minute
/// tripped on a body that takes half a second.
package func linearParse<T: Sendable>(_ what: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withDeadline(what, timeout: Sanitizer.isActive ? .seconds(600) : .seconds(60)) { Result { try body() } }.get()
}
