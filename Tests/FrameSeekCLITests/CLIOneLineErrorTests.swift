// Text a manifest, a catalog or a results file gives reaches the lines the command line
// prints: a target, a time, a precision, a path, an MD5. Whatever it holds (a newline, a
// carriage return, U+0085, U+2028), each error is one line, and no line a CI runner reads starts
// with `::`, which it would take for a workflow command. The truth is the raw bytes written,
// split at every character Swift (and a terminal or a runner) may end a line at.

import Foundation
@testable import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// `text` split at every line end a reader may see: \n, \r, U+0085, U+2028, U+2029.
private func physicalLines(_ text: String) -> [String] {
    text.split(whereSeparator: \.isNewline).map(String.init)
}

/// The lines of `text` a CI runner would take for a workflow command (leading blanks trimmed, as the runner does).
private func workflowCommands(_ text: String) -> [String] {
    physicalLines(text).filter { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("::") }
}

/// A folder with a clip and a manifest recorded for it, which each test edits a copy of.
private struct RecordedManifest {
    let folder: URL
    let manifest: String

    init(_ label: String) throws {
        folder = try temporaryDirectory(label)
        let clip = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        try FileManager.default.copyItem(atPath: clip.path, toPath: folder.appendingPathComponent("clip.mp4").path)
        manifest = folder.appendingPathComponent("clip.landing.json").path
        let recorded = frameseek(["landing", "record", folder.appendingPathComponent("clip.mp4").path, "-n", "2", "-o", manifest])
        try #require(recorded.code == .success, "\(recorded.stderr.text)")
    }

