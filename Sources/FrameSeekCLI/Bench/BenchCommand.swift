import Foundation
import FrameSeek

/// `frameseek bench`: what seeks and steps cost on one encode.
enum BenchCommand: Subcommand {
    static let name = "bench"
    static let summary = "measure seek and step latency on an encode; JSON and an HTML report"
    static let usage = """
        frameseek bench FILE [FILE...] [--workload W[,W...]] [-n N] [--seed S] [--targets FILE]
                        [--precision P] [--threads N] [--decoders N] [--stream N] [--variant V[,V...]]
                        [--cache-mb MB] [--convert-threads N] [--no-decode-ahead]
                        [--pool-mb MB] [--no-convert] [--no-skip-nonref] [--network RTT,BW]
                        [--json] [--report out.html] [--peers RESULTS.json]
        frameseek bench --peers RESULTS.json --report out.html
        frameseek bench --catalog CATALOG [--shard K/N] [--results FILE]
                        [--root DIR | --allow-outside-root] [the same measuring options]
        frameseek bench merge RESULTS... [--json]
        """
    static let maximumPositionals = Int.max
    static let options: [CommandOption] =
        [
            workload, count, seed, targets, precision, threads, .convertThreads, .noDecodeAhead, .batchDecoders, .stream, variants,
            .cacheMB, poolMB,
            noConvert,
            noSkipNonReference,
            network, report, peers, floor
        ] + CommandOption.catalogRun
    static let discussion = """
        Several FILEs (encodes of one clip, or URLs) are measured side by side: the seeks of
        random, scrub and long go to the first file's targets in every file, at the same times
        where the durations agree to a frame, else at the same fractions of each duration; a
        verdict line per workload then compares each file with the first ("B's random seeks cost
        3.10x A's at p95 ..."), on stdout, or on stderr with --json.
        --network RTT,BW (50ms,20mbit; or 3g, 4g, wifi) models the network each read would cross:
        modeled_network_ms = requests x RTT + bytes x 8 / BW for every operation whose requests
        were counted (files over HTTP), modeled_seek_ms its latency plus that; every such figure
        is named modeled_ and is never a measurement.
        An HLS playlist or a DASH MPD (a path or URL) is read as seek reads it, as a player
        does: the open fetches the playlists and the segment that describes the streams, each
        seek only the segments its landing needs, and bytes_read and requests count every
        fetch. Its landings carry no frame number (frame_index null), and backstep and
        sequential index the whole window first; sample and thumbnails run on files only.
        --variant V[,V...] measures each named variant (N, bandwidth:BPS or resolution:WxH)
        side by side, as several files are; every result names its variant.

        Workloads (default random):
          random      N exact seeks to seeded random times (default N 20)
          scrub       a drag back and forth over 6 s, an exact seek at each of N samples
          backstep    N single-frame steps backward from a random frame (default 60)
          sequential  every frame in order (or the first N); also times ffmpeg -threads 1 -f null
          thumbnails  a 160x90 thumbnail every 10 s from the thumbnail generator (nearest keyframe)
          sample      N frames spread evenly over the clip (default 32), landed as one batch
                      (seek --sample), its GOPs split between --decoders N decoders (default
                      one per core, at most 2); each sample's latency is the call's time / N
          open        the file opened N times (default 5), no index cache: building its table
          long        N cold exact seeks (default 5): each opens the file, no index cache, and
                      seeks to a seeded random time, as a player resuming a long file does
          all         every workload above
        --targets FILE  seek to these times instead (one per line, as peers.py --targets-out
                        writes them; blank lines and CRLF are fine, a file with no time is an
                        error), so FrameSeek and the peers decode the same frames; with
                        backstep, land on the first and step back once per further target.
                        Times are seconds (92.5 or 92.5s), rationals or clock times.
        n counts measured operations only: backstep's landing before its first step is not one.
        Each landed frame is converted to RGB, as the peers' decoders do; --no-convert skips it.
        --no-skip-nonref decodes every frame on the way (to measure what skipping saves).
        --floor also decodes, after each workload, the same landings in a bare libavcodec loop
        (the same decoder, threads and skipping of non-reference frames before the landed one;
        one decoder going forward within a GOP, else seeking to the landing's keyframe; no
        table, cache, pool or RGB) and reports floor
        {n, median_ms, p95_ms, overhead}: overhead is the workload's median over the floor's,
        less one, or floor {error} when the bare loop could not make a landing (the run goes
        on). Seek, scrub, backstep, sequential and sample workloads on a file have one; the
        floor uses one decoder, also where sample uses several.
        --pool-mb MB bounds the decoders parked in recently visited GOPs (default 256; 0 keeps one
        decoder, to measure what the pool saves); pool_peak_mb and pool_bound_mb report it.
        Decoding uses one thread unless --threads says otherwise.

        Prints a line per workload; --json prints one object per workload: workload, n, open_ms,
        median_ms, p95_ms, mean_ms, max_ms, fps, peak_rss_mb (this workload's own peak, null when
        the kernel cannot reset the peak), process_peak_rss_mb, pool_peak_mb, pool_bound_mb,
        threads, precision, ffmpeg_fps (sequential), settings {file, codec, width, height,
        frame_count, gop_median_frames, requested_n, seed, targets_file, threads, batch_decoders, cache_mb,
        skip_nonref, convert_rgb, convert_threads, decode_ahead, ffmpeg_libraries, cpu_model, date}, and samples [{target,
        latency_ms, frame_index, frames_decoded, key_frame_index, bytes_read, requests,
        frames_demuxed, frames_skipped, decode_ms, served_from_cache}], then open_bytes_read,
        open_requests, bytes_read and requests (the operations', added), and with --network
        network {modeled, rtt_ms, bandwidth_bits_per_second}, modeled_open_network_ms,
        modeled_network_ms, modeled_median_ms, modeled_p95_ms, and per sample modeled_network_ms
        and modeled_seek_ms. Counts are counted, not estimated: over HTTP, bytes the responses
        carried and the requests made. One object per file and workload.
        --report writes one self-contained HTML file: the run's settings, a row per workload,
        the latency distribution and latency against distance from the keyframe; the report's
        folder is checked before the run, and the file is written under a temporary name and
        renamed into place. --peers adds a grouped bar chart of Benchmarks/compare_peers.py
        --json results (medians and p95s per workload and decoder); without FILE the report
        holds that chart alone. A peers file that cannot be read is refused before the run.
        Progress goes to stderr when it is a terminal.

        --catalog CATALOG measures every media file the catalog names (JSON Lines: a path, or
        {"media": PATH}, relative to the catalog), each on its own with the options given.
        --shard K/N takes every N-th line from line K (from 0), so N processes cover the
        catalog once; paths must resolve inside --root (default: the current folder) and be
        regular files. Prints a line per file and workload (--json: {"type": "row", line,
        media, result} with result as bench --json prints it, or {"type": "error", line,
        media, error}) and a summary line; --results FILE also writes those lines, whole at the
        end. bench merge RESULTS... joins the shards' rows into one report in catalog order,
        checking that every shard is there once; --report is for one run, not a catalog.
        """
    static let exitCodes = "Exit codes: 0 success, 2 bad usage or unreadable input (a catalog file that could not be measured)."

