import Foundation
import FrameSeek

/// What a bench run was measured on and with: enough to judge a number and to run it again.
/// Written into `bench --json` (as `settings`) and at the top of the report.
public struct BenchSettings: Sendable {
    /// The file measured.
    public let file: String
    /// The selected stream's codec (FFmpeg's name, e.g. `h264`).
    public let codec: String
    /// The selected stream's coded width and height (nil for audio).
    public let width: Int?, height: Int?
    /// The selected stream's frame table in figures: its frames, keyframes, GOP lengths (the
    /// median decides what an exact seek costs) and reorder depth. Nil where the run never
    /// indexed the whole stream (a playlist read as needed), so that no count is guessed.
    public let statistics: FrameTableStatistics?
    /// Frames in the table.
    public var frameCount: Int? { statistics?.frameCount }
    /// The median distance between keyframes, in frames; nil without keyframes or a table.
    public var medianGOP: Int? { statistics?.medianGOP }
    /// Keyframes in the table.
    public var keyframeCount: Int? { statistics?.keyframeCount }
    /// The shortest and longest GOP; nil without keyframes or a table.
    public var minimumGOP: Int? { statistics?.minimumGOP }
    public var maximumGOP: Int? { statistics?.maximumGOP }
    /// The most frames shown before one decoded earlier (0 without B-frames).
    public var reorderDepth: Int? { statistics?.reorderDepth }
    /// The variant of a multivariant playlist or MPD that was measured; nil for a file or a
    /// media playlist.
    public let variant: (position: Int, variant: HLSVariant)?
    /// The `-n` asked for; nil when the workload's default was used.
    public let requestedCount: Int?
    /// The seed the targets were drawn with (unused when a targets file was given).
    public let seed: UInt64
    /// The `--targets` file, when the seeks came from one.
    public let targetsFile: String?
    /// Decoder threads (0 lets FFmpeg choose).
    public let threads: Int
    /// The decoders a batch split its GOP runs between; nil when no workload landed a batch.
    public let batchDecoders: Int?
    /// The frame cache's size in bytes.
    public let cacheBytes: Int
    /// Whether non-reference frames before a target were skipped.
    public let skipsNonReferenceFrames: Bool
    /// Whether each landed frame was converted to RGB, as the peers' decoders do.
    public let convertsToRGB: Bool
    /// The threads each conversion to RGB ran on (`--convert-threads`); nil without conversion.
    public let conversionThreads: Int?
    /// Whether each forward step landed the next on another thread (`--no-decode-ahead` turns
    /// it off); nil for workloads that do not step forward.
    public var decodesAhead: Bool?
    /// The FFmpeg libraries linked at run time, by name (`libavcodec`: `59.37.100`, ...).
    public let libraryVersions: [String: String]
    /// The CPU, from /proc/cpuinfo's "model name"; nil where the kernel does not say.
    public let cpuModel: String?
    /// When the workload started.
    public let date: Date

    /// The date as ISO 8601 in UTC, to the second (`2025-01-31T09:15:00Z`).
    public var isoDate: String { Self.isoText(date) }

    /// `date` as ISO 8601 in UTC, to the second.
    static func isoText(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// The libraries as one line, in name order: `libavcodec 59.37.100, libavformat ...`.
    public var librariesText: String {
        libraryVersions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// The CPU model this process runs on: the first "model name" line of /proc/cpuinfo.
    static func cpuModelName() -> String? {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { return name }
        }
        return nil
    }
}

extension BenchSettings {
    /// The `settings` object of `bench --json`.
    var json: JSONValue {
        let libraries: JSONValue = .object(libraryVersions.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        return .object([
            ("file", .string(file)), ("codec", .string(codec)),
            ("width", .integer(width)), ("height", .integer(height)),
            ("frame_count", .integer(frameCount)), ("gop_median_frames", .integer(medianGOP)),
            ("keyframe_count", .integer(keyframeCount)), ("gop_min_frames", .integer(minimumGOP)),
            ("gop_max_frames", .integer(maximumGOP)), ("reorder_depth", .integer(reorderDepth)),
            ("variant", PlaylistInput.json(variant)),
            ("requested_n", .integer(requestedCount)), ("seed", .integer(Int64(clamping: seed))),
            ("targets_file", .string(targetsFile)), ("threads", .integer(Int64(threads))),
            ("batch_decoders", JSONValue.integer(batchDecoders)),
            ("cache_mb", .number(Double(cacheBytes) / 1_048_576)),
            ("skip_nonref", .bool(skipsNonReferenceFrames)), ("convert_rgb", .bool(convertsToRGB)),
            ("convert_threads", JSONValue.integer(conversionThreads)),
            ("decode_ahead", decodesAhead.map(JSONValue.bool) ?? .null),
            ("ffmpeg_libraries", libraries), ("cpu_model", .string(cpuModel)), ("date", .string(isoDate))
        ])
    }
}
