import FrameSeek

/// What every media command does with its FILE and its engine options.
extension Subcommand {
    /// The single FILE positional every media command takes.
    static func singleFile(_ arguments: Arguments) throws(UsageError) -> String {
        guard let file = arguments.positionals.first else { throw UsageError(message: "missing FILE") }
        return file
    }

    /// Refuses an output path that cannot be written, before any decoding.
    static func checkOutputPath(_ path: String) throws(UsageError) {
        do { try OutputFile.checkWritable(path) } catch { throw UsageError(message: error.description) }
    }

    /// The engine options `--stream`, `--threads`, `--pool-mb` and `--tonemap` ask for (one
    /// decoder thread by default: see the Performance article's "Threads" for why).
    static func engineOptions(
        _ arguments: Arguments, cacheBytes: Int? = nil, indexing: FrameIndexing = .full
    ) throws(UsageError) -> FFmpegEngine.Options {
        let poolMegabytes = try arguments.integer("--pool-mb")
        var options = FFmpegEngine.Options(
            streamIndex: try arguments.integer("--stream"),
            threads: try arguments.integer("--threads") ?? 1,
            cacheBytes: cacheBytes ?? FFmpegEngine.Options.defaultCacheBytes,
            decoderPoolBytes: poolMegabytes.map { $0 * 1024 * 1024 } ?? FFmpegEngine.Options.defaultDecoderPoolBytes)
        options.indexing = indexing
        if let threads = try arguments.integer("--convert-threads") { options.conversionThreads = threads }
        if arguments.has("--no-decode-ahead") { options.decodesAhead = false }
        // Media over HTTP: how often a failed request is tried again, and how long one may take.
        if let retries = try arguments.integer("--retries") { options.network.retries = retries }
        if let timeout = try arguments.integer("--timeout") { options.network.timeout = .seconds(timeout) }
        if arguments.has("--insecure") { options.network.verifiesCertificates = false }
        if let megabytes = try arguments.integer("--playlist-limit-mb") {
            options.network.playlistLimitBytes = megabytes << 20
        }
        // The executable arms the deadline before the command runs (CommandDeadline); a bad
        // value is refused here, as any option's is.
        _ = try arguments.integer("--deadline")
        if let name = arguments.value("--tonemap") {
            guard let mapping = ToneMapping(parsing: name) else {
                throw UsageError(message: "--tonemap takes \(ToneMapping.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
            }
            options.toneMapping = mapping
        }
        if let name = arguments.value("--index") {
            guard let indexing = FrameIndexing(rawValue: name) else {
                throw UsageError(
                    message: "--index takes \(FrameIndexing.allCases.map(\.rawValue).joined(separator: " or ")), not '\(name)'")
            }
            options.indexing = indexing
        }
        // Every command keeps frame tables between runs, unless told not to.
        if !arguments.has("--no-index-cache") { options.indexCache = IndexCache(directory: IndexCache.defaultDirectory) }
        return options
    }

    /// Opens FILE with `--stream`, `--threads`, `--pool-mb` and `--no-index-cache`; an index
    /// cache entry that was not trusted, or not written, is a warning on `errors`.
    static func openEngine(
        _ file: String, _ arguments: Arguments, cacheBytes: Int? = nil, indexing: FrameIndexing = .full, errors: TextOutput? = nil
    ) throws -> FFmpegEngine {
        let engine = try FFmpegEngine(path: file, options: engineOptions(arguments, cacheBytes: cacheBytes, indexing: indexing))
        if let errors, let warning = indexCacheWarning(engine.indexCacheOutcome, file: file) {
            errors.escapedLine("frameseek \(name): warning: \(warning)")
        }
        return engine
    }

    /// The line to warn with for what the index cache did, nil when all went well.
    static func indexCacheWarning(_ outcome: IndexCache.Outcome?, file: String) -> String? {
        switch outcome {
        case .rejected(let path, let reason, let rewriteFailure):
            return "\(file): the index cache entry \(path) was not used: \(reason); the index was rebuilt"
                + (rewriteFailure.map { " but not saved: \($0)" } ?? "")
        case .notWritten(let reason):
            return "\(file): the index was not saved to the cache: \(reason)"
        case .read, .written, .notNeeded, nil:
            return nil
        }
    }
}
