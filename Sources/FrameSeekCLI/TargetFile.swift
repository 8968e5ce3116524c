import Foundation
import FrameSeek

/// Target lists: one time per line, `#` starts a comment (as `peers.py --targets-out` and
/// people write them).
enum TargetFile {
    static func read(_ path: String) throws(UsageError) -> [MediaTime] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw UsageError(message: "\(path): cannot read the targets file")
        }
        var targets: [MediaTime] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            do { targets.append(try MediaTime(parsing: trimmed)) } catch {
                throw UsageError(message: "\(path):\(number + 1): \(error)")
            }
        }
        return targets
    }
}
