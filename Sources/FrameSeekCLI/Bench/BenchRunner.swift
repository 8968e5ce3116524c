import Foundation
import FrameSeek

/// Runs workloads on the FFmpeg engine.
public struct BenchRunner {
    /// Decoder threads.
    public var threads = 1
    /// Decoders a `sample` batch splits its GOP runs between (`FFmpegEngine.defaultBatchDecoders`
    /// unless set).
    public var batchDecoders = FFmpegEngine.defaultBatchDecoders
    /// Convert each landed frame to RGB, as the peers do (PyAV, torchcodec and decord all hand
    /// back RGB arrays), so the comparison is like for like.
    public var convertsToRGB = true
    /// See `FFmpegEngine.Options.conversionThreads`.
    public var conversionThreads = FFmpegEngine.Options.defaultConversionThreads
    /// See `FFmpegEngine.Options.decodesAhead`.
    public var decodesAhead = true
    /// Engine options beyond the thread count.
    public var cacheBytes = FFmpegEngine.Options.defaultCacheBytes
    /// See `FFmpegEngine.Options.skipsNonReferenceFrames`.
    public var skipsNonReferenceFrames = true
    /// See `FFmpegEngine.Options.decoderPoolBytes`.
    public var decoderPoolBytes = FFmpegEngine.Options.defaultDecoderPoolBytes
    /// Called after each operation with (done, total), for progress lines.
    public var progress: ((Int, Int) -> Void)?
    /// The `--targets` file the targets came from, for the settings the run reports.
    public var targetsFile: String?
    /// Also time the landings in the bare decode loop (`--floor`, `DecodeFloor`).
    public var measuresFloor = false

    /// A runner with the defaults.
    public init() {}

