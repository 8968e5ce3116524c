import FrameSeek

/// What a media command says about damage and truncation, the same way in every command.
///
/// Each JSON record gets `damaged` and `decode_errors`; text lines get a `DAMAGED (N decode
/// errors)` mark; after the results, one warning line per file goes to stderr. With
/// `--strict`, truncation (found when the file opens) and the first damaged result are an
/// error instead: exit 2, one line naming the file and the first damaged frame.
struct DamageReport {
    /// The command, for the warning line's prefix.
    let command: String
    /// The file the results come from.
    let file: String
    /// Whether damage is an error (`--strict`).
    let strict: Bool
    /// The media's truncation, reported once: found when the file opens, or by a seek that read
    /// to the end of the stream (`note(truncation:)`).
    private(set) var truncation: Truncation?
    /// The media's unreadable stretches, reported once.
    let missingData: [MissingData]
    /// Results marked damaged so far, and results in all.
    private(set) var damaged = 0
    private(set) var results = 0
    /// The first damaged result's frame and error count.
    private(set) var first: (frame: Int, errors: Int)?

    /// Starts the report for an opened file. Under `--strict` a truncated file fails here,
    /// before any result is printed.
    init(command: String, arguments: Arguments, media: MediaDescription) throws(DamageError) {
        self.command = command
        file = media.path
        strict = arguments.has("--strict")
        truncation = media.truncation
        missingData = media.missingData
        if strict, let truncation { throw DamageError(description: "\(file): \(truncation) (--strict)") }
        if strict, let gap = missingData.first { throw DamageError(description: "\(file): \(gap) (--strict)") }
    }

    /// The JSON fields every result carries; a seek whose target lay in missing media also
    /// gets `missing_data`, FFmpeg's words for what could not be read.
    static func fields(decodeErrors: Int, missingData: MissingData? = nil) -> JSONValue.KeyValuePairs {
        var fields: JSONValue.KeyValuePairs = [
            ("damaged", .bool(decodeErrors > 0 || missingData != nil)),
            ("decode_errors", .integer(Int64(decodeErrors)))
        ]
        if let missingData { fields.append(("missing_data", .string(missingData.description))) }
        return fields
    }

    /// The media's unreadable stretches as `probe` and `live` print them: after_frame, start,
    /// end (seconds) and evidence.
    static func json(_ missingData: [MissingData]) -> JSONValue {
        .array(
            missingData.map { gap in
                .object([
                    ("after_frame", .integer(Int64(gap.afterFrame))), ("start", gap.start.json),
                    ("end", gap.end.json), ("evidence", .string(gap.evidence))
                ])
            })
    }

    /// The text mark of a damaged result, empty for a clean one.
    static func mark(decodeErrors: Int, missingData: MissingData? = nil) -> String {
        var causes: [String] = []
        if decodeErrors > 0 { causes.append("\(decodeErrors) decode error\(decodeErrors == 1 ? "" : "s")") }
        if missingData != nil { causes.append("target in missing data") }
        return causes.isEmpty ? "" : "  DAMAGED (\(causes.joined(separator: ", ")))"
    }

    /// Takes the truncation a landing found, when the open could not tell (a seek window that
    /// read to the end of the stream). Under `--strict` it throws, before the result is printed.
    mutating func note(truncation found: Truncation?) throws(DamageError) {
        guard truncation == nil, let found else { return }
        truncation = found
        if strict { throw DamageError(description: "\(file): \(found) (--strict)") }
    }

    /// Counts one result. Under `--strict` the first damaged one throws, before it is printed.
    mutating func note(frame: Int?, decodeErrors: Int, missingData: MissingData? = nil) throws(DamageError) {
        results += 1
        guard decodeErrors > 0 || missingData != nil else { return }
        damaged += 1
        if first == nil, let frame { first = (frame, decodeErrors) }
        if strict, let missingData {
            throw DamageError(description: "\(file): damaged: the target lies in \(missingData) (--strict)")
        }
        if strict {
            let which = frame.map { "frame \($0)" } ?? "a frame"
            throw DamageError(
                description: "\(file): damaged: \(which) decoded with \(decodeErrors) error\(decodeErrors == 1 ? "" : "s") (--strict)")
        }
    }

    /// The one warning line for the file, when anything was damaged or it is truncated. Call
    /// it once the results are out; under `--strict` there is nothing to warn of, since damage
    /// already ended the command.
    func warn(_ errors: TextOutput) {
        guard !strict else { return }
        var facts: [String] = []
        if damaged > 0 {
            var fact = "\(damaged) of \(results) results damaged"
            if let first { fact += ", first frame \(first.frame) (\(first.errors) decode error\(first.errors == 1 ? "" : "s"))" }
            facts.append(fact + ": their pictures and MD5s may differ from a clean decode")
        }
        if let truncation { facts.append("\(truncation)") }
        facts += missingData.map(\.description)
        guard !facts.isEmpty else { return }
        errors.escapedLine("frameseek \(command): warning: \(file): " + facts.joined(separator: "; "))
    }
}

/// Damage or truncation under `--strict`: exit 2 with this one line.
struct DamageError: Error, CustomStringConvertible {
    /// `FILE: cause`.
    let description: String
}
