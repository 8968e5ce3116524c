import Foundation
import FrameSeek

/// One measured operation.
public struct BenchSample: Sendable {
    /// The seek target, or the landed time for steps.
    public let target: MediaTime
    /// Monotonic time from the call to the landed frame being available (and converted).
    public let latency: Duration
    /// The frame landed on.
    public let frameIndex: Int
    /// Frames the decoder produced.
    public let framesDecoded: Int
    /// The keyframe decoding started from (the frame's own keyframe on a cache hit).
    public let keyFrameIndex: Int?
}

/// A workload's samples and what they add up to.
public struct BenchResult: Sendable {
    /// The file measured.
    public let file: String
    /// The workload run.
    public let workload: BenchWorkload
    /// Opening and indexing, apart from the operations.
    public let openLatency: Duration
    /// One sample per operation.
    public let samples: [BenchSample]
    /// The process's peak resident memory after the run, in bytes (Linux `VmHWM`).
    public let peakResidentBytes: Int?
    /// Decoder threads used.
    public let threads: Int
    /// The precision of the workload's seeks.
    public let precision: SeekPrecision
    /// `ffmpeg -threads 1 -i F -f null -` frames per second, measured in the same run
    /// (sequential workload only, when the ffmpeg command is on PATH).
    public let ffmpegFramesPerSecond: Double?

    /// The operations' latencies.
    public var latencies: LatencySamples { LatencySamples(milliseconds: samples.map(\.latency.milliseconds)) }
    /// Latencies in milliseconds, sorted.
    public var sortedMilliseconds: [Double] { latencies.sorted }
    /// The median latency.
    public var median: Double { latencies.median }
    /// The 95th percentile latency.
    public var p95: Double { latencies.p95 }
    /// The mean latency.
    public var mean: Double { latencies.mean }
    /// The worst latency.
    public var max: Double { latencies.max }
    /// Frames per second over the whole run (meaningful for sequential).
    public var framesPerSecond: Double {
        let total = latencies.total
        return total > 0 ? Double(samples.count) / (total / 1000) : .nan
    }
}

/// Runs workloads on the FFmpeg engine.
public struct BenchRunner {
    /// Decoder threads.
    public var threads = 1
    /// Convert each landed frame to RGB, as the peers do (PyAV, torchcodec and decord all hand
    /// back RGB arrays), so the comparison is like for like.
    public var convertsToRGB = true
    /// Engine options beyond the thread count.
    public var cacheBytes = FFmpegEngine.Options.defaultCacheBytes
    /// See `FFmpegEngine.Options.skipsNonReferenceFrames`.
    public var skipsNonReferenceFrames = true
    /// Called after each operation with (done, total), for progress lines.
    public var progress: ((Int, Int) -> Void)?

    /// A runner with the defaults.
    public init() {}

