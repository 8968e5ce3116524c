import Foundation
import FrameSeek

/// `frameseek iframes`: an HLS I-frame playlist for a media playlist or a file.
enum IFramesCommand: Subcommand {
    static let name = "iframes"
    static let summary = "an HLS I-frame playlist (EXT-X-I-FRAMES-ONLY) for a media playlist, a TS or a fragmented MP4"
    static let usage = """
        frameseek iframes PLAYLIST_OR_FILE --out DIR [--json]
        """
    static let options: [CommandOption] = [out] + CommandOption.network
    static let discussion = """
        Reads every packet of the video stream, decoding nothing: of each segment of an HLS
        media playlist (MPEG-TS or fragmented MP4 segments, fetched as a player fetches them),
        or of one MPEG-TS or fragmented MP4 file or URL. For each keyframe it names the bytes
        a player fetches to show it alone: in MPEG-TS from the keyframe's first TS packet to the
        next video packet; in fragmented MP4 from the moof box that describes it to the end of
        its sample, after the EXT-X-MAP section (the segment's map, or the file's ftyp and moov).

        Writes into DIR: iframes.m3u8, with an EXTINF (the time to the next keyframe, or to the
        end of the last frame), an EXT-X-BYTERANGE and the URI per keyframe, and
        iframes-stream-inf.txt, the EXT-X-I-FRAME-STREAM-INF line for a multivariant playlist
        beside it (BANDWIDTH is the peak over keyframes, CODECS is given for H.264). The first
        keyframe is at 0 and the EXTINFs add up to each keyframe's PTS distance from it; after
        an EXT-X-DISCONTINUITY the timestamps start over where the media playlist starts that
        segment. Local resources are named relative to DIR, remote ones by their URL.

        Every entry has an EXT-X-MAP: the segment's own; for a fragmented MP4 file its ftyp and
        moov; for MPEG-TS the first PAT and PMT, which a TS byte range must have (RFC 8216 3.2).

        Refused: progressive MP4 and other containers, DASH, live playlists (no EXT-X-ENDLIST),
        encrypted segments (their byte ranges cannot be decrypted alone), fMP4 segments
        without EXT-X-MAP and TS without a PAT and PMT in its first MiB.
        A fragmented MP4 keyframe that is not the first video sample of its fragment is left
        out (and counted): the bytes from its moof would bring the samples before it, and a
        player would show the fragment's first frame (CMAF fragments start with a keyframe); so is
        a TS keyframe that shares its PES with another frame.
        --json prints {playlist, stream_inf, iframes, left_out, bandwidth, width, height, codecs}.
        """
    static let exitCodes = """
        Exit codes: 0 success, 2 bad usage, unreadable or refused input, or an unwritable DIR.
        """

    static let out = CommandOption("--out", .text(placeholder: "DIR"), help: "the folder the playlist is written into")

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        let file = try singleFile(arguments)
        guard let directory = arguments.value("--out") else { throw UsageError(message: "missing --out DIR") }
        if let problem = ThumbnailsCommand.outputFolderProblem(directory) {
            throw UsageError(message: "\(directory): cannot write the output folder (\(problem))")
        }
        let ranges = try KeyframeByteRanges.read(file, options: engineOptions(arguments))
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw UsageError(message: "\(directory): cannot create the output folder (\(ThumbnailsCommand.blockingCause(directory)))")
        }
        let playlistPath = URL(fileURLWithPath: directory).appendingPathComponent("iframes.m3u8").path
        let playlist = try ranges.iFramePlaylist { location in
            guard location.isFileURL else { return location.absoluteString }
            let relative = RelativePath.of(location.path, fromDirectoryOf: playlistPath)
            let encoded = relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative
            // A first segment holding a colon would read as a URI scheme (`12:00.ts`).
            return encoded.split(separator: "/").first?.contains(":") == true ? "./" + encoded : encoded
        }
        let streamLine = playlist.streamLine(uri: "iframes.m3u8", width: ranges.width, height: ranges.height, codecs: ranges.codecs)
        let streamPath = URL(fileURLWithPath: directory).appendingPathComponent("iframes-stream-inf.txt").path
        try OutputFile.write(playlist.text, to: playlistPath)
        try OutputFile.write(streamLine + "\n", to: streamPath)
        if arguments.has("--json") {
            output.line(
                JSONValue.object([
                    ("playlist", .string(playlistPath)), ("stream_inf", .string(streamLine)),
                    ("iframes", .integer(Int64(playlist.iframes.count))), ("left_out", .integer(Int64(ranges.leftOut))),
                    ("bandwidth", .integer(Int64(playlist.peakBandwidth))),
                    ("width", .integer(Int64(ranges.width))), ("height", .integer(Int64(ranges.height))), ("codecs", .string(ranges.codecs))
                ]).serialized)
        } else {
            let leftOut = ranges.leftOut == 0 ? "" : "; \(ranges.leftOut) keyframes left out, not first in their fragment"
            output.line("\(playlistPath): \(playlist.iframes.count) I-frames, peak \(playlist.peakBandwidth) bit/s\(leftOut)")
            output.line(streamLine)
        }
        return .success
    }
}
