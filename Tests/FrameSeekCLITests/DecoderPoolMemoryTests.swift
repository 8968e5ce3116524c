// The decoder pool's count of what it holds against the process's real memory. Each shape of
// media (PoolMemoryShape) is benched twice by the built `frameseek`, a process of its own whose
// peak is read with wait4: with a pool of several decoders, and with one decoder
// (`--pool-mb 0`). What the pool of several costs beyond one decoder cannot be more than the
// pool counts for all of them at its peak, and that count keeps to the bound. Under a
// sanitizer only the pool's own figures are checked: its shadow memory or quarantine makes the
// peaks its own.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("Decoder pool: what it counts is what the process holds", .ffmpegLog)
struct DecoderPoolMemoryTests {
    /// What two runs of one command differ by in peak memory with nothing else changed:
    /// the allocator's arenas and the runtime's pages.
    static let noiseBytes = 16 << 20

    /// One bench run's peak memory and the pool's own figures.
    struct Run {
        let peakBytes: Int
        let poolPeakBytes: Double
        let poolBoundBytes: Double
    }

    static func bench(_ path: String, _ shape: PoolMemoryShape, poolMB: Int) throws -> Run {
        let (workload, count, _) = shape.workload
        let run = try runBounded(
            [
                Repository.builtExecutable("frameseek"), "bench", path, "--workload", workload, "-n", String(count), "--seed", "7",
                "--no-convert", "--cache-mb", "16", "--pool-mb", String(poolMB), "--json"
            ], bound: .seconds(240))
        try #require(run.exitStatus == 0, "\(shape) pool \(poolMB) MiB: exit \(run.exitStatus ?? -1), \(run.stderr)")
        let row = try #require(run.stdout.split(separator: "\n").compactMap { JSON.object(String($0)) }.first, "\(run.stdout)")
        let megabyte = Double(1 << 20)
        return Run(
            peakBytes: run.peakResidentBytes, poolPeakBytes: try #require(JSON.double(row["pool_peak_mb"])) * megabyte,
            poolBoundBytes: try #require(JSON.double(row["pool_bound_mb"])) * megabyte)
    }

    /// The memory check is skipped only where a sanitizer really runs: the Makefile's
    /// sanitizer runs build in their own directories.
    @Test("The sanitizer check agrees with the build directory")
    func sanitizerCheck() {
        let directory = Repository.builtExecutable("frameseek")
        #expect(Sanitizer.isActive == (directory.contains("/.build-tsan/") || directory.contains("/.build-asan/")), "\(directory)")
    }

    @Test(
        "Long GOPs refilled for backward steps, a large index, pictures larger than the header: the pool counts what it holds",
        .timeLimit(.minutes(5)), arguments: PoolMemoryShape.allCases)
    func countsWhatItHolds(_ shape: PoolMemoryShape) throws {
        let directory = try TemporaryDirectory()
        let path = try shape.make(in: directory).path
        let poolMB = shape.workload.poolMB
        let pooled = try Self.bench(path, shape, poolMB: poolMB)
        let single = try Self.bench(path, shape, poolMB: 0)
        #expect(pooled.poolBoundBytes == Double(poolMB << 20), "\(shape): a bound of \(pooled.poolBoundBytes) bytes")
        #expect(pooled.poolPeakBytes <= pooled.poolBoundBytes, "\(shape): the pool's peak \(pooled.poolPeakBytes) bytes")
        // Under a sanitizer the peaks are mostly its shadow memory or quarantine, not the pool's.
        guard !Sanitizer.isActive else { return }
        let beyondOneDecoder = pooled.peakBytes - single.peakBytes
        #expect(
            Double(beyondOneDecoder) <= pooled.poolPeakBytes + Double(Self.noiseBytes),
            "\(shape): the pool cost \(beyondOneDecoder >> 20) MiB more than one decoder, and counted \(Int(pooled.poolPeakBytes) >> 20) MiB"
        )
    }
}
