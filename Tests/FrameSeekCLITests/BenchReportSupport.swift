// Reading the bench report back: its charts, their tick labels, points and bars, found by
// the class names the report gives them, so the tests check what a reader sees.

import Foundation

/// One bench report's HTML, taken apart for checks.
struct ReportPage {
    let html: String

    init(path: String) throws { html = try String(contentsOfFile: path, encoding: .utf8) }

    /// The inline SVG charts of one kind (`histogram`, `scatter`, `peers`), in page order.
    func charts(_ kind: String) -> [String] {
        html.components(separatedBy: "<svg ").dropFirst().filter {
            $0.hasPrefix("xmlns=\"http://www.w3.org/2000/svg\" class=\"chart \(kind)\"")
        }
        .map { String($0[..<($0.range(of: "</svg>")?.lowerBound ?? $0.endIndex)]) }
    }

    /// The workload sections, by workload name.
    func section(_ workload: String) -> String? {
        guard let start = html.range(of: "<section class=\"workload\"><h2>\(workload):") else { return nil }
        let rest = html[start.lowerBound...]
        return String(rest[..<(rest.range(of: "</section>")?.upperBound ?? rest.endIndex)])
    }
}

/// The first capture group of every match of `pattern` in `text`.
func captures(_ pattern: String, in text: String) -> [String] {
    let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
        Range(match.range(at: 1), in: text).map { String(text[$0]) }
    }
}

/// The x or y tick labels of a chart, as numbers.
func tickValues(_ chart: String, axis: String) -> [Double] {
    captures("class=\"tick \(axis)\">([^<]*)</text>", in: chart).compactMap(Double.init)
}

/// Writes `object` as a JSON file in `directory` and returns its path.
func writeJSON(_ object: Any, named name: String, in directory: URL) throws -> String {
    let path = directory.appendingPathComponent(name).path
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
    return path
}

/// A small compare_peers.py --json result: three workloads, FrameSeek and three peers, one
/// peer not installed, one landing wrong, one peer missing from one workload.
var samplePeers: [String: Any] {
    [
        "file": "clip.mp4", "n": 20, "seed": 7, "threads": 1, "peers": ["frameseek", "torchcodec", "pyav", "decord"],
        "workloads": [
            "random": [
                "frameseek": ["median_s": 0.241, "p95_s": 0.52, "n": 20, "wrong_landings": 0, "errors": [String]()],
                "torchcodec": ["median_s": 0.402, "p95_s": 0.7, "n": 20, "wrong_landings": 0, "errors": [String]()],
                "pyav": ["median_s": 0.430, "p95_s": 0.8, "n": 20, "wrong_landings": 8, "errors": [String]()],
                "decord": [
                    "median_s": NSNull(), "p95_s": NSNull(), "n": NSNull(), "wrong_landings": NSNull(),
                    "errors": ["ModuleNotFoundError('decord')"]
                ]
            ] as [String: Any],
            "scrub": [
                "frameseek": ["median_s": 0.0022, "p95_s": 0.004, "n": 20, "wrong_landings": 0, "errors": [String]()],
                "torchcodec": ["median_s": 0.181, "p95_s": 0.3, "n": 20, "wrong_landings": 0, "errors": [String]()]
            ] as [String: Any],
            "backstep": [
                "frameseek": ["median_s": 0.0022, "p95_s": 0.003, "n": 19, "wrong_landings": 0, "errors": [String]()],
                "torchcodec": ["median_s": 0.542, "p95_s": 0.9, "n": 20, "wrong_landings": 0, "errors": [String]()],
                "pyav": ["median_s": 0.535, "p95_s": 0.85, "n": 20, "wrong_landings": 0, "errors": [String]()]
            ] as [String: Any]
        ] as [String: Any]
    ]
}
