import FrameSeek

/// `frameseek frames`: the frame table in presentation order.
enum FramesCommand: Subcommand {
    static let name = "frames"
    static let summary = "every frame of the stream in presentation order"
    static let usage = """
        frameseek frames FILE [--stream N] [--strict] [--json]
        """
    static let options: [CommandOption] = [.stream, .threads, .strict] + CommandOption.network
    static let discussion = """
        Prints the frame table FrameSeek seeks on: every frame of the selected stream in
        presentation order, with its raw PTS, its time on the zero-based timeline (0 is the
        container's start time, as ffmpeg -ss counts), its duration and its keyframe flag.

        --json prints one object: stream_index, time_base ("num/den"), start_pts (the raw PTS
        of time zero: time = (pts - start_pts) * time_base), and frames, an array of
        {index, pts, time, duration, duration_pts, key, damaged, decode_errors}. time and
        duration are seconds. frames reads packets without decoding them: damaged and
        decode_errors say whether the demuxer flagged the frame's packet corrupt; errors found
        by decoding show on seek and step results.
        """
    static let exitCodes = """
        Exit codes: 0 success, 2 bad usage or unreadable input.
        """

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        let engine = try openEngine(try singleFile(arguments), arguments, errors: errors)
        let table = engine.frameTable
        var damage = try DamageReport(command: name, arguments: arguments, media: engine.media)
        let flagged = engine.demuxerFlaggedFrames
        for f in table.frames { try damage.note(frame: f.index, decodeErrors: flagged.contains(f.index) ? 1 : 0) }
        defer { damage.warn(errors) }
        if arguments.has("--json") {
            let frames: [JSONValue] = table.frames.map { f in
                .object(
                    [
                        ("index", .integer(Int64(f.index))), ("pts", .integer(f.pts)), ("time", f.time.json),
                        ("duration", f.duration.json), ("duration_pts", .integer(f.durationTicks)),
                        ("key", .bool(f.isKeyframe))
                    ] + DamageReport.fields(decodeErrors: flagged.contains(f.index) ? 1 : 0))
            }
            output.line(
                JSONValue.object([
                    ("stream_index", .integer(Int64(table.streamIndex))),
                    ("time_base", .string(table.timeBase.description)),
                    ("start_pts", .integer(table.originPTS)),
                    ("source", .string(table.source.rawValue)),
                    ("frames", .array(frames))
                ]).serialized)
            return .success
        }
        output.line("stream \(table.streamIndex), time base \(table.timeBase), start pts \(table.originPTS)")
        output.line("index        pts          time    duration  key")
        for f in table.frames {
            output.line(
                "\(String(f.index).leftPadded(5)) \(String(f.pts).leftPadded(10)) \(f.time.seconds.fixed(6).leftPadded(13)) \(f.duration.seconds.fixed(6).leftPadded(11))  \(f.isKeyframe ? "K" : "")"
                    + DamageReport.mark(decodeErrors: flagged.contains(f.index) ? 1 : 0))
        }
        return .success
    }
}
