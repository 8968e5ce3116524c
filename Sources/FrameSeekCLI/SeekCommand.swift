import Foundation
import FrameSeek

/// `frameseek seek`: land on each target in turn, through one engine, and report where.
enum SeekCommand: Subcommand {
    static let name = "seek"
    static let summary = "seek to times with a precision and report where each landed"
    static let usage = """
        frameseek seek FILE [TIME ...] [--at TIME ...] [--targets FILE] [--sample N] [--every S]
                       [--precision P] [--index full|as-needed] [--stream N] [--threads N]
                       [--convert-threads N] [--decoders N] [--pool-mb MB] [--md5]
                       [--png PATH] [--png-depth 8|16] [--tonemap T] [--no-autorotate]
                       [--strict] [--json]
        frameseek seek PLAYLIST (TIME ... | --date ISO8601 | --live-edge) [--variant N] [options]
        """
    static let options: [CommandOption] =
        [
            .at, .targets, sample, every, .precision, .index, .stream, .threads, .convertThreads, .batchDecoders, .poolMB, .md5, png,
            .pngDepth, .tonemap, .noAutorotate, .strict, date, liveEdge, .variant
        ] + CommandOption.network
    /// FILE and any number of TIMEs.
    static let maximumPositionals = Int.max
    static let discussion = """
        Runs every target in one process and prints the results in the order given. Several
        targets in a file are landed as one batch: planned first, then decoded in one forward pass
        per GOP landed in, each frame once, skipping the non-reference frames between targets, the
        GOPs split between decoders (--decoders); latency_ms is then each landing's own decoding.
        TIME is seconds (92.5), a rational (1001/30000) or a clock time (00:01:32.500), on the
        zero-based timeline; seconds may end in "s" (92.5s). --at TIME gives one more target, as
        a TIME after FILE does (step takes both too). --targets FILE reads one time per line.
        Targets from TIMEs, --at, --targets, --sample and --every add up, in that order (at most
        100,000).

        An HLS playlist (a path or URL ending in .m3u8 or .m3u, or a file starting with #EXTM3U)
        is read by FrameSeek itself, on the zero-based timeline of its window, and every result
        also gets landed_date: the EXT-X-PROGRAM-DATE-TIME date of the landed frame (ISO 8601
        with milliseconds; null when the playlist has no dates), and variant: the variant of a
        multivariant playlist it landed in ({position, bandwidth, resolution, uri}; null for a
        media playlist).
        A date outside the window, a date in a playlist without dates, or --live-edge on a playlist
        that is not live (EXT-X-ENDLIST or VOD) prints {"result": "unavailable", "reason",
        "explanation"} (reason dateBeforeWindow, dateAfterWindow, notDateAddressable or notLive;
        text mode prints the explanation) and exits 1. --date, --live-edge and --variant on a
        file that is not a playlist are usage errors.
        A DASH MPD (a path or URL ending in .mpd, or a file holding <MPD) is read the same way:
        its video segments as a playlist's, placed by their own timestamps (a SegmentBase's
        subsegments from its sidx; live MPDs of several Periods exit 2).
        A VOD playlist (EXT-X-ENDLIST) is read as a player reads it (--index as-needed): the
        open fetches the playlists and the first target's segment (with its EXT-X-MAP), and
        each seek only the segments its landing needs, whose bytes_read and requests it
        reports; frame_index is then null, as below. --index full, --date, --live-edge,
        --sample, --every and a live playlist index every segment of the window.

        A file in Matroska/WebM, MPEG-TS or fragmented MP4 is not indexed whole (--index
        as-needed, the default here): each seek reads the packets from the random access point
        before its target to just past it, found through the container's own index, as a player
        reads them, and lands by the same rules on the same frame. Its frames before the target
        were never counted, so frame_index and key_frame_index are null, with
        frame_index_unknown "not_indexed"; the PTS, times and MD5 are given as always.
        --index full, --sample, --every, or a table in the index cache (frameseek index)
        number every landing.

        --json prints one line per target: requested, landed, landed_pts, frame_index,
        key_frame_index, delta, within_tolerance, clamp (none, start, end, unknown), finished,
        latency_ms, frames_decoded, damaged, decode_errors (errors reported between the
        keyframe decoding started from and the landed frame; damaged when above 0),
        clamp_explanation when clamped, and md5 / png when asked. Times are seconds; the _rational
        fields give the exact values.
        """
    static let exitCodes = """
        Exit codes: 0 success, 1 a date or live-edge seek that is unavailable, 2 bad usage or
        unreadable input.
        """