    static let workload = CommandOption(
        "--workload", .text(placeholder: "W[,W...]"), default: "random", help: "the workloads to run, listed above")
    static let count = CommandOption(
        "-n", .wholeNumber(placeholder: "N", range: 1...SampleTargets.limit), help: "measured operations per workload")
    static let seed = CommandOption(
        "--seed", .wholeNumber(placeholder: "S", range: 0...1_000_000_000), default: "1", help: "the seed of the random times")
    static let targets = CommandOption.targets.described("seek to these times instead of random ones (see above)")
    static let precision = CommandOption(
        "--precision", .text(placeholder: "P"), help: "the precision of every seek (default: each workload's own)")
    static let threads = CommandOption.threads.described("decoder threads (default 1; 0 lets FFmpeg choose)")
    static let poolMB = CommandOption.poolMB.described(
        """
        bound on the decoders parked in recently visited GOPs (default 256; 0 keeps one
        decoder, to measure what the pool saves)
        """)
    static let variants = CommandOption.variant.described(
        """
        for a multivariant playlist or an MPD, the variants to measure side by side (N,
        bandwidth:BPS or resolution:WxH, comma-separated; default: the highest BANDWIDTH)
        """)
    static let noConvert = CommandOption("--no-convert", help: "do not convert each landed frame to RGB")
    static let noSkipNonReference = CommandOption(
        "--no-skip-nonref", help: "decode every frame on the way (to measure what skipping saves)")
    static let network = CommandOption(
        "--network", .text(placeholder: "RTT,BW"), help: "the network to model (50ms,20mbit; or 3g, 4g, wifi)")
    static let report = CommandOption("--report", .text(placeholder: "PATH"), help: "write a self-contained HTML report")
    static let floor = CommandOption(
        "--floor", help: "also time the same landings in a bare libavcodec loop, and report the overhead above it")
    static let peers = CommandOption(
        "--peers", .text(placeholder: "RESULTS.json"), help: "add the peers' results to the report (compare_peers.py --json)")

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        if arguments.positionals.first == "merge" {
            return try BenchCatalog.merge(Array(arguments.positionals.dropFirst()), arguments, output: output)
        }
        if arguments.value("--catalog") != nil { return try BenchCatalog.run(arguments, output: output, errors: errors) }
        for option in ["--shard", "--results"] where arguments.value(option) != nil {
            throw UsageError(message: "\(option) goes with --catalog")
        }
        let report = arguments.value("--report")
        // Found out now, not after minutes of measuring.
        if let report { try checkOutputPath(report) }
        var peers: PeerComparison?
        if let path = arguments.value("--peers") {
            guard report != nil else { throw UsageError(message: "--peers draws into the report: add --report out.html") }
            peers = try PeerComparison.read(path)
        }
        // A peers file alone makes a report of its chart; anything else measures FILE.
        let files = arguments.positionals
        guard !files.isEmpty else {
            guard let peers, let report else { throw UsageError(message: "missing FILE") }
            try writeReport(BenchReport.html([], peers: peers), to: report)
            return .success
        }
        let workloads = try parseWorkloads(arguments.valueOrDefault("--workload"))
        let network = try arguments.value("--network").map { text throws(UsageError) in try NetworkModel(parsing: text) }
        var runner = BenchRunner()
        runner.threads = try arguments.integer("--threads") ?? 1
        if let decoders = try arguments.integer("--decoders") {
            runner.batchDecoders = decoders
        }
        runner.convertsToRGB = !arguments.has("--no-convert")
        if let threads = try arguments.integer("--convert-threads") { runner.conversionThreads = threads }
        runner.decodesAhead = !arguments.has("--no-decode-ahead")
        runner.measuresFloor = arguments.has("--floor")
        runner.skipsNonReferenceFrames = !arguments.has("--no-skip-nonref")
        if let megabytes = try arguments.integer("--cache-mb") {
            runner.cacheBytes = megabytes * 1024 * 1024
        }
        if let megabytes = try arguments.integer("--pool-mb") {
            runner.decoderPoolBytes = megabytes * 1024 * 1024
        }
        if errors.isTerminal {
            runner.progress = { done, total in
                if done == total || done % 10 == 0 { errors.write("\r  \(done)/\(total)\(done == total ? "\n" : "")") }
            }
        }
        var precision: SeekPrecision?
        if let text = arguments.value("--precision") {
            do { precision = try SeekPrecision(parsing: text) } catch { throw UsageError(message: "\(error)") }
        }
        var targets: [MediaTime]?
        if let path = arguments.value("--targets") {
            targets = try TargetFile.read(path)
            runner.targetsFile = path
        }
        // Every operation is built before the first runs: as seek's --sample, at most
        // SampleTargets.limit of them, so no -n can ask for unbounded memory.
        let count = try arguments.integer("-n")
        let seed = UInt64(try arguments.integerOrDefault("--seed"))
        let stream = try arguments.integer("--stream")
        let variants = try parseVariants(arguments.value("--variant"))

