import Foundation
import FrameSeekCLI
import FrameSeekCore

/// The sequence the parsing fuzz target runs on every input: the bytes as a time, as a
/// precision, and as a `--targets` file given to `frameseek seek`.
///
/// Parsing must end in a typed parse error or a value; the values parsed are then compared
/// and added, since they are what the rational arithmetic receives from users.
package enum ParsingExercise {
    /// A scratch folder of this process's own: the targets file, and a file that is not media
    /// for `frameseek seek` to fail on once the targets have parsed.
    private static let scratch: (targets: String, media: String) = {
        let folder = FuzzScratch.folder("parsing")
        let media = folder + "/not-media.mp4"
        _ = FileManager.default.createFile(atPath: media, contents: Data("this is not media\n".utf8))
        return (folder + "/targets.txt", media)
    }()

    /// What the parsers made of one input.
    package struct Summary: Sendable {
        /// The parsed time, nil when `MediaTime(parsing:)` threw.
        package var time: MediaTime?
        /// The parsed precision, nil when `SeekPrecision(parsing:)` threw.
        package var precision: SeekPrecision?
        /// `frameseek seek` with the input as its targets file.
        package var exitCode: CommandLineTool.ExitCode
    }

    @discardableResult
    package static func run(_ bytes: [UInt8]) -> Summary {
        let text = String(decoding: bytes, as: UTF8.self)
        let time = try? MediaTime(parsing: text)
        if let time { exercise(time) }
        let precision = try? SeekPrecision(parsing: text)
        if let precision {
            let window = precision.window
            exercise(window.before)
            exercise(window.after)
            _ = precision.description
        }
        // The raw bytes, not the decoded text: the targets file reader sees what is on disk.
        _ = FileManager.default.createFile(atPath: scratch.targets, contents: Data(bytes))
        let exitCode = CommandLineTool.run(
            ["seek", scratch.media, "--targets", scratch.targets],
            output: CapturedOutput(), errors: CapturedOutput())
        return Summary(time: time, precision: precision, exitCode: exitCode)
    }

    /// What the engine does with a user's time: compare it, offset it, derive seconds.
    private static func exercise(_ time: MediaTime) {
        let frame = MediaTime(value: 1001, timescale: 30000)
        _ = (time.seconds, time.description, time < .zero, time == frame, time > .positiveInfinity)
        _ = time + frame
        _ = time - frame
        _ = time + time
        _ = time - time
    }
}
