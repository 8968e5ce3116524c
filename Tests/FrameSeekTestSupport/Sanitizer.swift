// Whether the suite runs under a sanitizer (`make test-tsan`, `make test-asan`), for the tests
// whose measure a sanitizer changes.

import Testing

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

extension Trait where Self == TimeLimitTrait {
    /// The bound on a parse that was once quadratic (hours on a hostile input) and is linear now
    /// (about a second under a sanitizer, alone): a minute, and ten under a sanitizer. A
    /// sanitizer run of the whole suite on 2 cores once held such a test past a minute of wall
    /// time, counted from its start while the run's threads were busy with other tests.
    package static var linearParseGuard: Self { .timeLimit(Sanitizer.isActive ? .minutes(10) : .minutes(1)) }
}
