import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekManifest

/// The sequence the landing fuzz target runs on every input, the files a pull request can
/// bring into CI: the bytes as a landing manifest (decoded, then `frameseek landing check`ed
/// against a small real video beside it, by MD5 and by picture with a JUnit report), as a
/// catalog (`landing check --catalog`), and as a shard's results file (`landing merge`, alone
/// and beside a real shard's, with `--junit`).
///
/// Each command must end with exit 0, 1 or 2 and never a trap or a hang. `landing record` is
/// left out on purpose: it writes where a catalog says, and a fuzzer must not write outside
/// its own folder.
package enum ManifestExercise {
    /// The exit codes of the three commands for one input.
    package struct Summary: Sendable, CustomStringConvertible {
        /// Whether `Manifest.load` read the input as a manifest.
        package var manifestRead = false
        /// `landing check` of the input as a manifest.
        package var check: CommandLineTool.ExitCode
        /// The same with `--tolerance ssim:0.5 --junit`: its reference pictures read and scored.
        package var checkByPicture: CommandLineTool.ExitCode
        /// `landing check --catalog` of the input as a catalog.
        package var catalog: CommandLineTool.ExitCode
        /// `landing merge` of the input as the only shard's results, and beside a real shard.
        package var merge: CommandLineTool.ExitCode
        package var mergeWithReal: CommandLineTool.ExitCode

        /// Every code a landing command may exit with.
        package var allDocumented: Bool {
            [check, checkByPicture, catalog, merge, mergeWithReal].allSatisfy { [.success, .failedCheck, .usageOrInput].contains($0) }
        }

        package var description: String {
            "manifest read \(manifestRead), check \(check.rawValue), by picture \(checkByPicture.rawValue), catalog \(catalog.rawValue), "
                + "merge \(merge.rawValue), merge with a real shard \(mergeWithReal.rawValue)"
        }
    }

    /// The scratch folder, a small video in it with the manifest `landing record` made for it
    /// and the results file `landing check --results` made of that manifest, and the options
    /// every check takes.
    package struct Setup: Sendable {
        package let folder: String
        package let media: String
        package let manifest: String
        package let results: String
        let checkOptions: [String]
    }

    package static let setup: Setup? = {
        let folder = FuzzScratch.folder("landing")
        let media = folder + "/media.mp4", manifest = folder + "/recorded.landing.json"
        let results = folder + "/recorded.results.jsonl"
        try? FileManager.default.removeItem(atPath: media)
        guard (try? FileManager.default.copyItem(atPath: FuzzScratch.media("tiny-h264.mp4"), toPath: media)) != nil,
            command([
                "landing", "record", media, "-n", "4", "--precision", "exact", "--precision", "previous-keyframe", "--pictures",
                "-o", manifest
            ]) == .success
        else { return nil }
        // Media paths must stay inside a root, by default the folder the command runs in; the
        // scratch folder is the root where `--root` exists.
        let root = ["--root", folder]
        let rootOptions = command(["landing", "check", manifest, "--jobs", "1"] + root) == .success ? root : []
        guard command(["landing", "check", manifest, "--jobs", "1", "--results", results] + rootOptions) == .success else { return nil }
        let checkOptions = ["--jobs", "1", "--allow-changed-media", "--diff-dir", folder + "/diffs"] + rootOptions
        return Setup(folder: folder, media: media, manifest: manifest, results: results, checkOptions: checkOptions)
    }()

    @discardableResult
    package static func run(_ bytes: [UInt8]) -> Summary {
        FuzzScratch.oneAtATime { runAlone(bytes) }
    }

    private static func runAlone(_ bytes: [UInt8]) -> Summary {
        guard let setup else {
            return Summary(
                check: .usageOrInput, checkByPicture: .usageOrInput, catalog: .usageOrInput, merge: .usageOrInput,
                mergeWithReal: .usageOrInput)
        }
        let manifest = setup.folder + "/input.landing.json"
        FuzzScratch.write(bytes, to: manifest)
        let manifestRead = (try? Manifest.load(from: manifest)) != nil
        _ = try? JSONDecoder().decode(Manifest.self, from: Data(bytes))
        let check = command(
            ["landing", "check", manifest, "--json", "--results", setup.folder + "/input.results.jsonl"] + setup.checkOptions)
        let checkByPicture = command(
            ["landing", "check", manifest, "--tolerance", "ssim:0.5", "--junit", setup.folder + "/input.junit.xml"]
                + setup.checkOptions)

        let catalog = setup.folder + "/input.catalog.jsonl"
        FuzzScratch.write(bytes, to: catalog)
        let catalogCheck = command(["landing", "check", "--catalog", catalog] + setup.checkOptions)

        let results = setup.folder + "/input.results.jsonl"
        FuzzScratch.write(bytes, to: results)
        let merge = command(["landing", "merge", results])
        let mergeWithReal = command(
            ["landing", "merge", "--json", setup.results, results, "--junit", setup.folder + "/merged.junit.xml"])
        return Summary(
            manifestRead: manifestRead, check: check, checkByPicture: checkByPicture, catalog: catalogCheck, merge: merge,
            mergeWithReal: mergeWithReal)
    }

    private static func command(_ arguments: [String]) -> CommandLineTool.ExitCode {
        CommandLineTool.run(arguments, output: CapturedOutput(), errors: CapturedOutput())
    }
}
