import FrameSeek

/// The options several commands take, each declared once here; a command's table names the
/// ones it takes.
extension CommandOption {
    /// Taken by every command (`CommandLineTool` adds them to each table).
    static let everyCommand: [CommandOption] = [json, noIndexCache]

    static let json = CommandOption("--json", help: "print JSON instead of text: the fields above")
    static let noIndexCache = CommandOption(
        "--no-index-cache",
        help: """
            neither read nor write the index cache in this run (see the Command line article)
            """)

    /// Taken by every command that opens media that may be over the network.
    static let network: [CommandOption] = [retries, timeout, deadline, insecure, playlistLimit]

    /// The options of a catalog run of `thumbnails` or `bench` (`landing` declares its own).
    static let catalogRun: [CommandOption] = [
        CommandOption(
            "--catalog", .text(placeholder: "CATALOG"),
            help: "JSON Lines, one media file per line (a path or {\"media\": PATH}, relative to the catalog)"),
        CommandOption("--shard", .text(placeholder: "K/N"), help: "only every N-th catalog line from line K (from 0), deterministically"),
        CommandOption("--results", .text(placeholder: "FILE"), help: "also write the catalog run's JSON lines to FILE, for merge"),
        ManifestCommand.root, ManifestCommand.allowOutsideRoot
    ]

    static let retries = CommandOption(
        "--retries", .wholeNumber(placeholder: "N", range: 0...100),
        help: "for a URL: retries of a failed request (default 3; see the Damaged media article)")
    static let timeout = CommandOption(
        "--timeout", .wholeNumber(placeholder: "S", range: 1...86_400),
        help: "for a URL: the longest one resource may take, retries included (default 30)")
    static let deadline = CommandOption(
        "--deadline", .wholeNumber(placeholder: "S", range: 0...604_800),
        help: """
            for a URL: the longest the command may take in all, after which it exits 2
            (default \(CommandDeadline.multiple) x --timeout, plus --for for play; 0 for none)
            """)
    static let insecure = CommandOption(
        "--insecure", help: "for https: do not verify the server's certificate (said once on stderr)")
    static let playlistLimit = CommandOption(
        "--playlist-limit-mb", .wholeNumber(placeholder: "N", range: 1...4096),
        help: "the largest playlist read, in MiB (default 16; 1 to 4096)")

    static let stream = CommandOption(
        "--stream", .wholeNumber(placeholder: "N", range: 0...1_000_000_000),
        help: """
            the stream, by its absolute index as ffprobe numbers streams (default: FFmpeg's best
            video stream, else its best audio stream; cover art is never one; see frameseek probe)
            """)
    static let threads = CommandOption(
        "--threads", .wholeNumber(placeholder: "N", range: 0...64),
        help: """
            decoder threads (default 1; 0 lets FFmpeg choose). 2 is faster on long
            decode-forward runs of clean media; see the Performance article's "Threads" for why
            the default stays 1
            """)
    static let convertThreads = CommandOption(
        "--convert-threads", .wholeNumber(placeholder: "N", range: 1...16),
        help: """
            threads that convert each picture to RGB, a slice of its rows each (default:
            one per core, at most 2); the pixels are the same for any N
            """)
    static let noDecodeAhead = CommandOption(
        "--no-decode-ahead",
        help: """
            steps forward one at a time: without it, each forward step lands the next on
            another thread while this one's picture is made (the same frames and pixels)
            """)
    static let strict = CommandOption(
        "--strict",
        help: """
            damage is an error: a truncated file, media that could not be read (a
            missing HLS segment), or a result decoded with errors, ends the command
            with exit 2 and one line naming the file and the first
            damaged frame. Without it such results are marked (damaged, decode_errors)
            and one warning line per file goes to stderr.
            """)

    /// `--decoders` of the commands that land many targets in one pass.
    static let batchDecoders = CommandOption(
        "--decoders", .wholeNumber(placeholder: "N", range: 1...FFmpegEngine.maximumBatchDecoders),
        help: """
            decoders a batch splits its GOPs between, each on a core (default: one per
            core, at most 2). Every frame decodes as on one decoder, damage reports too
            """)
    static let index = CommandOption(
        "--index", .text(placeholder: "I"),
        help: """
            full: index the whole stream when the media opens, so every landing carries its frame
            number; as-needed (the default): a seek or step into Matroska/WebM, MPEG-TS or
            fragmented MP4 reads only the packets from the keyframe before its target to just past
            it, through the container's own index, as a player does, and its frame_index is null
            (frame_index_unknown "not_indexed"); into MP3, ADTS AAC, raw AC-3, Ogg, FLAC, WAV or
            AIFF audio, the stream from its start through the target, numbered. A table in the
            index cache is used either way
            """)
    static let precision = CommandOption(
        "--precision", .text(placeholder: "P"), default: "exact",
        help: "exact, previous-keyframe, next-keyframe, nearest-keyframe:SECONDS, tolerance:BEFORE,AFTER")
    static let targets = CommandOption(
        "--targets", .text(placeholder: "FILE"),
        help: """
            one time per line (# starts a comment; blank lines and CRLF line ends are fine); a
            file with no time in it is an error
            """)
    static let cacheMB = CommandOption(
        "--cache-mb", .wholeNumber(placeholder: "MB", range: 0...1_048_576),
        help: "the frame cache backward steps come from (default 192; 0 turns it off)")
    static let poolMB = CommandOption(
        "--pool-mb", .wholeNumber(placeholder: "MB", range: 0...1_048_576),
        help: """
            bound on the decoders parked in recently visited GOPs (default 256; 0 keeps
            one decoder): a later target in such a GOP decodes on from the nearest one
            """)
    static let variant = CommandOption(
        "--variant", .text(placeholder: "V"),
        help: """
            for a multivariant playlist, the variant at 0-based position V in playlist
            order, bandwidth:BPS (that BANDWIDTH), or resolution:WxH (the highest
            BANDWIDTH of that RESOLUTION); default: the highest BANDWIDTH, the first
            listed among equals. Each result names the variant it landed in
            """)

    /// What `seek` and `step` add to a landing's line: the landed frame's MD5 and picture.
    static let landedExtras: [CommandOption] = [md5, pngDepth, tonemap, noAutorotate]

    static let md5 = CommandOption(
        "--md5",
        help: """
            the MD5 of the landed frame, as ffmpeg -f framemd5 prints it: over the
            video planes, or for audio over the frame as 16-bit PCM (pcm_s16le)
            """)
    static let pngDepth = CommandOption(
        "--png-depth", .text(placeholder: "8|16"), default: "8",
        help: "bits per sample of the PNG; 16 keeps the precision of 10- and 12-bit sources, as big-endian RGB samples")
    static let tonemap = CommandOption(
        "--tonemap", .text(placeholder: "T"),
        help: """
            how an HDR picture (PQ or HLG) is brought to SDR BT.709: hable (default),
            mobius, reinhard, clip (FFmpeg's zscale and tonemap filters, peaking at
            MaxCLL, else the mastering peak, else 1000 nits), or none (no tone mapping:
            grey and flat). SDR pictures and every MD5 are the same whatever it says
            """)
    static let noAutorotate = CommandOption("--no-autorotate", help: "write the PNG in coded orientation")

    /// `--at` of the commands that land at times: one more TIME, as a positional one is.
    static let at = CommandOption(
        "--at", .text(placeholder: "TIME"), repeatable: true,
        help: "a time to land at, as a TIME after FILE is; may be given again")
}
