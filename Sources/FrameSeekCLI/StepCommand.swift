import FrameSeek

/// `frameseek step`: land exactly at a time, then step frame by frame.
enum StepCommand: Subcommand {
    static let name = "step"
    static let summary = "land at a time, then step frames forward or backward"
    static let usage = """
        frameseek step FILE (TIME | --at TIME) (--forward | --backward) [--count N] [--repeat K]
                       [--index I] [--stream N] [--variant V] [--threads N] [--decoders N] [--cache-mb MB] [--md5] [--png PATTERN]
                       [--convert-threads N] [--no-decode-ahead] [--png-depth 8|16] [--tonemap T] [--strict] [--json]
        """
    static let options: [CommandOption] =
        [
            at, forward, backward, count, repeatCount, .index, stream, .variant, threads, .convertThreads, .noDecodeAhead, decoders,
            cacheMB, .md5, png,
            .pngDepth,
            .tonemap,
            .noAutorotate, .strict
        ] + CommandOption.network
    /// FILE and the TIME to land at.
    static let maximumPositionals = 2
    static let discussion = """
        Lands exactly at TIME, then takes K steps (default 1) of N frames (default 1) in
        presentation order. Steps move by the frame index, never by duration x N, so variable
        frame rate steps right. Backward steps come from a frame cache (default 192 MiB,
        --cache-mb to change, 0 to turn it off) that one decode of the GOP refills.

        Prints one line per step; --json prints one object per step: result ("stepped" or
        "unavailable"), direction, landed (seconds), frame_index, frames_stepped, latency_ms,
        frames_decoded, damaged, decode_errors, md5 (with --md5), and for unavailable steps reason (audioOnly,
        endOfStream, startOfStream, decodeFailed) and explanation. A step that moves fewer frames
        than asked (near an edge) says so in frames_stepped. Once a step is unavailable at an
        edge, the command stops.

        TIME is seconds (92.5, or 92.5s), a rational (1001/30000) or a clock time (00:01:32.500),
        given after FILE as seek takes it, or with --at.
        An HLS playlist or a DASH MPD is read by FrameSeek, as seek reads it (--variant picks a
        rendition), and its whole window is indexed: frames are numbered across segments. With
        --index as-needed, the landing and each step fetch only the segments around the frame,
        as a player does, and frame_index is null.
        In Matroska/WebM, MPEG-TS and fragmented MP4 the landing and the steps read seek windows
        (--index as-needed, the default): a step past the frames read reads the next window,
        and frame_index is null (frame_index_unknown "not_indexed"). --index full or an index
        cache entry numbers the frames.
        A frame the decoder cannot produce (FFmpeg's own decode lacks it too) is stepped over:
        the step moves one frame more than asked and is damaged.
        """
    static let exitCodes = """
        Exit codes: 0 success (an edge reached is a result, not an error), 2 bad usage or
        unreadable input.
        """