    static let sample = CommandOption(
        "--sample", .wholeNumber(placeholder: "N", range: 1...SampleTargets.limit),
        help: """
            N targets spread evenly over the clip: the middle of each of N equal parts
            of the span from the first frame to the last (as peers.py --workload sample)
            """)
    static let every = CommandOption(
        "--every", .text(placeholder: "S"), help: "a target every S seconds from the first frame (S at least 0.001)")
    static let png = CommandOption(
        "--png", .text(placeholder: "PATH"),
        help: """
            write the landed frame as PNG, upright (display matrix applied), written
            under a temporary name and renamed into place; PATH may be a pattern
            such as out-%03d.png, numbered from 1 (needed with several targets).
            Video streams only.
            """)
    static let date = CommandOption(
        "--date", .text(placeholder: "ISO8601"),
        help: """
            for a playlist: seek to the frame showing at that date (2024-03-04T23:02:17.684Z;
            an offset such as +01:00 is fine), instead of TIMEs or --targets
            """)
    static let liveEdge = CommandOption(
        "--live-edge",
        help: """
            for a playlist: seek to the live edge: the window's end less the hold-back
            (SERVER-CONTROL HOLD-BACK, or three target durations), exact unless --precision
            says otherwise
            """)

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        let file = try singleFile(arguments)
        let liveTarget = try LiveTarget(arguments)
        // TIMEs after FILE, then those of --at: two spellings of the same target.
        var targets = try (arguments.positionals.dropFirst() + arguments.values("--at")).map { text throws -> MediaTime in
            do { return try MediaTime(parsing: text) } catch { throw UsageError(message: "\(error)") }
        }
        if let list = arguments.value("--targets") { targets += try TargetFile.read(list) }
        guard !targets.isEmpty || liveTarget != nil || SampleTargets.isRequested(arguments) else {
            throw UsageError(message: "no TIME given (and no --at, --targets, --sample or --every)")
        }
        let isPlaylist = PlaylistInput.isPlaylist(file)
        let sampled = try SampleTargets(arguments)
        if let option = liveTarget?.option, SampleTargets.isRequested(arguments) {
            throw UsageError(message: "\(option) cannot be combined with --sample or --every")
        }
        if !isPlaylist, let option = liveTarget?.option ?? (arguments.value("--variant") != nil ? "--variant" : nil) {
            throw UsageError(message: "\(file): \(option) needs an HLS playlist")
        }
        let precision: SeekPrecision
        do { precision = try SeekPrecision(parsing: arguments.valueOrDefault("--precision")) } catch {
            throw UsageError(message: "\(error)")
        }
        let pngPattern = arguments.value("--png")
        if let pngPattern { try checkOutputPath(PathPattern.expand(pngPattern, number: 1)) }
        let engine: any SeekingEngine
        if isPlaylist {
            // Dates and --sample spread over the whole window: only plain targets land in the
            // segments they need.
            let asNeeded = liveTarget == nil && !sampled.asksForTargets
            let playlist = try PlaylistInput.open(
                file, arguments, indexing: asNeeded ? .asNeeded : .full, firstTarget: targets.first)
            if let liveTarget {
                switch liveTarget.time(in: playlist) {
                case .success(let time): targets = [time]
                case .failure(let unavailable):
                    output.line(arguments.has("--json") ? unavailable.json.serialized : unavailable.text)
                    return .failedCheck
                }
            }
            engine = playlist
        } else {
            // --sample and --every spread targets over the whole table: no window serves them.
            engine = try openEngine(file, arguments, indexing: sampled.asksForTargets ? .full : .asNeeded, errors: errors)
        }
        let stream = engine.media.selectedStream
        if pngPattern != nil, stream.mediaType != .video {
            throw UsageError(message: "\(file): --png needs a video stream; stream \(stream.index) is \(stream.mediaType.rawValue)")
        }
        if sampled.asksForTargets { targets += sampled.times(in: engine.frameTable) }
        if targets.count > SampleTargets.limit {
            throw UsageError(message: "\(targets.count) targets; at most \(SampleTargets.limit) in one run")
        }
        guard !targets.isEmpty else { throw UsageError(message: "\(file): no target falls in the clip") }
        if let pngPattern, targets.count > 1, !PathPattern.hasNumber(pngPattern) {
            throw UsageError(message: "--png needs a pattern such as out-%03d.png with several targets")
        }
        var damage = try DamageReport(command: name, arguments: arguments, media: engine.media)
        // Damage is noted as lines are printed, in the order given, so --strict stops at the
        // first damaged target in that order; a damaged landing's PNG is never written then.
        let extras = LandedExtras(
            md5: arguments.has("--md5"), pngPattern: pngPattern, autorotate: !arguments.has("--no-autorotate"),
            pngDepth: try LandedExtras.pngDepth(arguments))
        let lines = SeekLines(json: arguments.has("--json"), extras: extras, strict: damage.strict)
        if let file = engine as? FFmpegEngine, targets.count > 1, file.indexesWholeStream {
            // Planned first, then one forward pass per GOP run, the runs split between the
            // decoders; the lines come out in the order given.
            let decoders =
                try arguments.integer("--decoders")
                ?? FFmpegEngine.defaultBatchDecoders
            let landed = try file.seek(to: targets, precision: precision, decoders: decoders) { ordinal, landing, decoder in
                try lines.line(ordinal, landing, engine: decoder)
            }
            for (landing, line) in landed {
                try damage.note(frame: landing.frame.index, decodeErrors: landing.decodeErrors, missingData: landing.missingData)
                output.line(line)
            }
        } else {
            for (ordinal, target) in targets.enumerated() {
                let landing = try engine.seek(to: target, precision: precision)
                // A seek window that reached the end of the stream may find the file truncated.
                try damage.note(truncation: engine.media.truncation)
                // A landing in a window or a run of segments has no frame number in the stream.
                try damage.note(
                    frame: landing.isIndexed ? landing.frame.index : nil, decodeErrors: landing.decodeErrors,
                    missingData: landing.missingData)
                output.line(try lines.line(ordinal, landing, engine: engine))
            }
        }
        damage.warn(errors)
        return .success
    }

    static func jsonLine(_ landing: SeekLanding, md5: String?, png: String?, truncation: Truncation? = nil) -> JSONValue {
        let accuracy = landing.accuracy
        var fields: JSONValue.KeyValuePairs =
            [
                ("requested", accuracy.requestedMediaTime.json),
                ("landed", accuracy.landedMediaTime.json),
                ("landed_pts", .integer(landing.frame.pts)),
                ("frame_index", .integer(Int64(landing.frame.index))),
                ("key_frame_index", .integer(landing.keyframeIndex)),
                ("delta", accuracy.deltaMediaTime.json),
                ("within_tolerance", .bool(accuracy.withinRequestedTolerance)),
                ("clamp", .string(landing.plan.clamp.name)),
                ("finished", .bool(true)),
                ("latency_ms", .number(landing.latency.milliseconds)),
                ("frames_decoded", .integer(Int64(landing.framesDecoded))),
                ("demuxer_seeks", .integer(Int64(landing.demuxerSeeks))),
                ("bytes_read", landing.reads.map { .integer($0.bytes) } ?? .null),
                ("requests", .integer(landing.reads?.requests))
            ] + DamageReport.fields(decodeErrors: landing.decodeErrors, missingData: landing.missingData) + [
                ("precision", .string(landing.plan.precision.description)),
                ("requested_rational", accuracy.requestedMediaTime.rational),
                ("landed_rational", accuracy.landedMediaTime.rational),
                ("delta_rational", accuracy.deltaMediaTime.rational)
            ]
        if landing.plan.clamp.didClamp {
            fields.append(("clamp_explanation", .string(landing.plan.clamp.explanation(truncation: truncation))))
        }
        if let md5 { fields.append(("md5", .string(md5))) }
        if let png { fields.append(("png", .string(png))) }
        return .object(fields)
    }

    static func textLine(_ landing: SeekLanding, md5: String?, png: String?, truncation: Truncation?) -> String {
        let a = landing.accuracy
        var line =
            "\(a.requestedMediaTime.seconds.fixed(6).leftPadded(12)) s -> frame \(landing.isIndexed ? String(landing.frame.index) : "?") at \(a.landedMediaTime.seconds.fixed(6)) s (pts \(landing.frame.pts))"
        line += "  delta \(a.delta.fixed(6)) s"
        line += a.withinRequestedTolerance ? "  within tolerance" : "  OUTSIDE tolerance"
        if landing.plan.clamp.didClamp {
            line += "  clamped to \(landing.plan.clamp.name)"
            if case .clampedToEnd = landing.plan.clamp, truncation != nil { line += " (readable end of a truncated file)" }
        }
        line +=
            "  from keyframe \(landing.isIndexed ? landing.keyframeIndex.map(String.init) ?? "-" : "?"), \(landing.framesDecoded) frames decoded, \(landing.latency.milliseconds.fixed(2)) ms"
        if let md5 { line += "  md5 \(md5)" }
        if let png { line += "  -> \(png)" }
        return line + DamageReport.mark(decodeErrors: landing.decodeErrors, missingData: landing.missingData)
    }
}

