import Foundation
import FrameSeekCore
import FrameSeekFFmpeg

/// `body(0)`, `body(1)`, … `body(count - 1)` on `lanes` threads of their own, each lane taking
/// the next index when it is free; the results in index order.
///
/// Why: a test that makes many independent requests of a failing origin, each waiting out its
/// retries and stalls (the live-edge seeks at 30% faults, 1.7 to 2.5 s each), spends almost all
/// its time waiting. Run one after another they took 50 s and ended every suite run last; in
/// lanes they wait side by side. The caller's FFmpeg log transcript (`.ffmpegLog`) is bound on
/// each lane, so what FFmpeg logs there is shown if the test fails; nothing else of the test's
/// context is, so its expectations belong on the test's own thread, after the lanes end.
package func inLanes<Result: Sendable>(_ count: Int, lanes: Int, _ body: @escaping @Sendable (Int) -> Result) -> [Result] {
    let next = Locked(0)
    let results = Locked([Int: Result]())
    let transcript = FFmpegLogTranscript.current
    let ended = DispatchGroup()
    for _ in 0..<max(1, min(lanes, count)) {
        ended.enter()
        Thread {
            FFmpegLogTranscript.$current.withValue(transcript) {
                while true {
                    let index = next.withLock { n -> Int in
                        defer { n += 1 }
                        return n
                    }
                    guard index < count else { break }
                    let result = body(index)
                    results.withLock { $0[index] = result }
                }
            }
            ended.leave()
        }.start()
    }
    ended.wait()
    // Every index below count was taken by one lane, which stored its result before it ended.
    return results.withLock { kept in (0..<count).map { kept[$0]! } }
}
