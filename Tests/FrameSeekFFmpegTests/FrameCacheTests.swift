// The frame cache's order of use: the frame evicted is always the one used longest ago, found
// without looking at the others, so a refill that caches tens of thousands of tiny frames
// costs the same per frame as one of a few. The truth is a plain list kept in order of use.

@testable import FrameSeekFFmpeg
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Frame cache", .ffmpegLog)
struct FrameCacheTests {
    /// A decoded frame of the smallest video fixture: every entry the tests insert references it.
    static func decodedFrame() throws -> Frame {
        let engine = try FFmpegEngine(path: Repository.fixture("media/h264_anamorphic_sar64x45.mp4"))
        _ = try engine.seek(to: engine.frameTable.frames[0].time, precision: .exact)
        let frame = Frame()
        try frame.reference(engine.executor.landedFrame)
        return frame
    }

    @Test("Each eviction from a cache of 3,000 frames looks at one entry, and the oldest 3,000 of 6,000 inserted are gone")
    func evictionLooksAtOneEntry() throws {
        let frame = try Self.decodedFrame()
        let cache = FrameCache(capacityBytes: frame.byteCount * 3000)
        for index in 0..<6000 { cache.insert(frame, as: index, decodeErrors: 0, lentBy: nil) }
        #expect(cache.entriesVisitedToEvict == 3000)
        #expect((0..<3000).allSatisfy { !cache.contains($0) } && (3000..<6000).allSatisfy(cache.contains))
    }

    @Test("Inserts and hits in a seeded random order evict as a list kept in order of use does")
    func evictsTheLeastRecentlyUsed() throws {
        let frame = try Self.decodedFrame()
        let capacity = 40
        let cache = FrameCache(capacityBytes: frame.byteCount * capacity)
        var order: [Int] = []  // least recently used first
        var generator = SeededGenerator(seed: 11)
        for step in 0..<5000 {
            let index = Int.random(in: 0..<120, using: &generator)
            if Bool.random(using: &generator) {
                cache.insert(frame, as: index, decodeErrors: 0, lentBy: nil)
                order.removeAll { $0 == index }
                if order.count == capacity { order.removeFirst() }
                order.append(index)
            } else {
                #expect((cache.frame(index) != nil) == order.contains(index), "step \(step): frame \(index)")
                if let position = order.firstIndex(of: index) { order.append(order.remove(at: position)) }
            }
            #expect((0..<120).allSatisfy { cache.contains($0) == order.contains($0) }, "step \(step)")
        }
    }
}
