import Foundation
import FrameSeek

/// `frameseek thumbnails`: seek-preview pictures, sprite sheets, WebVTT and a JSON storyboard.
enum ThumbnailsCommand: Subcommand {
    static let name = "thumbnails"
    static let summary = "seek-preview thumbnails: PNGs or sprite sheets, WebVTT and a JSON storyboard"
    static let usage = """
        frameseek thumbnails FILE --out DIR [--every SECONDS | --count N] [--size WxH]
                             [--columns C --rows R] [--precision P] [--stream N] [--strict]
                             [--decoders N] [--png-compression 0-9] [--tonemap T] [--json]
                             [--format png|jpeg|webp] [--quality 1-100] [--hls] [--dash]
                             [--merge-into MULTIVARIANT.m3u8 | MANIFEST.mpd ...]
        frameseek thumbnails --catalog CATALOG [--shard K/N] --out DIR [--results FILE]
                             [--root DIR | --allow-outside-root] [the same export options]
        frameseek thumbnails merge RESULTS... [--json]
        """
    static let options: [CommandOption] =
        [
            out, every, count, size, columns, rows, precision, index, .stream, .threads, decoders, pngCompression, format, quality, hls,
            dash, mergeInto, .tonemap, .strict
        ]
        + CommandOption.network + CommandOption.catalogRun
    /// FILE, or `merge` and the RESULTS files.
    static let maximumPositionals = Int.max
    static let discussion = """
        Makes one thumbnail every SECONDS (default 10) or N evenly spaced, each fitted in the
        WxH box (default 160x90) in the display aspect: the display matrix (rotation, flips) and
        the sample aspect ratio are applied, so portrait phone video gives portrait thumbnails.
        Decoders of its own are used; with the default precision (any keyframe, the nearest)
        only keyframe packets are read and decoded. --precision exact gives the exact frames;
        nearest-keyframe:S or tolerance:B,A bound how far the picture may be from its time.
        Matroska/WebM with Cues opens as needed (--index as-needed, the default): the Cues
        decide which keyframe each time lands on, as a streaming player's scrub preview does,
        and only that keyframe is read, so a set over HTTP costs its keyframes rather than the
        film; a time whose keyframe the Cues cannot decide (before the first, or none within
        a bounded precision) reads a seek window. Cues that skip keyframes give the nearest
        keyframe they list; --index full reads the whole stream and decides on every keyframe.
        Other containers build the whole table (an MP4's from its index).
        --decoders N (1-16; default one per core, at most 2) opens the file N times and
        decodes different thumbnails at once; the pictures are the same for any N. PNGs are
        encoded while decoding goes on, with zlib level --png-compression (default \(PNGCompression.default.level):
        fast; 9 is smallest and slowest, 0 stores the pixels uncompressed). Every level gives
        the same pixels. An HDR stream (PQ or HLG) is tone-mapped to SDR BT.709 at full size,
        then scaled: --tonemap hable (default), mobius, reinhard, clip or none (see seek --help).

        SECONDS is seconds (10, 0.5 or 10s), a rational (1001/30000) or a clock time (00:00:10).

        Writes into DIR: thumb-0001.png ... (or sheet-001.png ... of up to C x R tiles with
        --columns and --rows, each sheet only as large as the tiles it holds), thumbnails.vtt
        (cues "FILE#xywh=x,y,w,h") and storyboard.json
        ({url, tile_width, tile_height, duration, tiles: [{start, x, y, url}]}).
        The set is written under temporary names and renamed into place when complete; files
        of an earlier set in DIR (thumb-NNNN and sheet-NNN pictures in the format written,
        thumbnails.vtt, storyboard.json, images.m3u8, images-stream-inf.txt, thumbnails.mpd)
        that the new set does not replace are removed. No other file in DIR is touched.
        DIR is checked before anything is decoded.

        --format jpeg or webp encodes the pictures with FFmpeg's own encoders (mjpeg, libwebp)
        at --quality (1-100, default \(PictureQuality.default)); PNG is the default, JPEG when a
        streaming form is asked for. --hls also writes images.m3u8, an HLS image media
        playlist (EXT-X-IMAGES-ONLY, an EXT-X-TILES and EXTINF per sheet), and
        images-stream-inf.txt, the EXT-X-IMAGE-STREAM-INF line to add to a multivariant
        playlist. --dash also writes thumbnails.mpd, an MPD with one image AdaptationSet
        (DASH-IF thumbnail tiles: the thumbnail_tile property, a $Number$ SegmentTemplate).
        With either, every sheet is the size of a full C x R grid (black after the last
        tile), and every form names the same tile for the same time as the WebVTT track.
        --merge-into writes a copy of a given multivariant playlist (with --hls) or MPD (with
        --dash) beside it, as NAME-thumbnails.m3u8 or NAME-thumbnails.mpd, with the image
        stream line or the thumbnail AdaptationSet (in its first Period) added, naming the
        thumbnails relative to it.

        Limits, checked before decoding: at most 100000 thumbnails (--count, or the times
        --every gives), --size at most 8192x8192, sheets at most 16384 px on a side (with
        --hls or --dash, the full C x R grid, of at most 100000 tiles), and at most 8 GiB of
        pictures in all (count x width x height x 3, and one full sheet with --hls or --dash).
        --json prints {width, height, format, thumbnails: [{requested, actual, file, x, y}], vtt,
        storyboard, hls, image_stream_inf, dash} (the last three null unless asked for).
        Progress goes to stderr when it is a terminal.
        Under --strict nothing is written when a thumbnail is damaged.

        --catalog CATALOG exports every media file the catalog names (JSON Lines: a path, or
        {"media": PATH}, relative to the catalog) into DIR/NAME/, NAME being the file's name
        without its extension, with the other options given; two files giving one NAME are
        refused before anything is decoded. --shard K/N takes every N-th line from line K
        (from 0), so N processes (a Kubernetes Indexed Job, a Slurm array) cover the catalog
        once; paths must resolve inside --root (default: the current folder) and be regular
        files. One line per export (--json: {"type": "exported" | "error", line, media, name,
        out, thumbnails | error}) and a summary line; --results FILE also writes those lines,
        whole at the end. thumbnails merge RESULTS... adds up the shards' summaries, checking
        that every shard is there once, and exits as one run over the whole catalog would.
        """
    static let exitCodes = """
        Exit codes: 0 success, 2 bad usage, unreadable input or an unwritable DIR.
        """

