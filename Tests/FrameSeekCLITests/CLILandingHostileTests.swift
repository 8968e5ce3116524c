// Manifests and catalogs from a pull request are hostile: a manifest naming /dev/zero, one
// climbing out of the root with `..`, one with an absolute path outside it, a symbolic link out,
// a FIFO, and a catalog pointing outside are each refused within seconds, with exit 2 and one
// line naming the manifest (or catalog line), the field and the cause; no diff picture of the
// outside file is written and no file outside the root is replaced. Each refused run is a
// process of its own, in the root folder (the default root), killed at a generous bound so a
// hang fails the test instead of blocking the suite. The truth that the refusals matter: the
// same manifests run with --allow-outside-root do read the outside video and draw it.

#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

/// How long a refusal may take: it reads no media, so seconds, with room for a loaded machine
/// (a hang is what this bound tells apart).
let refusalBound: Duration = .seconds(20)

/// How long a run that decodes (a record or check the tests need) may take before it counts as
/// a hang: a bound for a loaded, sanitized build, not a speed requirement.
let workBound: Duration = .seconds(600)

/// What a bounded run of the `frameseek` executable did, as these tests read it.
struct LandingRun {
    /// The exit status, nil when the run was killed at the bound (or died on a signal).
    let status: Int32?
    let stdout: [String]
    let stderr: [String]
    let took: Duration
}

/// Runs the built `frameseek` with `arguments` in `folder`, killed with SIGKILL when it has
/// not ended within `bound` (`runBounded`).
func boundedFrameseek(_ arguments: [String], in folder: URL, bound: Duration = .seconds(60)) throws -> LandingRun {
    let run = try runBounded([Repository.builtExecutable("frameseek")] + arguments, in: folder.path, bound: bound)
    return LandingRun(
        status: run.timedOut ? nil : run.exitStatus, stdout: run.stdout.split(separator: "\n").map(String.init),
        stderr: run.errorLines, took: run.took)
}

/// A root folder holding a recorded manifest and its media, beside an `outside` folder holding
/// another video the manifests must never reach. Removed when the value goes away.
final class HostileLandingFolders {
    let base: URL
    /// The folder the runs start in: the default root.
    let root: URL
    /// A folder beside the root, holding `outside.mp4`.
    let outside: URL
    /// `root/landings/clip.landing.json`, recorded for `root/media/clip.mp4`.
    let manifest: String
    /// `root/diffs`, where the checks are told to draw.
    let diffs: URL

