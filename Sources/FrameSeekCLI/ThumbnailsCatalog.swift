import Foundation
import FrameSeek

/// `thumbnails --catalog`: one export per catalog line, each into its own folder, split into
/// shards as `landing` splits its catalogs; and `thumbnails merge`, which adds the shards'
/// results up.
enum ThumbnailsCatalog {
    /// The options a catalog run reads itself and does not hand on to each line's export.
    private static let ownOptions: Set<String> = ["--catalog", "--shard", "--results", "--out", "--json", "--root", "--allow-outside-root"]

    /// Exports every catalog line the shard takes into `--out DIR/<name>/`, `<name>` being the
    /// media file's name without its extension, with the options given; prints (and writes to
    /// `--results`) one JSON line per export and a summary line.
    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "give FILE or --catalog, not both") }
        guard let directory = arguments.value("--out") else { throw UsageError(message: "missing --out DIR") }
        try ManifestCommand.checkResultsPath(arguments)
        if !arguments.values("--merge-into").isEmpty {
            throw UsageError(message: "--merge-into names one manifest; a catalog's exports would each write its copy")
        }
        guard let taken = try ManifestCommand.catalogLines(arguments, for: .thumbnails) else {
            throw UsageError(message: "missing --catalog")
        }
        // Names come from the whole catalog, so every shard agrees on them and none is written twice.
        let names = try exportNames(taken.catalog)
        if let problem = ThumbnailsCommand.outputFolderProblem(directory) {
            throw UsageError(message: "\(directory): cannot write the output folder (\(problem))")
        }
        let passed = arguments.optionWords(removing: ownOptions)
        let json = arguments.has("--json")
        var summary = CatalogRunSummary(.thumbnails, shard: taken.shard, catalogLines: taken.total)
        var lines: [String] = []
        for line in taken.lines {
            guard let name = names[line.number] else { throw UsageError(message: "catalog line \(line.number + 1) has no export name") }
            let folder = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            // An export folder that is a symbolic link (or not a folder) would send the pictures,
            // and the clean-up of an earlier set, somewhere else.
            var status = stat()
            let blocked = lstat(folder, &status) == 0 && status.st_mode & S_IFMT != S_IFDIR
            let run =
                blocked
                ? CatalogLineRun(failing: "frameseek thumbnails: \(folder): exists and is not a folder (a symbolic link is not followed)")
                : CatalogLineRun("thumbnails", media: line.media ?? "", words: ["--out", folder, "--json"] + passed)
            var fields: [(String, JSONValue)] = [
                ("line", .integer(Int64(line.number + 1))), ("media", .string(line.givenMedia)), ("name", .string(name))
            ]
            summary.taken += 1
            if run.code == .success, let last = run.output.last,
                let export = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any],
                let tiles = export["thumbnails"] as? [Any]
            {
                summary.done += 1
                summary.items += tiles.count
                fields = [("type", .string("exported"))] + fields + [("out", .string(folder)), ("thumbnails", .integer(Int64(tiles.count)))]
                if !json { output.escapedLine("\(name): \(tiles.count) thumbnails in \(folder)") }
            } else {
                summary.errors += 1
                let message = run.error ?? "the export printed no result"
                fields = [("type", .string("error"))] + fields + [("error", .string(message))]
                if !json { errors.escapedLine("\(name): \(message)") }
            }
            let jsonLine = JSONValue.object(fields).serialized
            lines.append(jsonLine)
            if json { output.line(jsonLine) }
        }
        return try summary.finish(lines, arguments, output: output)
    }

    /// `thumbnails merge RESULTS...`: the shards' summaries added up.
    static func merge(_ paths: [String], _ arguments: Arguments, output: TextOutput) throws(UsageError) -> CommandLineTool.ExitCode {
        let summary = try CatalogRunSummary.merge(paths, .thumbnails).summary
        output.line(arguments.has("--json") ? summary.json.serialized : summary.text)
        return summary.exitCode
    }

    /// Each catalog line's folder name: its media file's name without the extension.
    ///
    /// - Throws: `UsageError` naming both lines when two give the same name, or a line whose
    ///   name cannot be a folder.
    static func exportNames(_ catalog: ManifestCatalog) throws(UsageError) -> [Int: String] {
        var names: [Int: String] = [:]
        var taken: [String: Int] = [:]
        for line in catalog.lines {
            guard let media = line.media else {
                throw UsageError(message: "\(catalog.path):\(line.number + 1): a thumbnails catalog line names a media file")
            }
            let file = URL(fileURLWithPath: media).lastPathComponent
            let name = (file as NSString).deletingPathExtension
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/"),
                !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw UsageError(message: "\(catalog.path):\(line.number + 1): \"\(file)\" gives no folder name for its export")
            }
            // Case folded: two names that differ only in case are one folder on some file systems.
            if let other = taken[name.lowercased()] {
                throw UsageError(
                    message: "\(catalog.path):\(line.number + 1): its export would be \(name)/, as line \(other + 1)'s is: rename one file")
            }
            taken[name.lowercased()] = line.number
            names[line.number] = name
        }
        return names
    }
}
