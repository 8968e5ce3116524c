// FFmpeg's log for one test, shown only when the test fails: a passing run prints the test
// runner's lines and nothing else, and a failing one says what FFmpeg said while it ran.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import Testing

/// Binds an `FFmpegLogTranscript` around each test case and, when the case fails, prints the
/// warnings and errors FFmpeg logged for the engines it made to stderr, after its issues.
///
/// FrameSeek's log callback keeps FFmpeg's messages off stderr in every test, with or without
/// this trait; the trait only makes them readable for the test that needs them. Add it to a
/// suite with `@Suite("…", .ffmpegLog)`: it applies to every test in the suite, nested ones
/// included.
package struct FFmpegLogTrait: CaseScopingTrait {
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let transcript = FFmpegLogTranscript()
        let failed = Locked(false)
        // Sees each issue as it is recorded, to learn whether the case failed; changes none.
        let watch = IssueHandlingTrait.compactMapIssues { issue in
            if issue.isFailure { failed.withLock { $0 = true } }
            return issue
        }
        do {
            try await FFmpegLogTranscript.$current.withValue(transcript) {
                try await watch.provideScope(for: test, testCase: testCase, performing: function)
            }
        } catch {
            Self.report(transcript, of: test)
            throw error
        }
        if failed.withLock({ $0 }) { Self.report(transcript, of: test) }
    }

    /// Writes the transcript to stderr in one write, so parallel tests' reports do not interleave.
    static func report(_ transcript: FFmpegLogTranscript, of test: Test) {
        let lines = transcript.text
        guard !lines.isEmpty else { return }
        let name = test.displayName ?? test.name
        let text = (["FFmpeg's log for \"\(name)\" (\(lines.count) lines):"] + lines.map { "    " + $0 })
            .joined(separator: "\n")
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

extension Trait where Self == FFmpegLogTrait {
    /// FFmpeg's warnings and errors for each test case, printed only when the case fails.
    package static var ffmpegLog: Self { Self() }
}