    static let out = CommandOption("--out", .text(placeholder: "DIR"), help: "the folder the set is written into")
    static let every = CommandOption("--every", .text(placeholder: "SECONDS"), help: "a thumbnail every SECONDS (default 10)")
    static let count = CommandOption(
        "--count", .wholeNumber(placeholder: "N", range: 1...Storyboard.maximumCount), help: "N thumbnails, evenly spaced")
    static let size = CommandOption("--size", .text(placeholder: "WxH"), default: "160x90", help: "the box each thumbnail fits in")
    static let columns = CommandOption(
        "--columns", .wholeNumber(placeholder: "C", range: 1...1_000_000_000), help: "sprite sheets C tiles wide (with --rows)")
    static let rows = CommandOption(
        "--rows", .wholeNumber(placeholder: "R", range: 1...1_000_000_000), help: "sprite sheets R tiles high (with --columns)")
    static let precision = CommandOption(
        "--precision", .text(placeholder: "P"),
        help: """
            how far the picture may be from its time (default: the nearest keyframe, any distance);
            exact, previous-keyframe, next-keyframe, nearest-keyframe:SECONDS, tolerance:BEFORE,AFTER
            """)
    static let index = CommandOption(
        "--index", .text(placeholder: "I"),
        help: """
            as-needed (the default): Matroska/WebM whose Cues list its keyframes lands each thumbnail
            on the keyframe they list nearest, reading that keyframe alone; full: read the whole
            stream first and decide on every keyframe. Other containers read the whole table either way
            """)
    static let format = CommandOption(
        "--format", .text(placeholder: "png|jpeg|webp"),
        help: "the pictures' format (default png; jpeg with --hls or --dash)")
    static let quality = CommandOption(
        "--quality", .wholeNumber(placeholder: "1-100", range: 1...100),
        help: "JPEG and WebP quality (default \(PictureQuality.default))")
    static let hls = CommandOption("--hls", help: "also write an HLS image media playlist (images.m3u8) and its stream line")
    static let dash = CommandOption("--dash", help: "also write a DASH MPD with a thumbnail-tile AdaptationSet (thumbnails.mpd)")
    static let mergeInto = CommandOption(
        "--merge-into", .text(placeholder: "MANIFEST"), repeatable: true,
        help: "write a copy of this multivariant playlist or MPD, beside it, with the thumbnails added")
    static let decoders = CommandOption(
        "--decoders", .wholeNumber(placeholder: "N", range: 1...ThumbnailGenerator.maximumDecoders),
        help: "decoders, each opening the file (default one per core, at most 2)")
    static let pngCompression = CommandOption(
        "--png-compression", .wholeNumber(placeholder: "0-9", range: 0...9),
        help: "the zlib level of the PNGs (default \(PNGCompression.default.level))")

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        if arguments.positionals.first == "merge" {
            return try ThumbnailsCatalog.merge(Array(arguments.positionals.dropFirst()), arguments, output: output)
        }
        if arguments.value("--catalog") != nil { return try ThumbnailsCatalog.run(arguments, output: output, errors: errors) }
        for option in ["--shard", "--results"] where arguments.value(option) != nil {
            throw UsageError(message: "\(option) goes with --catalog")
        }
        if arguments.positionals.count > 1 { throw UsageError(message: "unexpected argument \"\(arguments.positionals[1])\"") }
        let file = try singleFile(arguments)
        guard let directory = arguments.value("--out") else { throw UsageError(message: "missing --out DIR") }
        let size = try parseSize(arguments.valueOrDefault("--size"))
        let columns = try arguments.integer("--columns"), rows = try arguments.integer("--rows")
        guard (columns == nil) == (rows == nil) else { throw UsageError(message: "--columns and --rows go together") }
        if arguments.value("--every") != nil && arguments.value("--count") != nil {
            throw UsageError(message: "give --every or --count, not both")
        }
        var every = MediaTime(value: 10, timescale: 1)
        if let text = arguments.value("--every") {
            do { every = try MediaTime(parsing: text) } catch { throw UsageError(message: "--every: \(error)") }
            guard every > .zero else { throw UsageError(message: "--every must be more than 0") }
        }
        let count = try arguments.integer("--count")
        // The folder is checked before the media is opened: a run must not decode for minutes
        // and then find it cannot save.
        if let problem = outputFolderProblem(directory) {
            throw UsageError(message: "\(directory): cannot write the output folder (\(problem))")
        }
        let decoders =
            try arguments.integer("--decoders")
            ?? ThumbnailGenerator.defaultDecoders
        let compression = try pngCompression(arguments)
        var streaming: Storyboard.StreamingForms = []
        if arguments.has("--hls") { streaming.insert(.hls) }
        if arguments.has("--dash") { streaming.insert(.dash) }
        var format: PictureFormat = streaming.isEmpty ? .png : .jpeg
        if let text = arguments.value("--format") {
            guard let given = PictureFormat(rawValue: text == "jpg" ? "jpeg" : text) else {
                throw UsageError(message: "--format takes png, jpeg or webp, not \"\(text)\"")
            }
            format = given
        }
        let quality = try arguments.integer("--quality") ?? PictureQuality.default
        let merges = try ThumbnailsMerge.checked(arguments, streaming: streaming)
        var precision = SeekPrecision.tolerance(before: .positiveInfinity, after: .positiveInfinity)
        if let text = arguments.value("--precision") {
            do { precision = try SeekPrecision(parsing: text) } catch { throw UsageError(message: "\(error)") }
        }
        let generator = try ThumbnailGenerator(
            path: file, options: engineOptions(arguments, cacheBytes: 0, indexing: .asNeeded), precision: precision,
            prefetchingKeyframes: true)
        generator.maximumSize = size
        var damage = try DamageReport(command: name, arguments: arguments, media: generator.engine.media)
        guard let frames = try generator.framesRange() else { throw UsageError(message: "\(file): no frames") }
        // In seek windows a truncated file shows in the window at the end that gave the span:
        // under --strict nothing is decoded then.
        try damage.note(truncation: generator.engine.media.truncation)
        // The track covers the timeline from its zero, as a player's scrub bar does, even when
        // the first decodable frame comes later (a stream cut mid-GOP): those cues show it.
        let range = min(MediaTime.zero, frames.lowerBound)..<frames.upperBound
        // WebVTT cue times have millisecond resolution: closer thumbnails would give cues that
        // end where they start.
        let millisecond = MediaTime(value: 1, timescale: 1000)
        let span = range.upperBound - range.lowerBound
        if let count, span < MediaTime(value: Int64(count), timescale: 1000) {
            throw UsageError(message: "--count \(count) would put thumbnails less than 1 ms apart (WebVTT times are in milliseconds)")
        }
        if count == nil && every < millisecond {
            throw UsageError(message: "--every must be at least 0.001 (WebVTT times are in milliseconds)")
        }
        guard var times = count.map({ evenlySpaced($0, over: range) }) ?? spaced(every, over: range, limit: Storyboard.maximumCount) else {
            throw UsageError(
                message:
                    "--every \(arguments.value("--every") ?? "") gives more than \(Storyboard.maximumCount) thumbnails, the most one run makes"
            )
        }
        // A last time within the final millisecond would end where it starts.
        let endTick = TimeBase(numerator: 1, denominator: 1000).ticks(in: range.upperBound)
        while times.count > 1, let last = times.last, TimeBase(numerator: 1, denominator: 1000).ticks(in: last) == endTick {
            times.removeLast()
        }
        let tile = generator.thumbnailSize
        do {
            try Storyboard.checkLimits(
                count: times.count, tileWidth: tile.width, tileHeight: tile.height, columns: columns, rows: rows,
                fullSheets: !streaming.isEmpty)
        } catch {
            throw UsageError(message: "\(error)")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw UsageError(message: "\(directory): cannot create the output folder (\(blockingCause(directory)))")
        }
        let progress: ((Int, Int) -> Void)? =
            errors.isTerminal
            ? { done, total in
                errors.write("\r  \(done)/\(total)\(done == total ? "\n" : "")")
            } : nil
        // Pictures are written as they come, in time order, while the decoders go on; a failure
        // (a damaged thumbnail under --strict included) leaves only temporary files, which the
        // writer removes.
        let writer = try StoryboardWriter(
            directory: directory, count: times.count, tileWidth: tile.width, tileHeight: tile.height,
            columns: columns, rows: rows, withTrack: true, compression: compression, format: format, quality: quality,
            streaming: streaming)
        var keyframeOnly = 0
        try generator.forEachThumbnail(at: times, decoders: decoders, progress: progress) { thumbnail in
            try damage.note(frame: thumbnail.frameIndex, decodeErrors: thumbnail.decodeErrors)
            try writer.add(thumbnail)
            if thumbnail.fromKeyframeOnly { keyframeOnly += 1 }
        }
        // A window read for a thumbnail may find what the open could not.
        try damage.note(truncation: generator.engine.media.truncation)
        let storyboard = try writer.finish(duration: range.upperBound)
        let layout = Storyboard.SheetLayout(columns: columns ?? 1, rows: rows ?? 1)
        for merge in merges { try merge.write(storyboard, directory: directory, layout: layout, format: format) }
        let vttPath = directory + "/" + Storyboard.trackFileName, storyboardPath = directory + "/" + Storyboard.storyboardFileName
        let playlistPath = directory + "/" + Storyboard.imagePlaylistFileName, mpdPath = directory + "/" + Storyboard.thumbnailMPDFileName
        let streamPath = directory + "/" + Storyboard.imageStreamFileName
        if arguments.has("--json") {
            let items: [JSONValue] = storyboard.tiles.map { tile in
                .object([
                    ("requested", tile.requested.json), ("actual", tile.actual.json), ("file", .string(tile.file)),
                    ("x", .integer(Int64(tile.x))), ("y", .integer(Int64(tile.y)))
                ])
            }
            let streamLine = streaming.contains(.hls) ? try? FileContents.readText(streamPath, limit: ThumbnailsMerge.maximumBytes) : nil
            output.line(
                JSONValue.object([
                    ("width", .integer(Int64(storyboard.tileWidth))), ("height", .integer(Int64(storyboard.tileHeight))),
                    ("format", .string(format.rawValue)),
                    ("thumbnails", .array(items)), ("vtt", .string(vttPath)), ("storyboard", .string(storyboardPath)),
                    ("hls", .string(streaming.contains(.hls) ? playlistPath : nil)),
                    ("image_stream_inf", .string(streamLine?.trimmingCharacters(in: .whitespacesAndNewlines))),
                    ("dash", .string(streaming.contains(.dash) ? mpdPath : nil))
                ]).serialized)
        } else {
            var line =
                "\(storyboard.tiles.count) thumbnails of \(storyboard.tileWidth)x\(storyboard.tileHeight) in \(directory) (\(keyframeOnly) from keyframes alone); \(vttPath), \(storyboardPath)"
            if streaming.contains(.hls) { line += ", \(playlistPath)" }
            if streaming.contains(.dash) { line += ", \(mpdPath)" }
            output.line(line)
        }
        damage.warn(errors)
        return .success
    }

    /// `--png-compression 0-9` as a `PNGCompression` with the default filter; the default
    /// when absent.
    static func pngCompression(_ arguments: Arguments) throws(UsageError) -> PNGCompression {
        guard let level = try arguments.integer("--png-compression") else { return .default }
        return PNGCompression(level: level, filter: PNGCompression.default.filter)
    }

    /// Why thumbnails cannot be written into `directory`, or nil: an existing folder must be
    /// writable, and a missing one must be creatable (see `blockingCause`).
    static func outputFolderProblem(_ directory: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return "\(directory) is a file" }
            return OutputFile.directoryProblem(of: directory + "/" + Storyboard.trackFileName)
        }
        let cause = blockingCause(directory)
        return cause.hasPrefix("cannot write in ") ? nil : cause
    }

    /// Why a folder cannot be made: the nearest existing ancestor is a file, or not writable.
    static func blockingCause(_ directory: String) -> String {
        // Absolute first: NSString's path functions trap on the empty parent of "out".
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        while url.path != "/" && !url.path.isEmpty {
            let path = url.path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                if !isDirectory.boolValue { return "\(path) is a file" }
                return FileManager.default.isWritableFile(atPath: path) ? "cannot write in \(path)" : "\(path) is not writable"
            }
            url.deleteLastPathComponent()
        }
        return "no folder on the path can be written"
    }

    /// The largest thumbnail side: a picture is a preview, and 8192 already holds 8K video.
    static let maximumSide = 8192

    static func parseSize(_ text: String) throws(UsageError) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= maximumSide, h <= maximumSide else {
            throw UsageError(message: "--size takes WxH from 1x1 to at most \(maximumSide)x\(maximumSide), such as 160x90, not \"\(text)\"")
        }
        return (w, h)
    }

    /// `first, first + every, ...` while before the end; nil when that is more than `limit`
    /// times (never silently cut short).
    static func spaced(_ every: MediaTime, over range: Range<MediaTime>, limit: Int) -> [MediaTime]? {
        var times: [MediaTime] = []
        var t = range.lowerBound
        while t < range.upperBound {
            guard times.count < limit else { return nil }
            times.append(t)
            let next = t + every
            // A sum that does not move forward (saturated, or not numeric) ends the list.
            guard next.isNumeric, next > t else { break }
            t = next
        }
        return times
    }

    /// `count` times from the start, evenly apart, the last one `span / count` before the end:
    /// in microseconds, or in the span's own timescale when the span is too long for them (a
    /// hostile file's span must not read as zero). In 128 bits, so the span times the count
    /// cannot trap.
    static func evenlySpaced(_ count: Int, over range: Range<MediaTime>) -> [MediaTime] {
        let span = range.upperBound - range.lowerBound
        let (value, timescale): (Int64, Int32) =
            TimeBase(numerator: 1, denominator: 1_000_000).ticks(in: span).map { ($0, 1_000_000) } ?? (span.value, span.timescale)
        guard span.isNumeric, value > 0, timescale > 0 else { return [range.lowerBound] }
        return (0..<count).map { i in
            let offset = Int64(Int128(value) * Int128(i) / Int128(count))
            return range.lowerBound + MediaTime(value: offset, timescale: timescale)
        }
    }
}
