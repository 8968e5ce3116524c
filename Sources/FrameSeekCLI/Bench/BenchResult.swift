import Foundation
import FrameSeek

/// One measured operation.
public struct BenchSample: Sendable {
    /// The seek target, or the landed time for steps.
    public let target: MediaTime
    /// Monotonic time from the call to the landed frame being available (and converted).
    public let latency: Duration
    /// The frame landed on: its number in the stream when `isIndexed`, else in the run of
    /// segments the landing read (which still measures the distance from its keyframe).
    public let frameIndex: Int
    /// Frames the decoder produced.
    public let framesDecoded: Int
    /// The keyframe decoding started from (the frame's own keyframe on a cache hit).
    public let keyFrameIndex: Int?
    /// What the operation read from the media (`SeekLanding.reads`; for a cold seek, the open
    /// too); nil where it is not counted (thumbnails, HLS).
    public var reads: MediaReads?
    /// Packets of the stream demuxed (`SeekLanding.packetsRead`).
    public var packetsRead = 0
    /// Packets read and not decoded (`SeekLanding.framesSkipped`).
    public var framesSkipped = 0
    /// Time inside the decoder (`SeekLanding.decodeTime`).
    public var decodeTime: Duration = .zero
    /// Whether the frame cache or a parked decoder served it (`SeekLanding.servedFromCache`).
    public var servedFromCache = false
    /// Whether `frameIndex` and `keyFrameIndex` number the stream's frames (`SeekLanding.isIndexed`):
    /// false for a playlist's landing read segment by segment.
    public var isIndexed = true

    /// A sample as measured.
    public init(target: MediaTime, latency: Duration, frameIndex: Int, framesDecoded: Int, keyFrameIndex: Int?) {
        self.target = target
        self.latency = latency
        self.frameIndex = frameIndex
        self.framesDecoded = framesDecoded
        self.keyFrameIndex = keyFrameIndex
    }

    /// The sample of `landing`, reached in `latency`, with the landing's counts.
    init(target: MediaTime, latency: Duration, landing: SeekLanding, extraReads: MediaReads? = nil) {
        self.init(
            target: target, latency: latency, frameIndex: landing.frame.index, framesDecoded: landing.framesDecoded,
            keyFrameIndex: landing.keyframeIndex)
        reads = landing.reads.map { reads in extraReads.map { $0 + reads } ?? reads }
        packetsRead = landing.packetsRead
        framesSkipped = landing.framesSkipped
        decodeTime = landing.decodeTime
        servedFromCache = landing.servedFromCache
        isIndexed = landing.isIndexed
    }

    /// Frames from the keyframe decoding started at to the landed frame: the x of the report's
    /// scatter, where a GOP structure shows. Never negative (an open GOP's leading pictures
    /// sit before their keyframe in presentation order).
    public var framesAfterKeyframe: Int { max(0, frameIndex - (keyFrameIndex ?? frameIndex)) }
}

/// A workload's samples and what they add up to.
public struct BenchResult: Sendable {
    /// The file measured.
    public let file: String
    /// The workload run.
    public let workload: BenchWorkload
    /// Opening and indexing, apart from the operations.
    public let openLatency: Duration
    /// What that open read (`FFmpegEngine.openReads`).
    public let openReads: MediaReads
    /// The file's duration in seconds (the container's, else the frame table's end).
    public let durationSeconds: Double
    /// One sample per operation.
    public let samples: [BenchSample]
    /// The peak resident memory of this workload alone, in bytes: Linux `VmHWM`, reset before
    /// the workload opened its engine and read after it ended. Nil when the kernel refused the
    /// reset, since the process-wide peak would then be passed off as this workload's.
    public let peakResidentBytes: Int?
    /// The process's peak resident memory so far, in bytes, all workloads before this one
    /// included (what `peak_rss_mb` meant before it was measured per workload).
    public let processPeakResidentBytes: Int?
    /// The engine's decoder pool at its largest during the workload, in bytes, as it counts
    /// what its decoders hold (`FFmpegEngine.decoderPoolPeakBytes`); nil for a playlist, whose
    /// segments each have an engine and a pool of their own.
    public let poolPeakBytes: Int?
    /// The memory bound the engine's decoder pool keeps to, in bytes; nil as above.
    public let poolBoundBytes: Int?
    /// Decoder threads used.
    public let threads: Int
    /// The precision of the workload's seeks.
    public let precision: SeekPrecision
    /// `ffmpeg -threads 1 -i F -f null -` frames per second, measured in the same run
    /// (sequential workload only, when the ffmpeg command is on PATH).
    public let ffmpegFramesPerSecond: Double?
    /// What the run was measured on and with, so a report can be trusted and repeated.
    public let settings: BenchSettings

    /// Whether the run was asked for its variant by `--variant`, and `input` names it.
    public var namesVariant = false

    /// With `--floor`, each sample's time in the bare decode loop (`DecodeFloor`), in order.
    public var floor: LatencySamples?
    /// With `--floor`, why the bare loop could not make the landings (the run goes on without).
    public var floorError: String?

    /// FrameSeek's median over the floor's, less one: what it spends above the decoding.
    public var floorOverhead: Double? {
        guard let floor, floor.count > 0, floor.median > 0 else { return nil }
        return median / floor.median - 1
    }

    /// What was measured, as reports and verdicts name it: the file, and the variant when
    /// `--variant` chose it (`bench URL --variant 0,2` compares renditions).
    public var input: String {
        guard namesVariant, let variant = settings.variant else { return file }
        return "\(file) [variant \(variant.position)]"
    }

    /// What the operations read, all added; nil when none was counted.
    public var totalReads: MediaReads? {
        let counted = samples.compactMap(\.reads)
        return counted.isEmpty ? nil : counted.reduce(.none, +)
    }

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
