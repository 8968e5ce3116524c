import Foundation
import FrameSeek

/// Which lines of a catalog one process takes: `--shard K/N` is every N-th line from line K
/// (0-based), so N processes given 0/N … N-1/N cover the catalog once between them, with no
/// scheduler and no coordination: the same catalog and the same K/N always give the same lines.
struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// This shard's number, from 0.
    let index: Int
    /// How many shards the catalog is split into.
    let count: Int

    /// The whole catalog in one process.
    static let whole = Shard(index: 0, count: 1)

    /// Parses `K/N` with 0 <= K < N.
    init(parsing text: String) throws(UsageError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, k >= 0, k < n else {
            throw UsageError(
                message: "--shard takes K/N with 0 <= K < N (every N-th catalog line from line K, counting from 0), not \"\(text)\"")
        }
        index = k
        count = n
    }

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether catalog line `line` (0-based, blank lines not counted) is this shard's.
    func owns(_ line: Int) -> Bool { line % count == index }

    var description: String { "\(index)/\(count)" }
}

/// A catalog: JSON Lines naming one media file (for `landing record`) or one manifest (for
/// `landing check`) per line.
///
/// A line is a JSON string (the path) or an object: `{"media": PATH}` with an optional
/// `"manifest": PATH` (where `record` writes, by default `PATH.landing.json` beside the media),
/// or `{"manifest": PATH}`. Relative paths are relative to the catalog's own folder, so a
/// catalog and its media move together. Blank lines are skipped and not counted.
struct LandingCatalog: Sendable {
    /// One line of the catalog.
    struct Line: Sendable, Hashable {
        /// The line's position among the catalog's non-blank lines, from 0 (what shards count).
        let number: Int
        /// The media file, when the line names one.
        let media: String?
        /// The manifest: given, or for a media line the default beside the media.
        let manifest: String
    }

    /// Every line, in order.
    let lines: [Line]

    /// Reads the catalog at `path`.
    ///
    /// - Throws: `UsageError` naming the file and line when it cannot be read, a line is not
    ///   a JSON string or object with a path, or it holds no line at all.
    init(path: String) throws(UsageError) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw UsageError(message: "\(path): cannot read the catalog")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        func resolve(_ given: String) -> String {
            given.hasPrefix("/") || given.contains("://") ? given : folder.appendingPathComponent(given).path
        }
        var lines: [Line] = []
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            let value = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: [.fragmentsAllowed])
            var media: String?, manifest: String?
            if let path = value as? String {
                media = path
            } else if let object = value as? [String: Any] {
                media = object["media"] as? String
                manifest = object["manifest"] as? String
            }
            guard media?.isEmpty == false || manifest?.isEmpty == false else {
                throw UsageError(
                    message:
                        "\(path):\(number + 1): a catalog line is a JSON string or an object with \"media\" or \"manifest\", not \(trimmed.prefix(80))"
                )
            }
            let resolvedMedia = media.map(resolve)
            lines.append(
                Line(
                    number: lines.count, media: resolvedMedia,
                    manifest: manifest.map(resolve) ?? (resolvedMedia! + ".landing.json")))
        }
        guard !lines.isEmpty else { throw UsageError(message: "\(path): the catalog has no lines") }
        self.lines = lines
    }

    /// The lines `shard` takes.
    func lines(of shard: Shard) -> [Line] { lines.filter { shard.owns($0.number) } }
}
