import Testing
@testable import FrameSeekCore

/// `FrameTable.statistics`: its reorder depth, worked out from marked decode orders, is what
/// sorting the frames by decode order gives, for dense orders, orders with gaps (packets that
/// are not frames), repeated orders and every storage a frame list has.
struct FrameTableStatisticsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// Each frame's decode order, in presentation order.
        let decodeOrders: [Int]
        var testDescription: String { name }
    }

    /// B-frame pyramids as x264 lays them out: I P B B B, decoded I P B(ref) b b.
    static func pyramid(gops: Int, skippingEvery skip: Int? = nil) -> [Int] {
        var orders: [Int] = []
        var next = 0
        for _ in 0..<gops {
            // Presentation order I b B b P, decode order I P B b b.
            let base = next
            orders += [base, base + 3, base + 2, base + 4, base + 1]
            next += 5
            if let skip, (base / 5) % skip == 0 { next += 1 }  // a packet that is no frame
        }
        return orders
    }

    static let cases: [Case] = [
        Case(name: "no frames", decodeOrders: []),
        Case(name: "one frame", decodeOrders: [0]),
        Case(name: "decoded in presentation order", decodeOrders: Array(0..<300)),
        Case(name: "dense pyramids", decodeOrders: pyramid(gops: 100)),
        Case(name: "pyramids with packets that are no frames", decodeOrders: pyramid(gops: 100, skippingEvery: 3)),
        Case(name: "orders starting past 0", decodeOrders: pyramid(gops: 40).map { $0 + 7 }),
        Case(name: "orders across word edges", decodeOrders: [0, 2, 1, 63, 64, 62, 65, 128, 127, 66]),
        Case(name: "sparse orders (the sort answers)", decodeOrders: [0, 500, 200, 900, 700]),
        Case(name: "a repeated order (the sort answers)", decodeOrders: [0, 2, 2, 1, 3])
    ]

    /// The depth by the sort the marks replaced: the largest rank in decode order less the
    /// presentation index.
    static func sortedDepth(_ orders: [Int]) -> Int {
        let byDecode = orders.indices.sorted { orders[$0] < orders[$1] }
        return byDecode.enumerated().reduce(0) { max($0, $1.offset - $1.element) }
    }

    static func table(_ orders: [Int], whole: Bool = false, everyFrameAKeyframe: Bool = false) -> FrameTable {
        let base = TimeBase(numerator: 1, denominator: 30)
        let frames = orders.enumerated().map { index, order in
            FrameEntry(
                index: index, pts: Int64(index), time: base.time(ofTicks: Int64(index)), durationTicks: 1,
                duration: whole ? .zero : base.time(ofTicks: 1), isKeyframe: everyFrameAKeyframe || index % 50 == 0,
                decodeOrder: order, packetPosition: nil)
        }
        return FrameTable(streamIndex: 0, timeBase: base, originPTS: 0, frames: frames, randomAccessPoints: [], source: .packetScan)
    }

    @Test("the reorder depth is the sort's, packed or whole", arguments: cases)
    func reorderDepth(c: Case) {
        let want = Self.sortedDepth(c.decodeOrders)
        // Packed (times follow from the PTS), and whole (a duration that does not).
        #expect(Self.table(c.decodeOrders).statistics.reorderDepth == want)
        #expect(Self.table(c.decodeOrders, whole: true).statistics.reorderDepth == want)
    }

    @Test("frames that are all keyframes in decode order have depth 0, one GOP a frame, packed or as runs")
    func everyFrameAKeyframe() {
        let base = TimeBase(numerator: 1, denominator: 30)
        let runs = FrameList(count: 400, timeBase: base, originPTS: 0, endingAtOwnDuration: []) { i in
            (Int64(i), 1, true, i, nil)
        }
        #expect(runs.isEveryFrameAKeyframe)
        let fromRuns = FrameTable(
            streamIndex: 0, timeBase: base, originPTS: 0, frames: runs,
            randomAccessPoints: .everyFrame(of: runs), source: .audioPackets)
        for stats in [Self.table(Array(0..<400), everyFrameAKeyframe: true).statistics, fromRuns.statistics] {
            #expect(stats.reorderDepth == 0)
            #expect(stats.frameCount == 400)
            #expect(stats.keyframeCount == 400)
            #expect(stats.minimumGOP == 1 && stats.medianGOP == 1 && stats.maximumGOP == 1)
        }
    }

    @Test("GOP lengths count from one keyframe to the next, the last to the end")
    func gops() {
        let stats = Self.table(Self.pyramid(gops: 41)).statistics  // 205 frames, keyframes at 0, 50, 100, 150, 200
        #expect(stats.keyframeCount == 5)
        #expect(stats.minimumGOP == 5 && stats.medianGOP == 50 && stats.maximumGOP == 50)
    }
}
