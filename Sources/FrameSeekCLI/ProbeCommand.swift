import FrameSeek

/// `frameseek probe`: what the file holds and how its GOPs are built.
enum ProbeCommand: Subcommand {
    static let name = "probe"
    static let summary = "container, streams, frame and keyframe counts, GOP statistics"
    static let usage = """
        frameseek probe FILE [--stream N] [--strict] [--json]
        """
    static let options: [CommandOption] = [.stream, .threads, .strict] + CommandOption.network
    static let discussion = """
        Prints the container, its streams, the duration and start time, and for the selected
        stream (FFmpeg's best video stream, else its best audio stream, or --stream N, the
        absolute index as ffprobe numbers streams; cover art, an attached picture, is listed as
        such but never selected): frame count, keyframe count, GOP length
        (min/median/max frames from one keyframe to the next) and B-frame reordering depth.
        A file cut short says so: where its readable data ends, the duration its header states,
        and the evidence (JSON: truncation {readable_end, stated_duration, evidence}, else null;
        corrupt_packets counts packets the demuxer flagged corrupt). Media that could not be read
        at all, such as an HLS segment that fails to open, is listed the same way (JSON:
        missing_data [{after_frame, start, end, evidence}]). A video stream's colour is printed
        for HDR (PQ or HLG, the primaries, MaxCLL, the mastering peak, a Dolby Vision profile);
        JSON: color {transfer, primaries, matrix, range, dynamic_range (sdr, pq, hlg),
        mastering_display {primaries [[x, y] x3], white_point, min_luminance, max_luminance},
        content_light_level {max_cll, max_fall}, dolby_vision {profile, level,
        bl_signal_compatibility_id, rpu, el, bl}}, null for other streams.
        """
    static let exitCodes = """
        Exit codes: 0 success, 2 bad usage or unreadable input.
        """

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        let engine = try openEngine(try singleFile(arguments), arguments, errors: errors)
        let media = engine.media
        let stats = engine.frameTable.statistics
        var damage = try DamageReport(command: name, arguments: arguments, media: media)
        for index in engine.demuxerFlaggedFrames.sorted() { try damage.note(frame: index, decodeErrors: 1) }
        defer { damage.warn(errors) }
        let truncation: JSONValue =
            media.truncation.map { t in
                .object([
                    ("readable_end", t.readableEnd.json), ("stated_duration", t.statedDuration?.json ?? .null),
                    ("evidence", .string(t.evidence))
                ])
            } ?? .null
        if arguments.has("--json") {
            let streams: [JSONValue] = media.streams.map { s in
                .object([
                    ("index", .integer(Int64(s.index))), ("type", .string(s.mediaType.rawValue)),
                    ("codec", .string(s.codec)), ("time_base", .string(s.timeBase.description)),
                    ("width", .integer(s.width)), ("height", .integer(s.height)),
                    ("pixel_format", .string(s.pixelFormat)), ("sample_rate", .integer(s.sampleRate)),
                    ("channels", .integer(s.channels)), ("orientation", .string(s.orientation.rawValue)),
                    ("sample_aspect_ratio", .string(s.sampleAspectRatio?.description)),
                    ("color", s.color?.json ?? .null), ("attached_picture", .bool(s.isAttachedPicture))
                ])
            }
            // Over HTTP, every demuxer the open used: the index scan's and the reopened ones too.
            let overHTTP = engine.openTraffic != nil
            let openBytesRequested: JSONValue = overHTTP ? .integer(engine.openReads.bytes) : .null
            let openRequests: JSONValue = overHTTP ? .integer(engine.openReads.requests) : .null
            output.line(
                JSONValue.object([
                    ("file", .string(media.path)), ("container", .string(media.container)),
                    ("start_time", media.startTime.json), ("duration", media.duration?.json ?? .null),
                    ("streams", .array(streams)), ("stream_index", .integer(Int64(media.selectedStreamIndex))),
                    ("frame_count", .integer(Int64(stats.frameCount))), ("keyframe_count", .integer(Int64(stats.keyframeCount))),
                    (
                        "gop",
                        .object([
                            ("min", .integer(stats.minimumGOP)), ("median", .integer(stats.medianGOP)),
                            ("max", .integer(stats.maximumGOP))
                        ])
                    ),
                    ("reorder_depth", .integer(Int64(stats.reorderDepth))),
                    ("index_source", .string(engine.frameTable.source.rawValue)),
                    ("index_bytes_read", engine.indexScanBytes.map { .integer($0.read) } ?? .null),
                    ("index_cache", .string(engine.indexCacheOutcome.map(Self.cacheWord))),
                    ("open_ms", .number(engine.openLatency.milliseconds)),
                    ("open_bytes_read", engine.openTraffic.map { .integer($0.bytesReceived) } ?? .null),
                    ("open_bytes_requested", openBytesRequested),
                    ("open_requests", openRequests),
                    ("truncation", truncation),
                    ("missing_data", DamageReport.json(media.missingData)),
                    ("corrupt_packets", .integer(Int64(engine.demuxerFlaggedFrames.count)))
                ]).serialized)
            return .success
        }
        output.line(
            "\(media.path): \(media.container), start \(media.startTime.seconds) s, duration \(media.duration?.seconds.description ?? "unknown") s"
        )
        for s in media.streams {
            var line = "  stream \(s.index): \(s.mediaType.rawValue) \(s.codec)"
            if let w = s.width, let h = s.height { line += " \(w)x\(h)" }
            if let p = s.pixelFormat { line += " \(p)" }
            if s.orientation != .identity { line += " (\(s.orientation.rawValue))" }
            if let color = s.color { line += color.probeText }
            if let r = s.sampleRate { line += " \(r) Hz" }
            if s.isAttachedPicture { line += " (attached picture)" }
            if s.index == media.selectedStreamIndex { line += "  <- selected" }
            output.line(line)
        }
        if let truncation = media.truncation { output.line("  \(truncation)") }
        for gap in media.missingData { output.line("  \(gap)") }
        var index = "  index: \(engine.frameTable.source.rawValue)"
        if let bytes = engine.indexScanBytes { index += ", \(bytes.read) bytes read, \(bytes.skipped) sample bytes not read" }
        if let outcome = engine.indexCacheOutcome { index += ", cache \(Self.cacheWord(outcome))" }
        output.line(index)
        output.line(
            "  frames \(stats.frameCount), keyframes \(stats.keyframeCount), GOP min/median/max \(stats.minimumGOP.map(String.init) ?? "-")/\(stats.medianGOP.map(String.init) ?? "-")/\(stats.maximumGOP.map(String.init) ?? "-"), reorder depth \(stats.reorderDepth)"
        )
        return .success
    }

    /// How `probe` names what the index cache did.
    static func cacheWord(_ outcome: IndexCache.Outcome) -> String {
        switch outcome {
        case .read: "read"
        case .written: "written"
        case .rejected: "rebuilt"
        case .notWritten: "not_written"
        case .notNeeded: "not_needed"
        }
    }
}
