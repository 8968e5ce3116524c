import Foundation
import FrameSeekCore

/// `body(0)`, `body(1)`, … `body(count - 1)` on `lanes` threads of their own, each lane taking
/// the next index when it is free; the results in index order.
///
/// Why: a test that makes many independent requests of a failing origin, each waiting out its
/// retries and stalls (the live-edge seeks at 30% faults, about 1.7 s each), spends almost all
/// its time waiting. Run one after another they took 50 s and ended every suite run last; in
/// lanes they wait side by side. The body's expectations belong to the caller, on the test's
/// own thread, after the lanes end: a thread started here carries none of the test's context.
package func inLanes<Result: Sendable>(_ count: Int, lanes: Int, _ body: @escaping @Sendable (Int) -> Result) -> [Result] {
    let next = Locked(0)
    let results = Locked([Int: Result]())
    let ended = DispatchGroup()
    for _ in 0..<max(1, min(lanes, count)) {
        ended.enter()
        Thread {
            while case let index = next.withLock({ n -> Int in
                defer { n += 1 }
                return n
            }), index < count {
                let result = body(index)
                results.withLock { $0[index] = result }
            }
            ended.leave()
        }.start()
    }
    ended.wait()
    return results.withLock { kept in (0..<count).compactMap { kept[$0] } }
}
