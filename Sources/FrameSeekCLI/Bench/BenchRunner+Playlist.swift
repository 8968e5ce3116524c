import Foundation
import FrameSeek

extension BenchRunner {
    /// Runs `workload` on an HLS playlist or a DASH MPD through `HLSEngine`, read as `seek`
    /// reads it: the open fetches the playlists and the segment that describes the streams,
    /// and each seek the segments its landing needs (`FrameIndexing.asNeeded`), so that the
    /// counts are what a player pays. Steps (backstep, sequential) need the whole window's
    /// table and index it first, as `step` does; the open's time and reads then include it.
    ///
    /// - Throws: `UsageError` for `sample` and `thumbnails`, which land through one file's
    ///   engine; `MediaError` naming the playlist as `HLSEngine` does.
    func runPlaylist(
        _ workload: BenchWorkload, url: String, variant: HLSVariantSelection, stream: Int?, count: Int?, seed: UInt64,
        targets givenTargets: [MediaTime]?, precision: SeekPrecision?, sideBySideWith first: BenchResult?
    ) throws -> BenchResult {
        guard workload != .sample, workload != .thumbnails else {
            throw UsageError(
                message: "\(url): bench runs random, scrub, backstep, sequential, open and long on a playlist, not \(workload.rawValue)")
        }
        let date = Date()
        let memoryReset = WorkloadMemory.startWorkload()
        var options = FFmpegEngine.Options(
            streamIndex: stream, threads: threads, cacheBytes: cacheBytes,
            skipsNonReferenceFrames: skipsNonReferenceFrames, decoderPoolBytes: decoderPoolBytes)
        options.indexing = .asNeeded
        options.conversionThreads = conversionThreads
        let clock = ContinuousClock()
        // As in `seek`, the open describes the streams from the segment the first seek needs.
        func open(describingAt time: MediaTime?) throws(MediaError) -> HLSEngine {
            try HLSEngine(url: url, variant: variant, options: options, describingAt: time)
        }
        let openStart = clock.now
        let engine = try open(describingAt: givenTargets?.first)
        let window = engine.liveSeekWindow.seekableRange
        var targets = givenTargets
        if targets == nil, let first, SideBySide.sharesTargets(workload) {
            // The playlist's span is its EXTINFs' sum, rounded as the packager rounded them:
            // durations within a frame at 20 fps count as the same.
            targets = SideBySide.targets(first, forDuration: (window.upperBound - window.lowerBound).seconds, within: 0.05)
        }
        let drawnCount = count ?? workload.defaultCount
        let operations =
            targets.map(workload.operations(given:))
            ?? workload.seekOperations(from: window.lowerBound, to: window.upperBound, count: drawnCount, seed: seed)
            ?? workload.operations(for: engine.frameTable, count: drawnCount, seed: seed)
        // Steps index the whole window before their operations are built: that is part of
        // the open, in its time and its reads, so that the counts add up to what was fetched.
        let openLatency = clock.now - openStart
        var openReads = engine.reads
        let seekPrecision = precision ?? workload.defaultPrecision
        var samples: [BenchSample] = []
        for (done, operation) in operations.enumerated() {
            let start = clock.now
            let readsBefore = engine.reads
            switch operation {
            case .setUp(let target):
                // Not an operation: what it fetched counts with the open.
                _ = try engine.seek(to: target, precision: seekPrecision)
                openReads = openReads + (engine.reads - readsBefore)
            case .seek(let target):
                let landing = try engine.seek(to: target, precision: seekPrecision)
                try convert(engine)
                samples.append(BenchSample(target: target, latency: clock.now - start, landing: landing))
            case .open(let target?):
                let opened = try open(describingAt: target)
                let landing = try opened.seek(to: target, precision: seekPrecision)
                try convert(opened)
                samples.append(BenchSample(target: target, latency: clock.now - start, landing: landing, extraReads: opened.openReads))
            case .open(nil):
                let opened = try open(describingAt: nil)
                var opening = BenchSample(target: .zero, latency: clock.now - start, frameIndex: 0, framesDecoded: 0, keyFrameIndex: nil)
                opening.reads = opened.openReads
                samples.append(opening)
            case .stepBackward, .stepForward:
                let report = engine.step(operation.isBackward ? .backward : .forward, count: 1)
                guard report.result.didStep, let frame = report.frame else { break }
                try convert(engine)
                var sample = BenchSample(
                    target: frame.time, latency: clock.now - start, frameIndex: frame.index,
                    framesDecoded: report.framesDecoded,
                    keyFrameIndex: engine.frameTable.randomAccessPoint(forFrame: frame.index)?.frameIndex)
                sample.reads = engine.reads - readsBefore
                samples.append(sample)
            case .batch, .thumbnail:
                break  // refused above
            }
            progress?(done + 1, operations.count)
        }
        let memory = WorkloadMemory.endWorkload(reset: memoryReset)
        let stream = engine.media.selectedStream
        let settings = BenchSettings(
            file: url, codec: stream.codec, width: stream.width, height: stream.height,
            statistics: engine.indexedFrameTable?.statistics, variant: engine.variant, requestedCount: count, seed: seed,
            targetsFile: givenTargets == nil ? nil : targetsFile, threads: threads, batchDecoders: nil, cacheBytes: cacheBytes,
            skipsNonReferenceFrames: skipsNonReferenceFrames, convertsToRGB: convertsToRGB,
            conversionThreads: convertsToRGB ? conversionThreads : nil,
            libraryVersions: FFmpegLibraries.versions, cpuModel: BenchSettings.cpuModelName(), date: date)
        return BenchResult(
            file: url, workload: workload, openLatency: openLatency, openReads: openReads,
            durationSeconds: (window.upperBound - window.lowerBound).seconds, samples: samples,
            peakResidentBytes: memory.workload, processPeakResidentBytes: memory.process,
            poolPeakBytes: nil, poolBoundBytes: nil, threads: threads, precision: seekPrecision,
            ffmpegFramesPerSecond: nil, settings: settings)
    }

    /// Converts the landed frame to RGB, as the peers do, with the landed segment's engine.
    private func convert(_ engine: HLSEngine) throws(MediaError) {
        if convertsToRGB { _ = try engine.currentSegmentEngine?.landedImage() }
    }
}
