// ManifestRoot: a path a manifest or catalog names is resolved against the naming file's folder
// with its symbolic links, and passes only inside the root and as a regular file. The truth is
// the file system the test builds: which folder each path really is in, and what stat says
// each file is. ManifestCheck refuses a manifest whose media is outside its root before it
// opens anything, and checks the same manifest when the root holds the media.

#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

@Suite("Landing manifests: the root media paths must stay in", .ffmpegLog)
struct ManifestRootTests {
    /// `base/root/{landings,media/clip.bin}` and `base/outside/secret.bin`, resolved.
    private struct Tree {
        let base: String
        let root: String
        let landings: String
        let outsideFile: String

        init() throws {
            let made = try temporaryDirectory("landing-root")
            base = try #require(
                made.path.withCString { realpath($0, nil) }.map { pointer in
                    defer { free(pointer) }
                    return String(cString: pointer)
                })
            root = base + "/root"
            landings = root + "/landings"
            outsideFile = base + "/outside/secret.bin"
            for folder in [landings, root + "/media", base + "/outside"] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try Data("inside".utf8).write(to: URL(fileURLWithPath: root + "/media/clip.bin"))
            try Data("secret".utf8).write(to: URL(fileURLWithPath: outsideFile))
        }

        func check(_ given: String, root: String? = nil) throws(ManifestPathError) -> String {
            try ManifestRoot.checkedPath(given, relativeTo: landings, root: root ?? self.root, source: "m.json", field: "media.path")
        }
    }

    @Test("Paths inside the root pass, resolved; a missing file in an existing folder passes for its read to name")
    func insidePasses() throws {
        let tree = try Tree()
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        #expect(try tree.check("../media/clip.bin") == tree.root + "/media/clip.bin")
        #expect(try tree.check(tree.root + "/media/clip.bin") == tree.root + "/media/clip.bin")
        #expect(try tree.check("../landings/../media/./clip.bin") == tree.root + "/media/clip.bin")
        try FileManager.default.createSymbolicLink(atPath: tree.landings + "/in.bin", withDestinationPath: "../media/clip.bin")
        #expect(try tree.check("in.bin") == tree.root + "/media/clip.bin")
        #expect(try tree.check("missing.bin") == tree.landings + "/missing.bin")
    }

    @Test("Climbing out, an absolute path out and a symbolic link out are refused as outside the root")
    func outsideRefused() throws {
        let tree = try Tree()
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/media/out.bin", withDestinationPath: tree.outsideFile)
        // A folder named like the root with a suffix is not inside it.
        try FileManager.default.createDirectory(atPath: tree.root + "-sibling", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: tree.root + "-sibling/x.bin"))
        for given in ["../../outside/secret.bin", tree.outsideFile, "../media/out.bin", "../../root-sibling/x.bin", "/dev/zero"] {
            let error = #expect(throws: ManifestPathError.self, "\(given)") { try tree.check(given) }
            #expect(error?.reason == .outsideRoot, "\(given)")
            #expect(error?.description.hasPrefix("m.json: media.path \"\(given)\" resolves to ") == true, "\(error?.description ?? "")")
        }
        // Anywhere lifts the rule for a regular file.
        #expect(try tree.check("../../outside/secret.bin", root: "/") == tree.outsideFile)
        #expect(
            try ManifestRoot.checkedPath("../media/out.bin", relativeTo: tree.landings, root: nil, source: "m", field: "f")
                == tree.outsideFile)
    }

    @Test("Devices, FIFOs and folders are refused as not regular files, inside the root or anywhere")
    func notRegularRefused() throws {
        let tree = try Tree()
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        try #require(mkfifo(tree.root + "/media/pipe", 0o644) == 0)
        for (given, root, kind) in [
            ("../media/pipe", tree.root, "is a FIFO"), ("/dev/zero", "/", "is a character device"), ("../media", tree.root, "is a folder")
        ] {
            let error = #expect(throws: ManifestPathError.self, "\(given)") { try tree.check(given, root: root) }
            #expect(error?.reason == .notRegularFile && error?.cause.hasPrefix(kind) == true, "\(given): \(error?.description ?? "")")
        }
    }

    @Test("ManifestCheck refuses a manifest whose media is outside its root before opening it, and checks it once the root holds it")
    func checkRefusesOutsideMedia() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let directory = try temporaryDirectory("landing-root-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: clip)
        let inner = directory.appendingPathComponent("inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        let (_, path) = try recordFixture(fixture, in: inner, mediaPath: clip)
        let manifest = try Manifest.load(from: path)
        #expect(manifest.media.path == "../clip.mp4")

        var options = ManifestCheck.Options()
        options.root = .folder(inner.path)
        options.allowChangedMedia = true
        options.diffDirectory = directory.appendingPathComponent("diffs").path
        let error = #expect(throws: ManifestCheckError.self) { try ManifestCheck.run(manifest, manifestPath: path, options: options) }
        #expect(error?.reason == .mediaRefused)
        #expect(error?.description.hasPrefix("\(path): media.path \"../clip.mp4\" resolves to ") == true, "\(error?.description ?? "")")
        #expect(!FileManager.default.fileExists(atPath: options.diffDirectory!))

        options.root = .folder(directory.path)
        #expect(try ManifestCheck.run(manifest, manifestPath: path, options: options).passed)
        options.root = .anywhere
        #expect(try ManifestCheck.run(manifest, manifestPath: path, options: options).passed)
    }
}
