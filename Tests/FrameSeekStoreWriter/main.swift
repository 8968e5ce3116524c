// frameseek-store-writer STORE forever KEY
//   Saves KEY at n/30000 s for n = 1, 2, … and prints "saved n" after each save has returned
//   (is committed), until killed: ProgressStoreProcessTests kills it with SIGKILL and reopens.
// frameseek-store-writer STORE race ID COUNT
//   Opens STORE, prints "ready", waits for a line on stdin (so two writers start together),
//   then for n = 1...COUNT saves "writer-ID" and "shared" at n/1000 s with duration ID s and
//   prints "done": two of these at once test the busy timeout.
// frameseek-store-writer STORE acked KEY
//   As forever, but a save that fails prints "failed n: why" and the next one is tried: what
//   is printed as saved is exactly what the store acknowledged.
// frameseek-store-writer STORE corrupt SECONDS
//   Overwrites the database file at STORE with random bytes, again and again, through one
//   descriptor (so only that file, never a replacement), until the path names another file
//   (some process moved it aside), then prints "replaced"; "not replaced" after SECONDS.
//
// A process of its own because what is tested is SQLite's locking and durability between
// processes, which threads of one process sharing one store would never reach.

import Foundation
import FrameSeekCore
import FrameSeekResume

/// Prints `line` at once: the test reads it while this process is still running.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("frameseek-store-writer: \(message)\n".utf8))
    exit(1)
}

/// The inode of the file `path` names, nil when there is none.
func inode(atPath path: String) -> UInt64? {
    var status = stat()
    return stat(path, &status) == 0 ? UInt64(status.st_ino) : nil
}

/// The `corrupt` mode: what a disk, or another program, does to the file under the writers.
func corrupt(_ path: String, for seconds: Double) -> Never {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0, let original = inode(atPath: path) else { fail("cannot open \(path) to corrupt it") }
    let deadline = Date().addingTimeInterval(seconds)
    var generator = SystemRandomNumberGenerator()
    while Date() < deadline {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { fail("cannot examine \(path)") }
        let garbage = (0..<max(4096, Int(status.st_size))).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = garbage.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        if inode(atPath: path) != original {
            say("replaced")
            exit(0)
        }
        usleep(5_000)
    }
    say("not replaced")
    exit(1)
}

let usage = "usage: frameseek-store-writer STORE forever KEY | acked KEY | race ID COUNT | corrupt SECONDS"
let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail(usage) }
if arguments[2] == "corrupt" {
    guard arguments.count == 4, let seconds = Double(arguments[3]) else { fail(usage) }
    corrupt(arguments[1], for: seconds)
}
do {
    let store = try SQLiteProgressStore(path: arguments[1])
    switch (arguments[2], arguments.count) {
    case ("forever", 4):
        var count: Int64 = 0
        while true {
            count += 1
            try store.save(
                SavedProgress(
                    key: arguments[3], position: MediaTime(value: count, timescale: 30000),
                    duration: MediaTime(value: 3600, timescale: 1)))
            say("saved \(count)")
        }
    case ("acked", 4):
        var count: Int64 = 0
        while true {
            count += 1
            do {
                try store.save(
                    SavedProgress(
                        key: arguments[3], position: MediaTime(value: count, timescale: 30000),
                        duration: MediaTime(value: 3600, timescale: 1)))
                say("saved \(count)")
            } catch {
                say("failed \(count): \(error)")
            }
        }
    case ("race", 5):
        guard let id = Int64(arguments[3]), let count = Int64(arguments[4]) else { fail("race ID COUNT: numbers") }
        say("ready")
        _ = readLine()
        for n in 1...count {
            let position = MediaTime(value: n, timescale: 1000)
            let duration = MediaTime(value: id, timescale: 1)
            try store.save(SavedProgress(key: "writer-\(id)", position: position, duration: duration))
            try store.save(SavedProgress(key: "shared", position: position, duration: duration))
        }
        say("done")
    default:
        fail(usage)
    }
} catch {
    fail("\(error)")
}