        var results: [BenchResult] = []
        for workload in workloads {
            // Explicit targets replace the seeks of the seek workloads, and give backstep its frames.
            let given = [.random, .scrub, .backstep, .sample].contains(workload) ? targets : nil
            var first: BenchResult?
            for file in files {
                let isPlaylist = PlaylistInput.isPlaylist(file)
                for variant in isPlaylist ? variants : [.highestBandwidth] {
                    var result =
                        isPlaylist
                        ? try runner.runPlaylist(
                            workload, url: file, variant: variant, stream: stream, count: count, seed: seed,
                            targets: given, precision: precision, sideBySideWith: first)
                        : try runner.run(
                            workload, file: file, stream: stream, count: count, seed: seed,
                            targets: given, precision: precision, sideBySideWith: first)
                    result.namesVariant = isPlaylist && arguments.value("--variant") != nil
                    if first == nil { first = result }
                    results.append(result)
                }
            }
        }
        for result in results {
            if arguments.has("--json") {
                output.line(BenchJSON.object(result, network: network).serialized)
            } else {
                output.line(BenchJSON.textLine(result, network: network, namingFile: files.count > 1))
            }
        }
        let verdicts = SideBySide.verdicts(results, network: network)
        for line in verdicts { arguments.has("--json") ? errors.escapedLine(line) : output.escapedLine(line) }
        if let report { try writeReport(BenchReport.html(results, peers: peers, network: network, verdicts: verdicts), to: report) }
        return .success
    }

    private static func writeReport(_ html: String, to path: String) throws(UsageError) {
        do { try OutputFile.write(html, to: path) } catch {
            throw UsageError(message: "\(path): cannot write the report (\(error.cause))")
        }
    }

    /// `--variant V[,V...]` as selections; the highest bandwidth when not given.
    static func parseVariants(_ text: String?) throws(UsageError) -> [HLSVariantSelection] {
        guard let text else { return [.highestBandwidth] }
        var variants: [HLSVariantSelection] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let variant = HLSVariantSelection(parsing: String(name)) else {
                throw UsageError(message: "--variant takes N, bandwidth:BPS or resolution:WxH, comma-separated, not '\(name)'")
            }
            variants.append(variant)
        }
        return variants
    }

    static func parseWorkloads(_ text: String) throws(UsageError) -> [BenchWorkload] {
        if text == "all" { return BenchWorkload.allCases }
        var workloads: [BenchWorkload] = []
        for name in text.split(separator: ",") {
            guard let workload = BenchWorkload(rawValue: String(name)) else {
                throw UsageError(
                    message: "unknown workload \"\(name)\" (random, scrub, backstep, sequential, thumbnails, sample, open, long, all)")
            }
            workloads.append(workload)
        }
        return workloads
    }
}

