/// One line of text, whatever a file put into it.
///
/// Errors and warnings quote what files give: a manifest's target, a catalog's path, a peers
/// file's field. Each is one line on stderr (the contract), and CI runners read the lines of
/// both outputs, taking one that starts with `::` as a workflow command, so a quoted newline
/// would let a file give the runner commands.

extension String {
    /// The text with every character that can end a line or steer a terminal escaped: C0 and
    /// C1 controls (U+0085 among them), DEL, the line and paragraph separators U+2028 and
    /// U+2029, and Unicode's bidirectional controls (U+202E and its kin, which make a terminal
    /// or a CI log show the rest of the line in another order than it has), as `\n`, `\r`,
    /// `\t` or `\u{2028}`. Other text, backslashes included, is kept as it is, so escaping twice
    /// changes nothing.
    var escapedAsOneLine: String {
        guard unicodeScalars.contains(where: Self.mustBeEscaped) else { return self }
        var escaped = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": escaped.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": escaped.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": escaped.append(contentsOf: #"\t"#.unicodeScalars)
            case _ where Self.mustBeEscaped(scalar):
                escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    private static func mustBeEscaped(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isBidiControl { return true }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}

extension TextOutput {
    /// Writes `text` as exactly one line (`String.escapedAsOneLine`): how every error and
    /// warning is written, and every line that quotes a manifest, a catalog or a results file.
    func escapedLine(_ text: String) { line(text.escapedAsOneLine) }
}
