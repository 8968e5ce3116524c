// `frameseek bench --floor`: the same landings decoded by a bare libavcodec loop. The floor
// stops only on the landed frame's PTS, so a landing whose PTS the decoder never gives back
// fails the run; every video fixture (open GOPs, B-pyramids, edit lists, VFR, MPEG-TS
// offsets) must come through, for the seeking and the stepping workloads alike.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("Command-line bench --floor", .ffmpegLog)
struct CLIBenchFloorTests {
    @Test("bench --floor finds every landed frame in the bare loop, on every video fixture", arguments: FixtureCatalog.video)
    func everyFixture(_ fixture: Fixture) throws {
        let lines = jsonLines([
            "bench", fixture.path, "--stream", String(fixture.stream), "--workload", "random,scrub,backstep,sequential,sample,open",
            "-n", "8", "--floor", "--json"
        ])
        #expect(lines.count == 6, "\(fixture.id): \(lines.count) workloads")
        for object in lines {
            let workload = object["workload"] as? String ?? "?"
            let samples = object["samples"] as? [[String: Any]] ?? []
            guard workload != "open" else {
                #expect(object["floor"] == nil, "\(fixture.id): open has no landing to floor")
                continue
            }
            let floor = try #require(object["floor"] as? [String: Any], "\(fixture.id) \(workload): no floor")
            #expect(JSON.int(floor["n"]) == samples.count, "\(fixture.id) \(workload): the floor timed every landing")
            let median = try #require((object["median_ms"] as? NSNumber)?.doubleValue)
            let floorMedian = try #require((floor["median_ms"] as? NSNumber)?.doubleValue)
            #expect(floorMedian > 0)
            if let overhead = (floor["overhead"] as? NSNumber)?.doubleValue {
                #expect(abs(overhead - (median / floorMedian - 1)) < 1e-9)
            }
        }
    }
}