/// The JSON and text forms of a bench result.
package enum BenchJSON {
    /// The `frameseek bench --json` object of a result; with `network`, each sample's and the
    /// workload's modeled network time beside the measured figures.
    package static func object(_ r: BenchResult, network: NetworkModel? = nil) -> JSONValue {
        let samples: [JSONValue] = r.samples.map { s in
            var fields: JSONValue.KeyValuePairs = [
                ("target", s.target.json), ("latency_ms", .number(s.latency.milliseconds)),
                ("frame_index", .integer(s.isIndexed ? s.frameIndex : nil)),
                ("frames_decoded", .integer(Int64(s.framesDecoded))),
                ("key_frame_index", .integer(s.isIndexed ? s.keyFrameIndex : nil)),
                ("bytes_read", s.reads.map { .integer($0.bytes) } ?? .null), ("requests", .integer(s.reads?.requests)),
                ("frames_demuxed", .integer(Int64(s.packetsRead))), ("frames_skipped", .integer(Int64(s.framesSkipped))),
                ("decode_ms", .number(s.decodeTime.milliseconds)), ("served_from_cache", .bool(s.servedFromCache))
            ]
            if let network {
                let modeled = network.milliseconds(of: s.reads)
                fields += [
                    ("modeled_network_ms", modeled.map { .number($0) } ?? .null),
                    ("modeled_seek_ms", modeled.map { .number(s.latency.milliseconds + $0) } ?? .null)
                ]
            }
            return .object(fields)
        }
        var fields: JSONValue.KeyValuePairs = [
            ("file", .string(r.file)), ("workload", .string(r.workload.rawValue)), ("n", .integer(Int64(r.samples.count))),
            ("threads", .integer(Int64(r.threads))), ("precision", .string(r.precision.description)),
            ("open_ms", .number(r.openLatency.milliseconds)),
            ("median_ms", .number(r.median)), ("p95_ms", .number(r.p95)), ("mean_ms", .number(r.mean)),
            ("max_ms", .number(r.max)), ("fps", .number(r.framesPerSecond)),
            ("peak_rss_mb", megabytes(r.peakResidentBytes))
        ]
        if let ffmpeg = r.ffmpegFramesPerSecond { fields.append(("ffmpeg_fps", .number(ffmpeg))) }
        // Added after the contract's fields, which outside scripts read in place.
        fields += [
            ("process_peak_rss_mb", megabytes(r.processPeakResidentBytes)), ("pool_peak_mb", megabytes(r.poolPeakBytes)),
            ("pool_bound_mb", megabytes(r.poolBoundBytes)),
            ("open_bytes_read", .integer(r.openReads.bytes)), ("open_requests", .integer(r.openReads.requests)),
            ("bytes_read", r.totalReads.map { .integer($0.bytes) } ?? .null),
            ("requests", .integer(r.totalReads?.requests))
        ]
        if let network {
            let cost = SeekCostSummary(r, network: network)
            fields += [
                ("network", network.json),
                ("modeled_open_network_ms", cost.modeledOpenMilliseconds.map { .number($0) } ?? .null),
                ("modeled_network_ms", cost.modeledNetworkMilliseconds.map { .number($0) } ?? .null),
                ("modeled_median_ms", cost.modeledSeeks.map { .number($0.median) } ?? .null),
                ("modeled_p95_ms", cost.modeledSeeks.map { .number($0.p95) } ?? .null)
            ]
        }
        if let error = r.floorError { fields.append(("floor", .object([("error", .string(error))]))) }
        if let floor = r.floor {
            fields.append(
                (
                    "floor",
                    .object([
                        ("n", .integer(Int64(floor.count))), ("median_ms", .number(floor.median)), ("p95_ms", .number(floor.p95)),
                        ("overhead", r.floorOverhead.map { .number($0) } ?? .null)
                    ])
                ))
        }
        fields += [("settings", r.settings.json), ("samples", .array(samples))]
        return .object(fields)
    }

    /// Bytes as (fractional) megabytes, null when not measured.
    private static func megabytes(_ bytes: Int?) -> JSONValue { bytes.map { .number(Double($0) / 1_048_576) } ?? .null }

    static func textLine(_ r: BenchResult, network: NetworkModel? = nil, namingFile: Bool = false) -> String {
        var line =
            "\(r.workload.rawValue.padding(11)) n \(String(r.samples.count).leftPadded(5))  threads \(r.threads)  open \(r.openLatency.milliseconds.fixed(1)) ms"
        // No operation (a one-frame file's backstep) has no median: say so, never "nan".
        func ms(_ value: Double) -> String { value.isFinite ? "\(value.fixed(3)) ms" : "-" }
        line += "  median \(ms(r.median))  p95 \(ms(r.p95))  mean \(ms(r.mean))  max \(ms(r.max))"
        if r.workload == .sequential {
            line += "  \(r.framesPerSecond.fixed(1)) fps"
            if let ffmpeg = r.ffmpegFramesPerSecond { line += " (ffmpeg -threads 1: \(ffmpeg.fixed(1)) fps)" }
        }
        line += "  peak RSS " + (r.peakResidentBytes.map { "\(BenchReport.megabytes($0)) MB" } ?? "not measured")
        if let peak = r.poolPeakBytes, let bound = r.poolBoundBytes {
            line += "  pool peak \(BenchReport.megabytes(peak)) MB of \(BenchReport.megabytes(bound)) MB"
        }
        if let reads = r.totalReads {
            line += "  read \(r.openReads.bytes) B at the open + \(reads.bytes) B"
            if let requests = reads.requests { line += " in \(r.openReads.requests ?? 0) + \(requests) requests" }
        }
        if let network, let modeled = SeekCostSummary(r, network: network).modeledSeeks {
            line += "  modeled over \(network.description): median \(modeled.median.fixed(3)) ms, p95 \(modeled.p95.fixed(3)) ms"
        }
        if let floor = r.floor {
            line += "  floor median \(ms(floor.median))"
            if let overhead = r.floorOverhead { line += String(format: " (overhead %+.0f%%)", overhead * 100) }
        }
        if namingFile { line += "  file \(SeekCostSummary.name(r.input))" }
        return line
    }
}
