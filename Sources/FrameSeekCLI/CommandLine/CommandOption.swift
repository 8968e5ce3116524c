/// One option of a command, declared once: the parser accepts it, the reads validate it, and
/// `--help` and the Command line article list it, all from this declaration.
///
/// An option several commands take is one `static let` (see `CommandOption+Shared.swift`) that
/// each command's table names; a command that describes it differently declares its own.
struct CommandOption: Sendable, Hashable {
    /// What follows the option's name on the command line.
    enum Value: Sendable, Hashable {
        /// Nothing: the option is a flag.
        case none
        /// One word the command reads itself (a time, a path, a name), shown as `placeholder`.
        case text(placeholder: String)
        /// A whole number in `range`, checked when read; shown as `placeholder`.
        case wholeNumber(placeholder: String, range: ClosedRange<Int>)
    }

    /// The name as typed: `--stream`, or `-n`.
    let name: String
    let value: Value
    /// What the option does, in one paragraph: `rows` wraps it to the help column.
    let help: String
    /// The value the command reads when the option is not given (`Arguments.valueOrDefault`),
    /// shown after the help; nil when there is none, or when it is not one fixed value (one
    /// decoder per core) and the help says what it is.
    let defaultValue: String?
    /// Whether giving it twice adds a value rather than replacing the first (shown as `...`).
    let isRepeatable: Bool

    init(_ name: String, _ value: Value = .none, default defaultValue: String? = nil, repeatable: Bool = false, help: String) {
        self.name = name
        self.value = value
        self.defaultValue = defaultValue
        self.isRepeatable = repeatable
        self.help = help
    }

    /// Whether the option takes no value.
    var isFlag: Bool { value == .none }

    /// The name and its placeholder, as `--help` and the usage lines write them.
    var label: String {
        switch value {
        case .none: name
        case .text(let placeholder), .wholeNumber(let placeholder, _): "\(name) \(placeholder)" + (isRepeatable ? " ..." : "")
        }
    }

    /// The same option described for one command in its own words.
    func described(_ help: String) -> CommandOption {
        CommandOption(name, value, default: defaultValue, repeatable: isRepeatable, help: help)
    }
}

extension CommandOption {
    /// Where the help column starts: past the longest label that fits beside it.
    static let helpColumn = 24
    /// The widest line `rows` writes.
    static let lineWidth = 100

    /// `options` as `--help` lists them: each label, then its help from `helpColumn`, wrapped
    /// at `lineWidth`; a label too long to fit puts its help on the lines below.
    static func rows(_ options: [CommandOption]) -> String {
        let indent = String(repeating: " ", count: helpColumn)
        return options.map { option in
            let label = "  " + option.label
            let help = option.help + (option.defaultValue.map { " (default \($0))" } ?? "")
            let lines = wrapped(help, width: lineWidth - helpColumn)
            let first =
                label.count + 2 <= helpColumn ? label + String(repeating: " ", count: helpColumn - label.count) : label + "\n" + indent
            return first + lines.joined(separator: "\n" + indent) + "\n"
        }.joined()
    }

    /// `text`'s words in lines of at most `width` characters (a longer word alone on its line).
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: \.isWhitespace) {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        return lines + [line]
    }
}
