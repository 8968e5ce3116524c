import Foundation
import FrameSeek

/// One catalog line run as its own command, in this process: what `thumbnails --catalog` and
/// `bench --catalog` do for each line their shard takes, with the options the run was given.
struct CatalogLineRun {
    /// The command's exit code.
    let code: CommandLineTool.ExitCode
    /// Its standard output, by line.
    let output: [String]
    /// Its one-line error (without warnings); nil when it succeeded.
    let error: String?

    /// Runs `command` on `media` with `words` (options as `Arguments.optionWords` gives them),
    /// capturing what it prints. Media that names other resources (an HLS playlist, a DASH
    /// MPD, an ffconcat list) is not run: the root rule covers the file a catalog names, not
    /// what that file would make FFmpeg open.
    init(_ command: String, media: String, words: [String]) {
        if let problem = Self.referenceProblem(media) {
            (code, output, error) = (.usageOrInput, [], "frameseek \(command): \(media): \(problem)")
            return
        }
        let captured = CapturedOutput(), failure = CapturedOutput()
        code = CommandLineTool.run([command, media] + words, output: captured, errors: failure)
        output = captured.lines
        error = code == .success ? nil : (failure.lines.last { !$0.contains("warning:") } ?? "\(command) failed")
    }

    /// A line that fails before it runs, with `error`.
    init(failing error: String) {
        (code, output, self.error) = (.usageOrInput, [], error)
    }

    /// Why `path` is refused as a catalog's media: a playlist, an MPD or an ffconcat list, by
    /// its name or its first bytes; nil for anything else.
    static func referenceProblem(_ path: String) -> String? {
        let refusal = "a playlist, MPD or concat list: a catalog names media files, whose reads stay inside the root"
        if ["m3u8", "m3u", "mpd"].contains(URL(fileURLWithPath: path).pathExtension.lowercased()) { return refusal }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
        let text = head.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
        if text.hasPrefix("#EXTM3U") || text.hasPrefix("ffconcat") || head.contains("<MPD") { return refusal }
        return nil
    }
}