    /// Runs `workload` on `file`: `count` operations (nil for the workload's default) drawn
    /// with `seed`, or the seeks in `targets`.
    public func run(_ workload: BenchWorkload, file: String, stream: Int?, count: Int?, seed: UInt64,
                    targets: [MediaTime]?, precision: SeekPrecision?) throws -> BenchResult {
        let engine = try FFmpegEngine(path: file, options: .init(streamIndex: stream, threads: threads, cacheBytes: cacheBytes,
                                                                 skipsNonReferenceFrames: skipsNonReferenceFrames))
        let table = engine.frameTable
        let operations: [BenchOperation]
        switch (workload, targets) {
        case (.backstep, let targets?) where !targets.isEmpty:
            // The peers' backstep targets are the frames before a start, newest first: land on
            // the first, then step back once per remaining target.
            operations = [.setUp(targets[0])] + Array(repeating: .stepBackward, count: targets.count - 1)
        case (_, let targets?):
            operations = targets.map(BenchOperation.seek)
        case (_, nil):
            operations = workload.operations(for: table, count: count ?? workload.defaultCount, seed: seed)
        }
        let seekPrecision = precision ?? workload.defaultPrecision
        var thumbnailer: ThumbnailGenerator?
        let isVideo = engine.media.selectedStream.mediaType == .video
        var samples: [BenchSample] = []
        samples.reserveCapacity(operations.count)
        let clock = ContinuousClock()
        for (done, operation) in operations.enumerated() {
            let start = clock.now
            let sample: BenchSample?
            switch operation {
            case .setUp(let target):
                _ = try engine.seek(to: target, precision: seekPrecision)
                sample = nil
            case .seek(let target):
                let landing = try engine.seek(to: target, precision: seekPrecision)
                try convert(engine)
                sample = BenchSample(target: target, latency: clock.now - start, frameIndex: landing.frame.index,
                                     framesDecoded: landing.framesDecoded, keyFrameIndex: landing.keyframeIndex)
            case .thumbnail where !isVideo:
                sample = nil  // audio has no pictures
            case .stepBackward where !isVideo, .stepForward where !isVideo:
                // Audio cannot step; the same walk is a seek to the neighbouring frame.
                let current = engine.currentFrameIndex ?? 0
                let next = operation.isBackward ? current - 1 : current + 1
                guard table.frames.indices.contains(next) else { sample = nil; break }
                let landing = try engine.seek(to: table.frames[next].time, precision: .exact)
                sample = BenchSample(target: landing.frame.time, latency: clock.now - start, frameIndex: landing.frame.index,
                                     framesDecoded: landing.framesDecoded, keyFrameIndex: landing.keyframeIndex)
            case .thumbnail(let target):
                if thumbnailer == nil {
                    thumbnailer = try ThumbnailGenerator(path: file, options: .init(streamIndex: stream, threads: threads))
                    thumbnailer?.precision = seekPrecision
                }
                let thumbnail = try thumbnailer!.thumbnail(at: target)
                sample = BenchSample(target: target, latency: clock.now - start, frameIndex: thumbnail.frameIndex,
                                     framesDecoded: thumbnail.fromKeyframeOnly ? 1 : 0,
                                     keyFrameIndex: table.randomAccessPoint(forFrame: thumbnail.frameIndex)?.frameIndex)
            case .stepBackward, .stepForward:
                let report = engine.step(operation.isBackward ? .backward : .forward, count: 1)
                guard report.result.didStep, let frame = report.frame else { sample = nil; break }
                try convert(engine)
                sample = BenchSample(target: frame.time, latency: clock.now - start, frameIndex: frame.index,
                                     framesDecoded: report.framesDecoded,
                                     keyFrameIndex: table.randomAccessPoint(forFrame: frame.index)?.frameIndex)
            }
            if let sample { samples.append(sample) }
            progress?(done + 1, operations.count)
        }
        let ffmpeg = workload == .sequential ? Self.ffmpegFramesPerSecond(file: file, stream: table.streamIndex,
                                                                         frames: table.frames.count) : nil
        return BenchResult(file: file, workload: workload, openLatency: engine.openLatency, samples: samples,
                           peakResidentBytes: Self.peakResidentBytes(), threads: threads, precision: seekPrecision,
                           ffmpegFramesPerSecond: ffmpeg)
    }

    private func convert(_ engine: FFmpegEngine) throws(MediaError) {
        if convertsToRGB { _ = try engine.landedImage() }
    }

    /// `VmHWM` from /proc/self/status.
    static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }

    /// Times `ffmpeg -threads 1 -i FILE -map 0:S -f null -`, the reference for sequential decoding.
    static func ffmpegFramesPerSecond(file: String, stream: Int, frames: Int) -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-threads", "1", "-i", file, "-map", "0:\(stream)", "-f", "null", "-"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let seconds = (clock.now - start).milliseconds / 1000
        return seconds > 0 ? Double(frames) / seconds : nil
    }
}

extension BenchOperation {
    var isBackward: Bool { if case .stepBackward = self { return true } else { return false } }
}