    init() throws {
        base = try temporaryDirectory("landing-hostile")
        root = base.appendingPathComponent("root")
        outside = base.appendingPathComponent("outside")
        diffs = root.appendingPathComponent("diffs")
        for folder in ["media", "landings"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let clip = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let other = try #require(FixtureCatalog.fixture("vp9_altref.s0"))
        try FileManager.default.copyItem(atPath: clip.path, toPath: root.appendingPathComponent("media/clip.mp4").path)
        try FileManager.default.copyItem(atPath: other.path, toPath: outside.appendingPathComponent("outside.mp4").path)
        manifest = root.appendingPathComponent("landings/clip.landing.json").path
        let recorded = try boundedFrameseek(
            ["landing", "record", "media/clip.mp4", "-n", "3", "-o", "landings/clip.landing.json"], in: root, bound: workBound)
        try #require(recorded.status == 0, "\(recorded.stderr)")
    }

    deinit { try? FileManager.default.removeItem(at: base) }

    /// A copy of the recorded manifest, at `root/landings/NAME.landing.json`, whose
    /// `media.path` is `mediaPath`.
    func manifest(named name: String, mediaPath: String) throws -> String {
        let path = root.appendingPathComponent("landings/\(name).landing.json").path
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        var media = try #require(object["media"] as? [String: Any])
        media["path"] = mediaPath
        object["media"] = media
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The files in the diff folder (none when it does not exist).
    var diffPictures: [String] { (try? FileManager.default.contentsOfDirectory(atPath: diffs.path)) ?? [] }
}

/// The ways a manifest's `media.path` can reach what it was not given.
enum HostileMediaPath: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case deviceZero, climbingOut, absoluteOutside, symlinkOut, fifo

    var testDescription: String { rawValue }

    /// Makes what the path names, and returns the path as the manifest gives it (the manifest
    /// is in `root/landings`).
    func prepare(in folders: HostileLandingFolders) throws -> String {
        let outsideVideo = folders.outside.appendingPathComponent("outside.mp4").path
        switch self {
        case .deviceZero: return "/dev/zero"
        case .climbingOut: return "../../outside/outside.mp4"
        case .absoluteOutside: return outsideVideo
        case .symlinkOut:
            try FileManager.default.createSymbolicLink(
                atPath: folders.root.appendingPathComponent("media/link.mp4").path, withDestinationPath: outsideVideo)
            return "../media/link.mp4"
        case .fifo:
            try #require(mkfifo(folders.root.appendingPathComponent("media/pipe.mp4").path, 0o644) == 0)
            return "../media/pipe.mp4"
        }
    }

    /// What the refusal says.
    var cause: String {
        switch self {
        case .deviceZero, .climbingOut, .absoluteOutside, .symlinkOut: return "outside the root"
        case .fifo: return "is a FIFO, not a regular file"
        }
    }
}

@Suite("CLI: hostile landing manifests and catalogs", .ffmpegLog)
struct CLILandingHostileTests {
    @Test(
        "A manifest whose media.path reaches outside the root or a non-file is refused within seconds, drawing nothing",
        arguments: HostileMediaPath.allCases)
    func hostileMediaPath(_ kind: HostileMediaPath) throws {
        let folders = try HostileLandingFolders()
        _ = try folders.manifest(named: "hostile", mediaPath: try kind.prepare(in: folders))
        let run = try boundedFrameseek(
            ["landing", "check", "landings/hostile.landing.json", "--allow-changed-media", "--diff-dir", "diffs"], in: folders.root)
        #expect(run.status == 2, "\(kind): exit \(run.status.map(String.init) ?? "none: killed at the bound")")
        #expect(run.took < refusalBound, "\(kind): took \(run.took)")
        #expect(run.stderr.count == 1, "\(run.stderr)")
        let line = run.stderr.first ?? ""
        #expect(line.contains("landings/hostile.landing.json: media.path") && line.contains(kind.cause), "\(line)")
        #expect(folders.diffPictures.isEmpty, "\(folders.diffPictures)")
    }

    @Test("With --allow-outside-root the outside video is read and drawn: the refusals above are what keep it out")
    func allowOutsideRootReadsIt() throws {
        let folders = try HostileLandingFolders()
        _ = try folders.manifest(named: "hostile", mediaPath: try HostileMediaPath.climbingOut.prepare(in: folders))
        let run = try boundedFrameseek(
            ["landing", "check", "landings/hostile.landing.json", "--allow-changed-media", "--diff-dir", "diffs", "--allow-outside-root"],
            in: folders.root, bound: workBound)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!folders.diffPictures.isEmpty)
    }

    @Test("/dev/zero is refused as a device even with --allow-outside-root, within seconds")
    func deviceRefusedAnywhere() throws {
        let folders = try HostileLandingFolders()
        _ = try folders.manifest(named: "zero", mediaPath: "/dev/zero")
        let run = try boundedFrameseek(["landing", "check", "landings/zero.landing.json", "--allow-outside-root"], in: folders.root)
        #expect(run.status == 2 && run.took < refusalBound, "\(run.took) \(run.stderr)")
        #expect(run.stderr.count == 1 && run.stderr[0].contains("media.path \"/dev/zero\" is a character device"), "\(run.stderr)")
    }

    @Test("A manifest that is a FIFO, or a symbolic link to /dev/zero, is refused before it is read")
    func manifestNotRegular() throws {
        let folders = try HostileLandingFolders()
        try #require(mkfifo(folders.root.appendingPathComponent("landings/fifo.landing.json").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: folders.root.appendingPathComponent("landings/zero.landing.json").path, withDestinationPath: "/dev/zero")
        for (name, kind) in [("fifo", "is a FIFO"), ("zero", "is a character device")] {
            let run = try boundedFrameseek(["landing", "check", "landings/\(name).landing.json"], in: folders.root)
            #expect(run.status == 2 && run.took < refusalBound, "\(name): \(run.took)")
            #expect(run.stderr.count == 1 && run.stderr[0].contains("landings/\(name).landing.json: \(kind)"), "\(run.stderr)")
        }
    }

