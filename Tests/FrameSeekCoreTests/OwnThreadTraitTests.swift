// The `.ownThread` trait moves a test case's body off Swift's shared pool: if a change to Swift
// Testing or the language ran the body where the trait's scope began, the tests that wait would
// hold the pool again, and nothing else would say so.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("Test support: cases on threads of their own")
struct OwnThreadTraitTests {
    @Test("A synchronous case under .ownThread runs on a thread of its own", .ownThread)
    func synchronousBody() {
        #expect(ThreadPerJobExecutor.isCurrentThread)
    }

    @Test("Without the trait, a case runs on the shared pool")
    func withoutTheTrait() {
        #expect(!ThreadPerJobExecutor.isCurrentThread)
    }
}
