// frameseek-store-writer STORE forever KEY
//   Saves KEY at n/30000 s for n = 1, 2, … and prints "saved n" after each save has returned
//   (is committed), until killed: ProgressStoreProcessTests kills it with SIGKILL and reopens.
// frameseek-store-writer STORE race ID COUNT
//   Opens STORE, prints "ready", waits for a line on stdin (so two writers start together),
//   then for n = 1...COUNT saves "writer-ID" and "shared" at n/1000 s with duration ID s and
//   prints "done": two of these at once test the busy timeout.
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

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: frameseek-store-writer STORE forever KEY | race ID COUNT") }
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
        fail("usage: frameseek-store-writer STORE forever KEY | race ID COUNT")
    }
} catch {
    fail("\(error)")
}
