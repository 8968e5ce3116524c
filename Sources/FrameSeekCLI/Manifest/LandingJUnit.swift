import Foundation
import FrameSeek
import FrameSeekFFmpeg

/// The JUnit XML of a landing check (`--junit`): one testsuite per manifest, one testcase per
/// entry, as Jenkins, GitLab and GitHub's test reporters read it.
///
/// It is made from the check's JSON result lines and nothing else, so `landing merge` makes
/// from the shards' results files the very file one unsharded run writes: suites are ordered
/// by catalog line, and nothing in it depends on the machine or the clock (no times, no host
/// names).
///
/// - A moved entry is a `failure` whose message is its summary (what moved, the score and
///   the tolerance) and whose text adds the diff picture's path.
/// - An expected failure is `skipped`, its message saying so; an unexpected pass is a
///   `failure` of type `unexpected_pass`.
/// - A manifest that could not be checked is one testcase, `check`, with an `error`.
enum LandingJUnit {
    /// One testsuite: a manifest's entries, or the error that stopped its check.
    struct Suite {
        var position: Int
        var manifest: String
        var cases: [XMLText] = []
        var failures = 0, errors = 0, skipped = 0
    }

    /// The suites of `lines`, the JSON objects of a check's results (entry and error lines;
    /// others are ignored), by catalog line.
    ///
    /// - Throws: `UsageError` when an entry or error line has no `position` or `manifest`
    ///   (results of a FrameSeek from before `--junit`): its testcases would be lost.
    static func suites(of lines: [[String: Any]]) throws(UsageError) -> [Suite] {
        var suites: [Int: Suite] = [:]
        for line in lines {
            guard let type = line["type"] as? String, type == "entry" || type == "error" else { continue }
            guard let position = line["position"] as? Int, position >= 0, let manifest = line["manifest"] as? String else {
                throw UsageError(
                    message:
                        "a results line of type \(type) has no position or manifest (written before --junit existed?): cannot make JUnit of it"
                )
            }
            var suite = suites[position] ?? Suite(position: position, manifest: manifest)
            if type == "error" {
                suite.errors += 1
                let message = line["message"] as? String ?? "the check could not run"
                suite.cases.append(
                    XMLText(
                        "testcase", [.init("name", "check"), .init("classname", manifest)],
                        children: [XMLText("error", [.init("message", message), .init("type", "unreadable")])]))
            } else {
                suite.cases.append(testcase(line, manifest: manifest, suite: &suite))
            }
            suites[position] = suite
        }
        return suites.keys.sorted().compactMap { suites[$0] }
    }

    private static func testcase(_ line: [String: Any], manifest: String, suite: inout Suite) -> XMLText {
        let entry = line["entry"] as? Int ?? 0
        let name = "entry \(entry): \(line["seek"] as? String ?? "")"
        let summary = line["summary"] as? String ?? ""
        var children: [XMLText] = []
        switch line["status"] as? String {
        case "moved", "unexpected_pass":
            suite.failures += 1
            var text = summary
            if let diff = line["diff_png"] as? String { text += "\ndiff picture: \(diff)" }
            let type = line["status"] as? String == "moved" ? "moved" : "unexpected_pass"
            children.append(XMLText("failure", [.init("message", summary), .init("type", type)], text: text))
        case "expected_failure":
            suite.skipped += 1
            children.append(XMLText("skipped", [.init("message", "expected failure: \(summary)")]))
        default: break
        }
        return XMLText("testcase", [.init("name", name), .init("classname", manifest)], children: children)
    }

    /// The JUnit document of `suites`.
    static func document(_ suites: [Suite]) throws -> [UInt8] {
        func count(_ value: Int) -> String { String(value) }
        let elements = suites.map { suite in
            XMLText(
                "testsuite",
                [
                    .init("name", suite.manifest), .init("id", count(suite.position)), .init("tests", count(suite.cases.count)),
                    .init("failures", count(suite.failures)), .init("errors", count(suite.errors)),
                    .init("skipped", count(suite.skipped))
                ], children: suite.cases)
        }
        let total = { (field: KeyPath<Suite, Int>) in count(suites.reduce(0) { $0 + $1[keyPath: field] }) }
        let root = XMLText(
            "testsuites",
            [
                .init("name", "frameseek landing check"), .init("tests", count(suites.reduce(0) { $0 + $1.cases.count })),
                .init("failures", total(\.failures)), .init("errors", total(\.errors)), .init("skipped", total(\.skipped))
            ], children: elements)
        return try root.document()
    }

    /// Writes the JUnit of `lines` (JSON result lines, serialized) to `path`, atomically.
    static func write(lines: [String], to path: String) throws {
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try OutputFile.write(try document(try suites(of: objects)), to: path)
    }
}