/// How `seek` prints a landing: the line's format and what it adds (MD5, PNG, date), fixed
/// before the first landing so that batch decoders on other threads can print theirs too.
struct SeekLines: Sendable {
    let json: Bool
    let extras: LandedExtras
    /// With --strict, a damaged landing's PNG is not written.
    let strict: Bool

    /// The line for target `ordinal` (from 0), landed by `engine`, whose landed frame it still is.
    func line(_ ordinal: Int, _ landing: SeekLanding, engine: some SeekingEngine) throws -> String {
        let (md5Text, pngPath) = try extras.make(number: ordinal + 1, engine: engine, writesPNG: !(strict && landing.damaged))
        // Only a playlist has dates: a file's lines stay as they were.
        let date: ProgramDate?? = engine.dateWindow == nil ? nil : .some(engine.landedDate)
        // After missing media the frames are numbered by what could be read: their index is
        // not the media's, and is given as unknown rather than wrong.
        let unknown = Self.frameIndexUnknown(landing, engine: engine)
        if json {
            var line = SeekCommand.jsonLine(landing, md5: md5Text, png: pngPath, truncation: engine.media.truncation)
            if let date, case .object(let fields) = line {
                line = .object(fields + [("landed_date", PlaylistInput.json(date)), ("variant", PlaylistInput.json(engine.variant))])
            }
            if let unknown, case .object(let fields) = line {
                line = .object(
                    fields.map { key, value in
                        key == "frame_index" || key == "key_frame_index" ? (key, .null) : (key, value)
                    } + [("frame_index_unknown", .string(unknown.json))])
            }
            return line.serialized
        }
        var line = SeekCommand.textLine(landing, md5: md5Text, png: pngPath, truncation: engine.media.truncation)
        if let unknown { line += "  (frame number unknown: \(unknown.text))" }
        if let date { line += "  date \(date?.iso8601 ?? "none")" }
        if let variant = engine.variant { line += "  \(PlaylistInput.text(variant))" }
        return line
    }

    /// Why a landing's frame number is not given: its frames before it were never indexed (a
    /// seek window), or media before it could not be read, so frames after are numbered by
    /// what was read.
    static func frameIndexUnknown(_ landing: SeekLanding, engine: some SeekingEngine) -> (json: String, text: String)? {
        if !landing.isIndexed { return ("not_indexed", "not indexed; --index full numbers it") }
        // The indexed table, not `frameTable`, which would build the whole table after a
        // landing on a stream's prefix (`FrameTable.Source.streamPrefix`): media goes missing
        // only where a demuxer skips it (HLS), which no prefix is read from.
        guard let uncounted = engine.indexedFrameTable?.missingData(before: landing.frame.index) else { return nil }
        let text = "frames before this one could not be read, so it cannot be numbered: \(uncounted)"
        return (text, "\(uncounted)")
    }
}