    @Test("The recorded manifest still checks with the default root, and with --root naming its folder from elsewhere")
    func normalCheckPasses() throws {
        let folders = try HostileLandingFolders()
        let inRoot = try boundedFrameseek(["landing", "check", "landings/clip.landing.json"], in: folders.root, bound: workBound)
        #expect(inRoot.status == 0, "\(inRoot.stderr)")
        let fromOutside = try boundedFrameseek(
            ["landing", "check", folders.manifest, "--root", folders.root.path], in: folders.outside, bound: workBound)
        #expect(fromOutside.status == 0, "\(fromOutside.stderr)")
        let outsideRoot = try boundedFrameseek(["landing", "check", folders.manifest], in: folders.outside)
        #expect(outsideRoot.status == 2 && outsideRoot.stderr.count == 1, "\(outsideRoot.stderr)")
    }

    @Test("A catalog line whose manifest is outside the root is refused, naming the line and the field")
    func catalogManifestOutside() throws {
        let folders = try HostileLandingFolders()
        // A genuine manifest outside, for the outside video beside it.
        let recorded = try boundedFrameseek(
            ["landing", "record", "outside.mp4", "-n", "2", "-o", "outside.landing.json"], in: folders.outside, bound: workBound)
        try #require(recorded.status == 0, "\(recorded.stderr)")
        try (#"{"manifest": "landings/clip.landing.json"}"# + "\n" + #"{"manifest": "../outside/outside.landing.json"}"#)
            .write(to: folders.root.appendingPathComponent("catalog.jsonl"), atomically: true, encoding: .utf8)
        let run = try boundedFrameseek(
            ["landing", "check", "--catalog", "catalog.jsonl", "--allow-changed-media", "--diff-dir", "diffs"], in: folders.root)
        #expect(run.status == 2 && run.took < refusalBound, "\(run.took)")
        #expect(run.stderr.count == 1, "\(run.stderr)")
        #expect(
            run.stderr.first?.contains("catalog.jsonl:2: manifest \"../outside/outside.landing.json\" resolves to") == true, "\(run.stderr)"
        )
        #expect(folders.diffPictures.isEmpty)
    }

    @Test("record --catalog never writes outside the root: not through a path, not through a symbolic link")
    func recordCatalogWritesInsideOnly() throws {
        let folders = try HostileLandingFolders()
        let victim = folders.outside.appendingPathComponent("victim.json")
        try "precious\n".write(to: victim, atomically: true, encoding: .utf8)
        let link = folders.root.appendingPathComponent("landings/link.landing.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: victim.path)
        for line in [
            #"{"media": "media/clip.mp4", "manifest": "../outside/victim.json"}"#,
            #"{"media": "media/clip.mp4", "manifest": "landings/link.landing.json"}"#,
            #"{"media": "../outside/outside.mp4", "manifest": "landings/new.landing.json"}"#
        ] {
            try line.write(to: folders.root.appendingPathComponent("catalog.jsonl"), atomically: true, encoding: .utf8)
            let run = try boundedFrameseek(["landing", "record", "--catalog", "catalog.jsonl", "-n", "2"], in: folders.root)
            #expect(run.status == 2 && run.took < refusalBound, "\(line): \(run.took)")
            #expect(
                run.stderr.count == 1 && run.stderr[0].contains("catalog.jsonl:1: ") && run.stderr[0].contains("outside the root"),
                "\(run.stderr)")
        }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == victim.path)
        #expect(!FileManager.default.fileExists(atPath: folders.root.appendingPathComponent("landings/new.landing.json").path))
    }

    @Test("A catalog inside the root records, checks and merges as before")
    func catalogInsideRoot() throws {
        let folders = try HostileLandingFolders()
        try #"{"media": "media/clip.mp4", "manifest": "landings/cat.landing.json"}"#
            .write(to: folders.root.appendingPathComponent("catalog.jsonl"), atomically: true, encoding: .utf8)
        let recorded = try boundedFrameseek(
            ["landing", "record", "--catalog", "catalog.jsonl", "-n", "3"], in: folders.root, bound: workBound)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let checked = try boundedFrameseek(
            ["landing", "check", "--catalog", "catalog.jsonl", "--results", "results.jsonl"], in: folders.root, bound: workBound)
        #expect(checked.status == 0, "\(checked.stderr)")
        let merged = try boundedFrameseek(["landing", "merge", "results.jsonl"], in: folders.root)
        #expect(merged.status == 0, "\(merged.stderr)")
    }
}
