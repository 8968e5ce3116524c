/// Bad usage of the command line: exit code 2, with the message on stderr.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A subcommand's arguments, split into positionals, flags and options with values, as its
/// option table declares them.
struct Arguments {
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]
    /// The options the command declares, by name: what the reads validate against.
    private let declared: [String: CommandOption]

    /// Parses `arguments` given the options the command declares. Accepts `--name value` and
    /// `--name=value`; `--` ends options.
    init(_ arguments: [String], options: [CommandOption]) throws(UsageError) {
        declared = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            // A single-dash word that names no option is a value, such as a negative time
            // (-5, -1001/30000) or a bad one (-inf) that the time parser will name.
            let isUnknownSingleDash = !word.hasPrefix("--") && declared[word] == nil
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
            guard let option = declared[name], !(option.isFlag && inlineValue != nil) else {
                throw UsageError(message: "unknown option \(name)")
            }
            if option.isFlag {
                flags.insert(name)
            } else if let inlineValue {
                values[name, default: []].append(inlineValue)
            } else {
                guard index < arguments.count else { throw UsageError(message: "\(name) needs a value") }
                values[name, default: []].append(arguments[index])
                index += 1
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value given for `option`.
    func value(_ option: String) -> String? { values[option]?.last }

    /// Every value given for `option`, in order (an option that may be repeated).
    func values(_ option: String) -> [String] { values[option] ?? [] }

    /// The options as words again, without `removing` and without the positionals: what a
    /// catalog run hands on to the run of each of its lines.
    func optionWords(removing: Set<String>) -> [String] {
        var words = flags.filter { !removing.contains($0) }.sorted()
        for (name, given) in values.sorted(by: { $0.key < $1.key }) where !removing.contains(name) {
            for value in given { words += [name, value] }
        }
        return words
    }

    /// The value of `option`, or its declared default when it is not given.
    func valueOrDefault(_ option: String) -> String {
        guard let text = value(option) ?? declared[option]?.defaultValue else {
            preconditionFailure("\(option) is read with its default, but declares none")
        }
        return text
    }

    /// The value of `option` as a whole number, or its declared default when it is not given.
    func integerOrDefault(_ option: String) throws(UsageError) -> Int {
        guard let number = try integer(option) else {
            guard let text = declared[option]?.defaultValue, let number = Int(text) else {
                preconditionFailure("\(option) is read with its default, but declares no whole number")
            }
            return number
        }
        return number
    }

    /// The value of `option` as a whole number in the range its declaration gives.
    func integer(_ option: String) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard case .wholeNumber(_, let range) = declared[option]?.value else {
            preconditionFailure("\(option) is read as a whole number but not declared as one")
        }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(message: "\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return number
    }
}
