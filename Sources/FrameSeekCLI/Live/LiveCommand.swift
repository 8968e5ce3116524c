import FrameSeek

/// `frameseek live`: what a playlist's seekable window is right now, as a player would see it
/// after loading it once.
enum LiveCommand: Subcommand {
    static let name = "live"
    static let summary = "an HLS playlist's seekable window: dates, live edge, segments"
    static let usage = """
        frameseek live PLAYLIST [--variant N] [--stream N] [--threads N] [--json]
        """
    static let options: [CommandOption] = [.variant, .stream, .threads] + CommandOption.network
    static let discussion = """
        Loads the HLS playlist once (a path, file://, http:// or https:// URL), indexes every
        segment of its window, and prints the window: whether it is live (no EXT-X-ENDLIST and
        not VOD), whether it is date-addressable (has EXT-X-PROGRAM-DATE-TIME), its first and end
        dates, its seekable range and live edge on the zero-based timeline, the target duration
        and the segment count. The live edge is the window's end less the hold-back (SERVER-CONTROL
        HOLD-BACK, or three target durations); for a playlist that is not live it is the end.

        --json prints one line: is_live, date_addressable, start_date, end_date (ISO 8601 with
        milliseconds, null when not date-addressable), live_edge, seekable_start, seekable_end,
        target_duration (seconds), segments (the count), and missing_data (after_frame, start, end,
        evidence) when segments could not be read.
        """
    static let exitCodes = """
        Exit codes: 0 success, 2 bad usage or an unreadable playlist.
        """

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        let file = try singleFile(arguments)
        guard PlaylistInput.isPlaylist(file) else {
            throw UsageError(message: "\(file): not an HLS playlist (no .m3u8 or .m3u name, no #EXTM3U)")
        }
        let engine = try PlaylistInput.open(file, arguments)
        let window = engine.liveSeekWindow
        let missing = engine.media.missingData
        if arguments.has("--json") {
            var fields: JSONValue.KeyValuePairs = [
                ("is_live", .bool(window.isLive)), ("date_addressable", .bool(window.isDateAddressable)),
                ("start_date", PlaylistInput.json(window.startProgramDate)), ("end_date", PlaylistInput.json(window.endProgramDate)),
                ("live_edge", window.liveEdge.json),
                ("seekable_start", window.seekableRange.lowerBound.json),
                ("seekable_end", window.seekableRange.upperBound.json),
                ("target_duration", window.targetDuration.json), ("segments", .integer(Int64(window.segmentCount)))
            ]
            if !missing.isEmpty {
                fields.append(("missing_data", DamageReport.json(missing)))
            }
            output.line(JSONValue.object(fields).serialized)
        } else {
            let range = window.seekableRange
            output.line(
                "\(file): \(window.isLive ? "live" : "not live (ended or VOD)"), \(window.segmentCount) segments, target duration \(window.targetDuration.seconds) s"
            )
            output.line(
                "  seekable \(range.lowerBound.seconds.fixed(3)) s to \(range.upperBound.seconds.fixed(3)) s, live edge \(window.liveEdge.seconds.fixed(3)) s"
            )
            if let start = window.startProgramDate, let end = window.endProgramDate {
                output.line("  dates \(start.iso8601) to \(end.iso8601)")
            } else {
                output.line("  no dates (no EXT-X-PROGRAM-DATE-TIME): not date-addressable")
            }
            for gap in missing { output.line("  \(gap)") }
        }
        // The same warning line as probe's, so missing segments are never silent in text mode.
        if !missing.isEmpty {
            errors.escapedLine("frameseek live: warning: \(file): " + missing.map(\.description).joined(separator: "; "))
        }
        return .success
    }
}
