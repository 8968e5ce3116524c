import Foundation

/// Output paths numbered printf-style: `out-%03d.png`.
enum PathPattern {
    static func hasNumber(_ pattern: String) -> Bool { numberRange(in: pattern) != nil }

    /// Replaces the first `%d` or `%0Nd` with `number`.
    static func expand(_ pattern: String, number: Int) -> String {
        guard let (range, width) = numberRange(in: pattern) else { return pattern }
        let digits = String(number)
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return pattern.replacingCharacters(in: range, with: padded)
    }

    private static func numberRange(in pattern: String) -> (Range<String.Index>, Int)? {
        guard let regex = try? NSRegularExpression(pattern: "%(0?[0-9]*)d"),
            let match = regex.firstMatch(in: pattern, range: NSRange(pattern.startIndex..., in: pattern)),
            let range = Range(match.range, in: pattern),
            let widthRange = Range(match.range(at: 1), in: pattern)
        else { return nil }
        // A width is padding, not a request for gigabytes of zeros: 20 digits hold any Int.
        return (range, min(20, Int(pattern[widthRange]) ?? 0))
    }
}