    /// A copy of the manifest named `name`, changed by `edit`.
    func copy(named name: String, _ edit: (inout [String: Any]) throws -> Void) throws -> String {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        try edit(&object)
        let path = folder.appendingPathComponent(name).path
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Sets `object[key][entry][field]`, or `object[key][field]` without an entry: the manifest edits below.
private func set(_ object: inout [String: Any], _ key: String, entry: Int? = nil, _ field: String, to value: Any) throws {
    if let entry {
        var entries = try #require(object[key] as? [[String: Any]])
        entries[entry][field] = value
        object[key] = entries
    } else {
        var inner = try #require(object[key] as? [String: Any])
        inner[field] = value
        object[key] = inner
    }
}

/// The manifest fields whose text reaches an error line, each given a line break and a workflow command.
enum HostileManifestField: String, CaseIterable, Sendable {
    case target, time, precision, mediaPath, ffmpegLibraryName

    func edit(_ object: inout [String: Any]) throws {
        let command = "::error title=x::anything"
        switch self {
        case .target: try set(&object, "entries", entry: 0, "target", to: "1\n" + command)
        case .time: try set(&object, "entries", entry: 1, "time", to: "1\r" + command)
        case .precision: try set(&object, "entries", entry: 0, "precision", to: "exact\u{2028}" + command)
        case .mediaPath: try set(&object, "media", "path", to: "gone\u{85}" + command + ".mp4")
        case .ffmpegLibraryName: try set(&object, "environment", "ffmpeg", to: ["libavcodec\n" + command: 5])
        }
    }
}

@Suite("CLI: one line per error, whatever a file holds", .ffmpegLog)
struct CLIOneLineErrorTests {
    @Test("control characters and line separators are escaped; other text, backslashes included, is kept")
    func escaping() {
        let hostile = "a\nb\rc\td\u{0}e\u{7F}f\u{85}g\u{9B}h\u{2028}i\u{2029}j\u{1B}[31m"
        #expect(hostile.escapedAsOneLine == #"a\nb\rc\td\u{0}e\u{7F}f\u{85}g\u{9B}h\u{2028}i\u{2029}j\u{1B}[31m"#)
        #expect(hostile.escapedAsOneLine.escapedAsOneLine == hostile.escapedAsOneLine, "escaping twice changes nothing")
        let plain = #"clip é 🎞️ C:\n "quoted" ::error"#
        #expect(plain.escapedAsOneLine == plain)
        #expect(physicalLines(hostile.escapedAsOneLine).count == 1)
    }

    @Test("the bidirectional controls of UAX #9 are escaped, so a log shows a line in its own order")
    func bidirectionalControls() throws {
        // UAX #9, Table 4 (explicit directional formatting characters) and the implicit marks
        // ALM, LRM and RLM: the Bidi_Control property's whole list.
        let controls: [UInt32] = [0x61C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        for value in controls {
            let scalar = try #require(Unicode.Scalar(value))
            let text = "clip" + String(Character(scalar)) + "4pm.mp4"
            #expect(text.escapedAsOneLine == "clip\\u{\(String(value, radix: 16, uppercase: true))}4pm.mp4")
        }
        // Other format characters keep their meaning: a zero-width joiner binds an emoji sequence.
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        #expect(family.escapedAsOneLine == family)
    }

    @Test(
        "a manifest field with a line break is one stderr line, exit 2, and no workflow command", arguments: HostileManifestField.allCases)
    func manifestField(_ field: HostileManifestField) throws {
        let recorded = try RecordedManifest("one-line-manifest")
        defer { try? FileManager.default.removeItem(at: recorded.folder) }
        let manifest = try recorded.copy(named: "hostile.json", field.edit)
        let run = frameseek(["landing", "check", manifest, "--root", recorded.folder.path])
        #expect(run.code == .usageOrInput, "\(field): \(run.stderr.text)")
        #expect(physicalLines(run.stderr.text).count == 1, "\(field): \(run.stderr.text)")
        #expect(run.stderr.text.contains("::error title=x::anything"), "\(field): the text is still named, escaped")
        #expect(workflowCommands(run.stdout.text + "\n" + run.stderr.text).isEmpty, "\(field)")
    }

    @Test("a picture path with a line break is one line, exit 2, and no workflow command")
    func picturePath() throws {
        let recorded = try RecordedManifest("one-line-picture")
        defer { try? FileManager.default.removeItem(at: recorded.folder) }
        let picture = ["path": "gone\n::error title=x::.png", "sha256": String(repeating: "0", count: 64)]
        let manifest = try recorded.copy(named: "hostile.json") { try set(&$0, "entries", entry: 0, "picture", to: picture) }
        let run = frameseek(["landing", "check", manifest, "--tolerance", "ssim:0.9", "--root", recorded.folder.path])
        #expect(run.code == .usageOrInput, "\(run.stderr.text)")
        #expect(physicalLines(run.stderr.text).count == 1, "\(run.stderr.text)")
        #expect(run.stderr.text.contains("gone\\n::error title=x::.png"), "the path is named, escaped: \(run.stderr.text)")
        #expect(workflowCommands(run.stdout.text + "\n" + run.stderr.text).isEmpty)
    }

    @Test("--update-all with a recorded MD5 holding a line break: the updated entry's line is one line")
    func updatedMD5() throws {
        let recorded = try RecordedManifest("one-line-md5")
        defer { try? FileManager.default.removeItem(at: recorded.folder) }
        let manifest = try recorded.copy(named: "hostile.json") {
            try set(&$0, "entries", entry: 0, "md5", to: "abc\n::error title=y::md5")
        }
        let run = frameseek(["landing", "check", manifest, "--update-all", "--root", recorded.folder.path])
        #expect(run.code == .failedCheck, "\(run.stderr.text)")
        #expect(workflowCommands(run.stdout.text + "\n" + run.stderr.text).isEmpty, "\(run.stdout.text)")
        #expect(run.stdout.text.contains(#"MD5 abc\n::error title=y::md5 -> "#), "\(run.stdout.text)")
    }

    @Test(
        "a catalog path with a line break is one line naming it, exit 2, and no workflow command",
        arguments: [
            ("landing check", #"{"manifest": "gone\n::error title=x::.json"}"#),
            ("landing record", #"{"media": "clip.mp4", "manifest": "/etc/gone\r::error title=x::.json"}"#),
            ("landing check", #""clip\u2028::error title=x::.mp4""#), ("landing record", #""clip\u0085::error title=x::.mp4""#),
            ("bench", #""clip\u2029::error title=x::.mp4""#)
        ])
    func catalogPath(_ command: String, _ line: String) throws {
        let folder = try temporaryDirectory("one-line-catalog")
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = folder.appendingPathComponent("catalog.jsonl").path
        try (line + "\n").write(toFile: catalog, atomically: true, encoding: .utf8)
        let run = frameseek(command.split(separator: " ").map(String.init) + ["--catalog", catalog, "--root", folder.path])
        #expect(run.code == .usageOrInput, "\(run.stderr.text)")
        #expect(physicalLines(run.stderr.text).count == 1, "\(run.stderr.text)")
        #expect(run.stderr.text.contains("::error title=x::"), "the path is named, escaped: \(run.stderr.text)")
        #expect(workflowCommands(run.stdout.text + "\n" + run.stderr.text).isEmpty)
    }

    @Test("under GITHUB_ACTIONS the only workflow command is FrameSeek's own annotation, with the field escaped")
    func annotationOnly() throws {
        let recorded = try RecordedManifest("one-line-annotation")
        defer { try? FileManager.default.removeItem(at: recorded.folder) }
        let manifest = try recorded.copy(named: "hostile.json", HostileManifestField.target.edit)
        let run = try runBounded(
            ["/usr/bin/env", "GITHUB_ACTIONS=true", Repository.builtExecutable("frameseek"), "landing", "check", manifest],
            in: recorded.folder.path, bound: .seconds(120))
        #expect(run.exitStatus == 2, "\(run.stderr)")
        #expect(run.errorLines.count == 1, "\(run.stderr)")
        let commands = workflowCommands(run.stdout + "\n" + run.stderr)
        #expect(commands.count == 1 && commands.first?.hasPrefix("::error file=") == true, "\(commands)")
    }
}
