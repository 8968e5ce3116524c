// The bound on the player tests' waits counts the time the waiter got to run, so a stall of the
// whole test run longer than the bound does not read as a deadlock.

import Foundation
import FrameSeekTestSupport
import Testing

struct WaitBudgetTests {
    @Test("A stall longer than the bound counts as at most 100 ms; checks after it spend the rest")
    func stallCountsLittle() async throws {
        var budget = WaitBudget(.milliseconds(300))
        // The thread is held as a test run's blocked threads hold it: no check for 500 ms.
        usleep(500_000)
        let spentByStall = budget.isSpent()
        #expect(!spentByStall, "a 500 ms stall spent a 300 ms bound")
        let clock = ContinuousClock()
        let start = clock.now
        while !budget.isSpent() { try await Task.sleep(for: .milliseconds(5)) }
        // 200 ms of the bound were left after the stall; each check counts what passed since the last.
        #expect(clock.now - start >= .milliseconds(200))
    }
}
