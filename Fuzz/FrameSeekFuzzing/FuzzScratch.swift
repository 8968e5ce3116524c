import Foundation
import FrameSeekCore

/// Where the fuzz sequences write the files they open: a folder of this process's own, so two
/// fuzzers (or a fuzzer and the tests) never read each other's inputs, and the repository's
/// media the sequences need.
package enum FuzzScratch {
    /// The repository's root, found from this file's place in it: the fuzz executables and the
    /// tests both run from a build of this source tree.
    package static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Fuzz/media/NAME`: small real media the sequences open beside their input.
    package static func media(_ name: String) -> String {
        repository.appendingPathComponent("Fuzz/media").appendingPathComponent(name).path
    }

    /// A folder for one sequence (`name`) in this process, created on first use and removed
    /// when the process exits (a fuzzer runs tens of thousands of inputs, in many processes
    /// with `-fork`; a crash leaves its folder, with the input that crashed).
    package static func folder(_ name: String) -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("frameseek-fuzz-\(name)-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let first = createdFolders.withLock { folders in
            defer { folders.append(path) }
            return folders.isEmpty
        }
        if first { atexit { FuzzScratch.removeFolders() } }
        return path
    }

    private static let createdFolders = Locked<[String]>([])

    private static func removeFolders() {
        for path in createdFolders.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Runs one input at a time through a sequence whose files are fixed (its input's path, a
    /// cache entry's): the fuzzer runs one input at a time anyway, but the tests replay many at
    /// once, and two inputs in one file would each be run on the other's bytes.
    package static func oneAtATime<Result>(_ body: () -> Result) -> Result {
        inputFiles.withLock { _ in body() }
    }

    private static let inputFiles = Locked(())

    /// Writes `bytes` to `path` whole, replacing what was there.
    package static func write(_ bytes: [UInt8], to path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    /// Runs `body` on the contents and the name of each file named in `arguments`, printing
    /// what it returns: what every fuzz executable does when built without the fuzzer, as
    /// libFuzzer does when given files. For a crash file under a debugger.
    package static func replay(_ arguments: [String], _ body: ([UInt8], String) -> String) {
        for path in arguments {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                continue
            }
            print("\(path): \(body(Array(data), (path as NSString).lastPathComponent))")
        }
    }
}