    /// Runs `workload` on `file`: `count` operations (nil for the workload's default) drawn
    /// with `seed`, or the seeks in `targets`.
    ///
    /// With `sideBySideWith`, the result of the same workload on the first of several encodes,
    /// a workload that shares targets (`SideBySide.sharesTargets`) and has none given seeks
    /// to that result's targets, at the same times or the same fractions of the duration.
    public func run(
        _ workload: BenchWorkload, file: String, stream: Int?, count: Int?, seed: UInt64,
        targets givenTargets: [MediaTime]?, precision: SeekPrecision?,
        sideBySideWith first: BenchResult? = nil
    ) throws -> BenchResult {
        let date = Date()
        // Before the engine opens: its index and buffers are part of the workload's memory.
        let memoryReset = WorkloadMemory.startWorkload()
        var options = FFmpegEngine.Options(
            streamIndex: stream, threads: threads, cacheBytes: cacheBytes,
            skipsNonReferenceFrames: skipsNonReferenceFrames, decoderPoolBytes: decoderPoolBytes)
        options.conversionThreads = conversionThreads
        options.decodesAhead = decodesAhead
        let engine = try FFmpegEngine(path: file, options: options)
        let table = engine.frameTable
        let duration = engine.media.duration ?? table.frames.last.map(\.end) ?? .zero
        var targets = givenTargets
        if targets == nil, let first, SideBySide.sharesTargets(workload) {
            let frameSeconds = table.frames.last.map { ($0.end - $0.time).seconds } ?? 0
            targets = SideBySide.targets(first, forDuration: duration.seconds, within: frameSeconds)
        }
        let operations =
            targets.map(workload.operations(given:))
            ?? workload.operations(for: table, count: count ?? workload.defaultCount, seed: seed)
        let seekPrecision = precision ?? workload.defaultPrecision
        var thumbnailer: ThumbnailGenerator?
        let isVideo = engine.media.selectedStream.mediaType == .video
        var samples: [BenchSample] = []
        samples.reserveCapacity(operations.count)
        var setUpReads: MediaReads?
        let clock = ContinuousClock()
        for (done, operation) in operations.enumerated() {
            let start = clock.now
            let sample: BenchSample?
            switch operation {
            case .setUp(let target):
                // Not an operation: what it read counts with the open.
                setUpReads = try engine.seek(to: target, precision: seekPrecision).reads
                sample = nil
            case .batch(let times):
                // The whole call's time is spread evenly over its samples, as peers.py spreads
                // torchcodec's batch call: with decoders landing at once, no landing has a time
                // of its own. The samples keep the order of `times`.
                let converts = convertsToRGB
                let landed = try engine.seek(to: times, precision: seekPrecision, decoders: batchDecoders) { _, _, decoder in
                    if converts { _ = try decoder.landedImage() }
                }
                let share = (clock.now - start) / max(1, times.count)
                samples += zip(times, landed).map { time, result in BenchSample(target: time, latency: share, landing: result.landing) }
                sample = nil
            case .open(let target):
                let opened = try FFmpegEngine(path: file, options: options)
                if let target {
                    let landing = try opened.seek(to: target, precision: seekPrecision)
                    try convert(opened)
                    sample = BenchSample(target: target, latency: clock.now - start, landing: landing, extraReads: opened.openReads)
                } else {
                    var opening = BenchSample(
                        target: .zero, latency: clock.now - start, frameIndex: 0, framesDecoded: 0, keyFrameIndex: nil)
                    opening.reads = opened.openReads
                    sample = opening
                }
            case .seek(let target):
                let landing = try engine.seek(to: target, precision: seekPrecision)
                try convert(engine)
                sample = BenchSample(target: target, latency: clock.now - start, landing: landing)
            case .thumbnail where !isVideo:
                sample = nil  // audio has no pictures
            case .stepBackward where !isVideo, .stepForward where !isVideo:
                // Audio cannot step; the same walk is a seek to the neighbouring frame.
                let current = engine.currentFrameIndex ?? 0
                let next = operation.isBackward ? current - 1 : current + 1
                guard table.frames.indices.contains(next) else { sample = nil; break }
                let landing = try engine.seek(to: table.frames[next].time, precision: .exact)
                sample = BenchSample(target: landing.frame.time, latency: clock.now - start, landing: landing)
            case .thumbnail(let target):
                if thumbnailer == nil {
                    var thumbnailOptions = FFmpegEngine.Options(streamIndex: stream, threads: threads)
                    thumbnailOptions.conversionThreads = conversionThreads
                    thumbnailer = try ThumbnailGenerator(path: file, options: thumbnailOptions)
                    thumbnailer?.precision = seekPrecision
                }
                let thumbnail = try thumbnailer!.thumbnail(at: target)
                // Opened with the whole table (the options' default), every thumbnail has its number.
                let frameIndex = thumbnail.frameIndex ?? table.frameIndex(covering: thumbnail.actualTime) ?? 0
                sample = BenchSample(
                    target: target, latency: clock.now - start, frameIndex: frameIndex,
                    framesDecoded: thumbnail.fromKeyframeOnly ? 1 : 0,
                    keyFrameIndex: table.randomAccessPoint(forFrame: frameIndex)?.frameIndex)
            case .stepBackward, .stepForward:
                let readsBefore = engine.demuxerReads
                let report = engine.step(operation.isBackward ? .backward : .forward, count: 1)
                guard report.result.didStep, let frame = report.frame else { sample = nil; break }
                try convert(engine)
                // Read before the time is taken: reading waits for the next step decoding ahead
                // (`FFmpegEngine.Options.decodesAhead`), and every wait belongs to some sample.
                let reads = engine.demuxerReads - readsBefore
                var step = BenchSample(
                    target: frame.time, latency: clock.now - start, frameIndex: frame.index,
                    framesDecoded: report.framesDecoded,
                    keyFrameIndex: table.randomAccessPoint(forFrame: frame.index)?.frameIndex)
                step.reads = reads
                sample = step
            }
            if let sample { samples.append(sample) }
            progress?(done + 1, operations.count)
        }
        let ffmpeg =
            workload == .sequential
            ? Self.ffmpegFramesPerSecond(
                file: file, stream: table.streamIndex,
                frames: table.frames.count) : nil
        // Read while the engine is still open, so its cache and buffers count.
        let memory = WorkloadMemory.endWorkload(reset: memoryReset)
        let stream = engine.media.selectedStream
        var settings = BenchSettings(
            file: file, codec: stream.codec, width: stream.width, height: stream.height, statistics: table.statistics,
            variant: nil, requestedCount: count, seed: seed,
            targetsFile: targets == nil ? nil : targetsFile, threads: threads,
            batchDecoders: operations.contains { $0.isBatch } ? batchDecoders : nil, cacheBytes: cacheBytes,
            skipsNonReferenceFrames: skipsNonReferenceFrames, convertsToRGB: convertsToRGB,
            conversionThreads: convertsToRGB ? conversionThreads : nil,
            libraryVersions: FFmpegLibraries.versions, cpuModel: BenchSettings.cpuModelName(), date: date)
        if operations.contains(where: { if case .stepForward = $0 { true } else { false } }) { settings.decodesAhead = decodesAhead }
        var result = BenchResult(
            file: file, workload: workload, openLatency: engine.openLatency, openReads: engine.openReads + (setUpReads ?? .none),
            durationSeconds: duration.seconds, samples: samples,
            peakResidentBytes: memory.workload, processPeakResidentBytes: memory.process,
            poolPeakBytes: engine.decoderPoolPeakBytes, poolBoundBytes: engine.decoderPoolBoundBytes, threads: threads,
            precision: seekPrecision,
            ffmpegFramesPerSecond: ffmpeg, settings: settings)
        if measuresFloor, isVideo, ![.open, .long, .thumbnails].contains(workload) {
            // The floor is a measure beside the run, not part of it: a landing the bare loop
            // cannot make (a damaged stretch FrameSeek decodes around) is reported, not fatal.
            do { result.floor = try floor(of: samples, in: table, file: file) } catch { result.floorError = "\(error)" }
        }
        return result
    }

    /// The samples' landings timed in the bare decode loop.
    private func floor(of samples: [BenchSample], in table: FrameTable, file: String) throws -> LatencySamples {
        let landings = samples.compactMap { sample -> DecodeFloor.Landing? in
            guard table.frames.indices.contains(sample.frameIndex),
                let keyframe = table.randomAccessPoint(forFrame: sample.frameIndex)
            else { return nil }
            return (keyframe, table.frames[sample.frameIndex].pts)
        }
        var floor = LatencySamples()
        for latency in try DecodeFloor.latencies(
            path: file, streamIndex: table.streamIndex, threads: threads, skipsNonReferenceFrames: skipsNonReferenceFrames,
            landings: landings)
        {
            floor.add(latency)
        }
        return floor
    }

    private func convert(_ engine: FFmpegEngine) throws(MediaError) {
        if convertsToRGB { _ = try engine.landedImage() }
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
