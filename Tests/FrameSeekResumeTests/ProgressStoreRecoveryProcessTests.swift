import Foundation
import FrameSeekCore
import FrameSeekResume
import FrameSeekTestSupport
import Testing

/// Recovery between processes: two frameseek-store-writer processes save while a third
/// overwrites the database under them, until one of them finds it damaged and moves it aside.
/// Every save either writer was told succeeded must then be in the store the path names: the
/// writer that did not recover must notice the move and follow it, not go on saving into the
/// file moved aside.
@Suite("SQLiteProgressStore across processes: recovery while another process saves")
struct ProgressStoreRecoveryProcessTests {
    /// A writer whose output goes to a file, read whole whenever the test looks.
    final class LoggedWriter {
        let process = Process()
        let log: String

        init(_ arguments: [String], log: String) throws {
            self.log = log
            try #require(
                FileManager.default.isExecutableFile(atPath: ProgressStoreProcessTests.writer),
                "frameseek-store-writer not built at \(ProgressStoreProcessTests.writer)")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.executableURL = URL(fileURLWithPath: ProgressStoreProcessTests.writer)
            process.arguments = arguments
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            try process.run()
        }

        /// The lines printed so far (the last one may be cut short while the writer runs).
        var lines: [String] {
            String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
                .split(separator: "\n").map(String.init)
        }

        /// The highest save the writer printed as acknowledged, 0 before the first.
        var lastAcknowledged: Int64 {
            lines.compactMap { $0.hasPrefix("saved ") ? Int64($0.dropFirst("saved ".count)) : nil }.max() ?? 0
        }

        /// Stops the writer with SIGKILL, wherever it is.
        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Waits, polling, until `condition` holds or `seconds` pass; whether it held.
    static func wait(upTo seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    @Test(
        "Two writers save while a third process corrupts the file: no acknowledged save is lost from the store at the path",
        .timeLimit(.minutes(3)))
    func noAcknowledgedSaveLost() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("progress.sqlite")
        // The store exists before the writers and the corruptor open it.
        _ = try SQLiteProgressStore(path: path)
        let writers = try [1, 2].map { id in
            try LoggedWriter([path, "acked", "writer-\(id)"], log: directory.file("writer-\(id).log"))
        }
        defer { for writer in writers where writer.process.isRunning { writer.kill() } }
        #expect(Self.wait(upTo: 60) { writers.allSatisfy { $0.lastAcknowledged >= 200 } }, "the writers did not start saving")

        let corruptor = try LoggedWriter([path, "corrupt", "60"], log: directory.file("corruptor.log"))
        corruptor.process.waitUntilExit()
        #expect(corruptor.lines == ["replaced"], "the damage was never found and moved aside: \(corruptor.lines)")
        #expect(try directory.names().contains { $0.hasPrefix("progress.sqlite.corrupt-") })

        // Both go on saving after the recovery, the one that did not recover included.
        let afterRecovery = writers.map(\.lastAcknowledged)
        #expect(
            Self.wait(upTo: 60) { zip(writers, afterRecovery).allSatisfy { $0.lastAcknowledged >= $1 + 200 } },
            "a writer stopped saving after the recovery: \(writers.map { $0.lines.suffix(3) })")
        for writer in writers { writer.kill() }

        let store = try SQLiteProgressStore(path: path)
        #expect(store.recoveryWarning == nil, "the store at the path is damaged: \(store.recoveryWarning ?? "")")
        for (id, writer) in zip([1, 2], writers) {
            let acknowledged = writer.lastAcknowledged
            let saved = try #require(try store.load(key: "writer-\(id)"), "writer \(id)'s saves are not in the store at the path")
            // Killed between commit and print, the store is one save ahead of the output.
            #expect(
                saved.position.value == acknowledged || saved.position.value == acknowledged + 1,
                "writer \(id) was told save \(acknowledged) succeeded; the store at the path holds \(saved.position.value)")
        }
    }
}
