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

    /// How many lines of a catalog of `lines` lines this shard takes.
    func lineCount(of lines: Int) -> Int { index < lines ? (lines - 1 - index) / count + 1 : 0 }

    var description: String { "\(index)/\(count)" }
}

/// A catalog: JSON Lines naming one media file (for `landing record`) or one manifest (for
/// `landing check`) per line.
///
/// A line is a JSON string (the path) or an object: `{"media": PATH}` with an optional
/// `"manifest": PATH` (where `record` writes, by default `PATH.landing.json` beside the media),
/// or `{"manifest": PATH}`. Relative paths are relative to the catalog's own folder, so a
/// catalog and its media move together. Blank lines are skipped and not counted.
///
/// A catalog may come from a pull request, so the paths it names are checked before use
/// (`checked(_:for:root:)`): inside the root, and regular files.
struct ManifestCatalog: Sendable {
    /// The largest catalog read: 16 MiB, some 100,000 media at a line each.
    static let maximumBytes = 16 << 20

    /// One line of the catalog.
    struct Line: Sendable, Hashable {
        /// The line's position among the catalog's non-blank lines, from 0 (what shards count).
        let number: Int
        /// The media file as the line gives it, when it names one.
        let givenMedia: String?
        /// The manifest as the line gives it, nil for a media line's default.
        let givenManifest: String?
        /// The media file, relative paths resolved against the catalog's folder.
        let media: String?
        /// The manifest: given, or for a media line the default beside the media.
        let manifest: String
    }

    /// The catalog's path, as given.
    let path: String
    /// Every line, in order.
    let lines: [Line]

    /// Reads the catalog at `path`.
    ///
    /// - Throws: `UsageError` naming the file and line when it is not a regular file or cannot
    ///   be read, a line is not a JSON string or object with a path, or it holds no line at all.
    init(path: String) throws(UsageError) {
        let text: String
        do { text = try FileContents.readText(path, limit: Self.maximumBytes) } catch {
            throw UsageError(message: "\(path): the catalog \(error)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
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
            let resolvedMedia = media.map { ManifestRoot.lexicalPath($0, relativeTo: folder) }
            lines.append(
                Line(
                    number: lines.count, givenMedia: media, givenManifest: manifest, media: resolvedMedia,
                    manifest: manifest.map { ManifestRoot.lexicalPath($0, relativeTo: folder) } ?? (resolvedMedia! + ".landing.json")))
        }
        guard !lines.isEmpty else { throw UsageError(message: "\(path): the catalog has no lines") }
        self.path = path
        self.lines = lines
    }

    /// The lines `shard` takes.
    func lines(of shard: Shard) -> [Line] { lines.filter { shard.owns($0.number) } }

    /// `line` with the paths `action` opens resolved with their symbolic links
    /// (`ManifestRoot.checkedPath`): the media and the manifest for `record` (which reads the
    /// one and writes the other), the manifest for `check`, the media for `thumbnails`.
    ///
    /// A path whose folder is missing is kept as written, for the run to name as missing.
    ///
    /// - Throws: `UsageError` naming the catalog line, the field and the cause when a path is
    ///   outside the root or not a regular file.
    func checked(_ line: Line, for action: ManifestCommand.Action, root: String?) throws(UsageError) -> Line {
        let source = "\(path):\(line.number + 1)"
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        func check(_ given: String, field: String, resolved: String) throws(UsageError) -> String {
            do throws(ManifestPathError) {
                return try ManifestRoot.checkedPath(given, relativeTo: folder, root: root, source: source, field: field)
            } catch {
                if error.reason == .missing { return resolved }
                throw UsageError(message: error.description)
            }
        }
        var media = line.media
        if action != .check, let given = line.givenMedia, let resolved = line.media {
            media = try check(given, field: "media", resolved: resolved)
        }
        if action == .thumbnails {
            guard media != nil else { throw UsageError(message: "\(source): a thumbnails catalog line names a media file") }
            return Line(
                number: line.number, givenMedia: line.givenMedia, givenManifest: nil, media: media, manifest: line.manifest)
        }
        // A media line's default manifest is named by the media's path.
        let manifestGiven = line.givenManifest ?? (line.givenMedia ?? "") + ".landing.json"
        let manifest = try check(manifestGiven, field: "manifest", resolved: line.manifest)
        return Line(
            number: line.number, givenMedia: line.givenMedia, givenManifest: line.givenManifest, media: media, manifest: manifest)
    }
}