    static let at = CommandOption("--at", .text(placeholder: "TIME"), help: "the time to land at, instead of a TIME after FILE")
    static let forward = CommandOption("--forward", help: "step toward the end")
    static let backward = CommandOption("--backward", help: "step toward the start")
    static let count = CommandOption(
        "--count", .wholeNumber(placeholder: "N", range: 1...1_000_000_000), default: "1", help: "frames in each step")
    static let repeatCount = CommandOption(
        "--repeat", .wholeNumber(placeholder: "K", range: 1...1_000_000_000), default: "1", help: "steps to take")
    static let stream = CommandOption.stream.described(
        """
        on a file with several streams, a video stream by its absolute index
        (see frameseek probe); an audio stream of a file that has video is refused
        """)
    static let threads = CommandOption.threads.described(
        """
        decoder threads (default 1; 0 lets FFmpeg choose; 2 is faster on a pass
        over many frames of clean media)
        """)
    static let decoders = CommandOption.batchDecoders.described(
        """
        a pass forward (--forward with --repeat, without --png) splits the GOPs it
        steps through between N decoders, each on a core (default: one per core, at most 2),
        where the whole stream is indexed (MP4, --index full, an index cache entry); in seek
        windows it steps on one decoder, window by window, rather than read the whole file.
        Every frame decodes as on one decoder; damage is then counted from the keyframe of each
        step's GOP, as a seek counts it, and latency_ms is each step's own decoding. With N = 1
        it steps one by one: damage is counted from where the decoder started, and latency_ms
        is the time the step was waited for (see --no-decode-ahead)
        """)
    static let cacheMB = CommandOption.cacheMB
    static let png = CommandOption(
        "--png", .text(placeholder: "PATTERN"),
        help: """
            write each landed frame, e.g. step-%04d.png, numbered from 1 (a PATH
            without a number is fine for one step); each file is written under a temporary name and
            renamed into place
            """)

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        let file = try singleFile(arguments)
        // One time, after FILE or with --at (the last --at, as any option's last value counts).
        if let extra = arguments.positionals.dropFirst().first, arguments.value("--at") != nil {
            throw UsageError(message: "unexpected argument \"\(extra)\" (the time is given with --at)")
        }
        guard let atText = arguments.positionals.dropFirst().first ?? arguments.value("--at") else {
            throw UsageError(message: "missing TIME (or --at TIME)")
        }
        let at: MediaTime
        do { at = try MediaTime(parsing: atText) } catch { throw UsageError(message: "\(error)") }
        let direction: FrameStepDirection
        switch (arguments.has("--forward"), arguments.has("--backward")) {
        case (true, false): direction = .forward
        case (false, true): direction = .backward
        default: throw UsageError(message: "give exactly one of --forward and --backward")
        }
        let count = try arguments.integerOrDefault("--count")
        let repeats = try arguments.integerOrDefault("--repeat")
        let pngPattern = arguments.value("--png")
        if let pngPattern, repeats > 1, !PathPattern.hasNumber(pngPattern) {
            throw UsageError(message: "--png needs a pattern such as step-%04d.png with --repeat")
        }
        let cacheBytes = try arguments.integer("--cache-mb").map { $0 * 1024 * 1024 }
        if let pngPattern { try checkOutputPath(PathPattern.expand(pngPattern, number: 1)) }
        // A playlist or an MPD is read by FrameSeek, as `seek` reads it; steps index its whole
        // window unless --index as-needed.
        let engine: any SeekingEngine =
            PlaylistInput.isPlaylist(file)
            ? try PlaylistInput.open(file, arguments)
            : try openEngine(file, arguments, cacheBytes: cacheBytes, indexing: .asNeeded, errors: errors)
        let stream = engine.media.selectedStream
        // "audioOnly" is the answer for media without video; a chosen audio stream in a file
        // that has video is a usage mistake, and saying "no video stream" would be false.
        if stream.mediaType != .video, let video = engine.media.streams.first(where: { $0.mediaType == .video && !$0.isAttachedPicture }) {
            throw UsageError(
                message:
                    "\(file): stream \(stream.index) is \(stream.mediaType.rawValue); frame steps need a video stream, such as --stream \(video.index)"
            )
        }
        var damage = try DamageReport(command: name, arguments: arguments, media: engine.media)
        if engine.media.selectedStream.mediaType == .video {
            _ = try engine.seek(to: at, precision: .exact)
        }
        let format = StepLines(
            json: arguments.has("--json"),
            extras: LandedExtras(
                md5: arguments.has("--md5"), pngPattern: pngPattern,
                autorotate: !arguments.has("--no-autorotate"),
                pngDepth: try LandedExtras.pngDepth(arguments)))
        // One line per step: gathered into few writes, and out before anything on stderr
        // (an error thrown below is printed after this function returns).
        let lines = BufferedOutput(output)
        defer { lines.flush() }
        if direction == .forward, repeats > 1, pngPattern == nil, let engine = engine as? FFmpegEngine {
            // A pass forward: where every step goes is known, so the GOPs are split between
            // decoders. Lines come out in step order as each GOP is done, and damage is noted
            // as they are printed.
            let decoders =
                try arguments.integer("--decoders")
                ?? FFmpegEngine.defaultBatchDecoders
            try engine.stepForward(count: count, repeats: repeats, decoders: decoders) { ordinal, report, decoder in
                try format.line(ordinal + 1, report, engine: decoder)
            } delivered: { report, line in
                if report.result.didStep {
                    try damage.note(frame: report.isIndexed ? report.frame?.index : nil, decodeErrors: report.decodeErrors)
                }
                lines.line(line)
            }
        } else {
            for ordinal in 1...repeats {
                let report = engine.step(direction, count: count)
                if report.result.didStep {
                    try damage.note(frame: report.isIndexed ? report.frame?.index : nil, decodeErrors: report.decodeErrors)
                }
                lines.line(try format.line(ordinal, report, engine: engine.pictureEngine))
                if !report.result.didStep { break }
            }
        }
        lines.flush()
        damage.warn(errors)
        return .success
    }

    static func json(_ report: FrameStepReport, md5: String?, png: String?) -> JSONValue {
        var fields: JSONValue.KeyValuePairs = [
            ("result", .string(report.result.didStep ? "stepped" : "unavailable")),
            ("direction", .string(report.direction.rawValue))
        ]
        if case .stepped(_, let landed) = report.result {
            fields += [("landed", landed.json), ("landed_rational", landed.rational)]
        }
        fields +=
            [
                ("frame_index", .integer(report.isIndexed ? report.frame?.index : nil)),
                ("landed_pts", report.frame.map { .integer($0.pts) } ?? .null),
                ("frames_stepped", .integer(Int64(report.framesStepped))),
                ("requested_count", .integer(Int64(report.requestedCount))),
                ("latency_ms", .number(report.latency.milliseconds)),
                ("frames_decoded", .integer(Int64(report.framesDecoded)))
            ] + DamageReport.fields(decodeErrors: report.decodeErrors)
        if report.frame != nil, !report.isIndexed { fields.append(("frame_index_unknown", .string("not_indexed"))) }
        if let reason = report.result.unavailableReason {
            fields += [("reason", .string(reason.rawValue)), ("explanation", .string(reason.explanation))]
        }
        if let md5 { fields.append(("md5", .string(md5))) }
        if let png { fields.append(("png", .string(png))) }
        return .object(fields)
    }

    static func text(_ report: FrameStepReport, md5: String?, png: String?) -> String {
        switch report.result {
        case .unavailable(let reason):
            return "\(report.direction.rawValue): unavailable (\(reason.rawValue)): \(reason.explanation)"
        case .stepped(let direction, let landed):
            let number = report.isIndexed ? String(report.frame?.index ?? -1) : "?"
            var line = "\(direction.rawValue) \(report.framesStepped): frame \(number) at \(landed.seconds.fixed(6)) s"
            if report.framesStepped < report.requestedCount { line += " (asked \(report.requestedCount); stopped at the edge)" }
            line += "  \(report.framesDecoded) frames decoded, \(report.latency.milliseconds.fixed(3)) ms"
            if let md5 { line += "  md5 \(md5)" }
            if let png { line += "  -> \(png)" }
            return line + DamageReport.mark(decodeErrors: report.decodeErrors)
        }
    }
}

/// How `step` prints a step: the line's format and what it adds (MD5, PNG), fixed before the
/// first step so that the decoders of a pass forward can print theirs on their own threads.
struct StepLines: Sendable {
    let json: Bool
    let extras: LandedExtras

    /// The line for step `ordinal` (from 1), taken by `engine`, whose landed frame it still is
    /// (for a playlist, the landed segment's engine; nil before any landing).
    func line(_ ordinal: Int, _ report: FrameStepReport, engine: FFmpegEngine?) throws -> String {
        var (md5Text, png): (String?, String?) = (nil, nil)
        if report.result.didStep, let engine { (md5Text, png) = try extras.make(number: ordinal, engine: engine) }
        return json ? StepCommand.json(report, md5: md5Text, png: png).serialized : StepCommand.text(report, md5: md5Text, png: png)
    }
}
