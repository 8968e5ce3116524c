/// Bad usage of the command line: exit code 2, with the message on stderr.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A subcommand's arguments, split into positionals, flags and options with values.
struct Arguments {
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// Parses `arguments` given the flags (no value) and options (one value) the command
    /// takes. Accepts `--name value` and `--name=value`; `--` ends options.
    init(_ arguments: [String], flags allowedFlags: Set<String>, options allowedOptions: Set<String>) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            // A single-dash word that names no option is a value, such as a negative time
            // (-5, -1001/30000) or a bad one (-inf) that the time parser will name.
            let isUnknownSingleDash = !word.hasPrefix("--") && !allowedFlags.contains(word) && !allowedOptions.contains(word)
            if optionsEnded || !word.hasPrefix("-") || word == "-" || isUnknownSingleDash {
                positionals.append(word)
                continue
            }
            if word == "--" { optionsEnded = true; continue }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            if allowedFlags.contains(name) && inlineValue == nil {
                flags.insert(name)
            } else if allowedOptions.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError(message: "\(name) needs a value") }
                    values[name, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                throw UsageError(message: "unknown option \(name)")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value given for `option`.
    func value(_ option: String) -> String? { values[option]?.last }

    /// Every value given for `option`, in order (an option that may be repeated).
    func values(_ option: String) -> [String] { values[option] ?? [] }

    /// The value of `option` as a whole number from `minimum` to `maximum`.
    func integer(_ option: String, minimum: Int, maximum: Int = 1_000_000_000) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text), number >= minimum, number <= maximum else {
            throw UsageError(message: "\(option) takes a whole number from \(minimum) to \(maximum), not \"\(text)\"")
        }
        return number
    }
}
