import Foundation
import FrameSeek

/// Target lists: one time per line, `#` starts a comment (as `peers.py --targets-out` and
/// people write them).
enum TargetFile {
    /// The largest targets file read: 16 MiB, about a million targets.
    static let maximumBytes = 16 << 20

    /// The targets in `path`, in order. CRLF and CR line ends are read as LF ends (files
    /// written on Windows), and blank lines are skipped.
    ///
    /// - Throws: `UsageError` naming the file when it cannot be read, when a line is not a
    ///   time, or when it holds no target at all (a run with nothing to seek is a mistake,
    ///   and a benchmark of nothing has no median).
    static func read(_ path: String) throws(UsageError) -> [MediaTime] {
        let text: String
        do { text = try FileContents.readText(path, limit: maximumBytes) } catch {
            throw UsageError(message: "\(path): the targets file \(error)")
        }
        var targets: [MediaTime] = []
        // Swift treats "\r\n" as one Character, which splitting on "\n" never matches: split
        // on every kind of line end instead.
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            do { targets.append(try MediaTime(parsing: trimmed)) } catch {
                throw UsageError(message: "\(path):\(number + 1): \(error)")
            }
        }
        guard !targets.isEmpty else { throw UsageError(message: "no targets in \(path)") }
        return targets
    }
}
