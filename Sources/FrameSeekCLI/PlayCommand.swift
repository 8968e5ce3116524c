import Dispatch
import Foundation
import FrameSeek

/// `frameseek play`: headless playback on the real clock, resuming where the last run left off.
enum PlayCommand: Subcommand {
    static let name = "play"
    static let summary = "play headless on the real clock, resuming where the last run stopped"
    static let usage = """
        frameseek play FILE|URL [--resume] [--store PATH] [--rate R] [--for SECONDS] [--key KEY]
                       [--retries N] [--timeout S] [--deadline S] [--json]
        """
    static let options: [CommandOption] = [resume, store, rate, playFor, key, .stream, .threads] + CommandOption.network
    static let discussion = """
        Plays FILE, or a URL (a file over HTTP, an HLS playlist, VOD or live), without a window:
        the clock advances media time at --rate (default 1, up to 16), frames are decoded as their
        time comes due, and a time update is printed every 0.1 s of media time. JSON lines: first
        {"event": "resumed", "time"} or {"event": "started", "time": 0}, then {"event": "time",
        "time"} per update, then {"event": "ended"} at the end or {"event": "stopped", "time"}
        after --for SECONDS of wall time, counted from the first frame shown (after the open and
        any resume landing). A live playlist is reloaded as RFC 8216 says; each reload that changed
        the window prints {"event": "live_window_changed", "start", "end"}, each that failed
        {"event": "live_window_reload_failed", "error"}, and playback goes on from what it has.
        """
    static let exitCodes = """
        Exit codes: 0 played, 2 bad usage, unreadable input or an unusable store.
        """

    static let resume = CommandOption(
        "--resume",
        help: """
            resume at the position saved for FILE, and save it while playing (at least
            once per second of playback, and on every seek, pause and close); a position
            under 3 s, or within 3 s of the end, is not resumed; reaching the end clears it
            """)
    static let store = CommandOption(
        "--store", .text(placeholder: "PATH"),
        help: """
            the SQLite store (default $XDG_DATA_HOME/frameseek/progress.sqlite, else
            ~/.local/share/frameseek/progress.sqlite)
            """)
    static let key = CommandOption(
        "--key", .text(placeholder: "KEY"),
        help: """
            the item's key in the store (default: the file's identity: real path, size
            and modification time)
            """)
    static let rate = CommandOption(
        "--rate", .text(placeholder: "R"), help: "the playback rate, above 0 and at most 16 (default 1)")
    static let playFor = CommandOption(
        "--for", .text(placeholder: "SECONDS"), help: "stop after this much wall time, counted from the first frame shown")

    static func run(_ arguments: Arguments, output: TextOutput, errors: TextOutput) throws -> CommandLineTool.ExitCode {
        let file = try singleFile(arguments)
        let rate = try rateOption(arguments)
        let limit = try arguments.value("--for").map { text throws(UsageError) -> Duration in
            guard let seconds = try? MediaTime(parsing: text), seconds > .zero, seconds.seconds <= 1_000_000 else {
                throw UsageError(message: "--for takes a number of seconds above 0, not \"\(text)\"")
            }
            return .nanoseconds(Int64(seconds.seconds * 1e9))
        }
        let json = arguments.has("--json")
        let store: SQLiteProgressStore?
        if arguments.has("--resume") {
            let path = arguments.value("--store") ?? SQLiteProgressStore.defaultPath
            do { store = try SQLiteProgressStore(path: path) } catch { throw UsageError(message: error.description) }
            if let warning = store?.recoveryWarning { errors.escapedLine("frameseek play: warning: \(warning)") }
        } else {
            store = nil
        }
        // A URL plays from the network (a file over HTTP, an HLS playlist, VOD or live); anything
        // else is a path.
        let remote = file.hasPrefix("http://") || file.hasPrefix("https://")
        guard let url = remote ? URL(string: file) : URL(fileURLWithPath: file) else {
            throw UsageError(message: "\(file): not a URL")
        }
        // The callbacks come on a queue of their own: this thread waits for the end below.
        let queue = DispatchQueue(label: "frameseek.play")
        // As a player opens media: Matroska, MPEG-TS and fragmented MP4 from their own index,
        // each landing and step reading its window, never the whole film before the first frame.
        let options = try engineOptions(arguments, indexing: .asNeeded)
        let player = Player(callbackQueue: queue, engineOptions: options)
        let keyProvider: @Sendable (URL) -> String
        if let key = arguments.value("--key") { keyProvider = { _ in key } } else { keyProvider = ResumeTracker.fileIdentityKey }
        var tracker: ResumeTracker?
        if let store { tracker = ResumeTracker(player: player, store: store, keyProvider: keyProvider) }
        let printer = PlayEventPrinter(output: output, json: json)
        player.seekDelegate = printer
        player.addSeekPrecisionListener(printer)

        let done = DispatchSemaphore(value: 0)
        printer.onEnd = { done.signal() }
        // Signalled once the first frame is shown (or the load failed): --for counts from here,
        // so a slow open or resume landing never eats the playback it asked for.
        let began = DispatchSemaphore(value: 0)
        let failure = Locked<(any Error)?>(nil)
        Task {
            do {
                try await player.load(url)
                let start = player.currentTime
                // On the callback queue, like every other event: a live reload's event may be
                // printing there already, and lines must neither overlap nor reorder.
                queue.async { printer.event(start > .zero ? "resumed" : "started", time: start) }
                try player.play(rate: rate)
            } catch {
                failure.withLock { $0 = error }
            }
            began.signal()
        }
        began.wait()
        if let error = failure.withLock({ $0 }) {
            if let media = error as? MediaError { throw media }
            throw UsageError(message: "\(file): \(error)")
        }
        let ended: Bool
        if let limit {
            let nanoseconds = Int(limit.components.seconds) * 1_000_000_000 + Int(limit.components.attoseconds / 1_000_000_000)
            ended = done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
        } else {
            done.wait()
            ended = true
        }
        if !ended {
            player.pause()
            // On the callback queue, after every time update already queued, so events keep
            // their order; the position is where playback stood, the resumed one at the least.
            queue.sync { printer.event("stopped", time: player.currentTime) }
        }
        let closed = DispatchSemaphore(value: 0)
        Task {
            await player.close()
            closed.signal()
        }
        closed.wait()
        if let error = tracker?.lastError { errors.escapedLine("frameseek play: warning: \(error)") }
        return .success
    }

    /// `--rate`, a finite number above 0 and at most `Player.maximumRate`.
    private static func rateOption(_ arguments: Arguments) throws(UsageError) -> Double {
        guard let text = arguments.value("--rate") else { return 1 }
        guard let rate = Double(text), rate.isFinite, rate > 0, rate <= Player.maximumRate else {
            throw UsageError(message: "--rate takes a number above 0 and at most \(Player.maximumRate), not \"\(text)\"")
        }
        return rate
    }
}

/// Prints the playback events as lines, flushed as they come, so a process killed mid-play
/// has printed every position it reached.
final class PlayEventPrinter: SeekDelegate, SeekPrecisionListener, @unchecked Sendable {
    // `@unchecked Sendable` because `output` is a class with no lock of its own and `onEnd` is
    // set once after creation. Safe because every call comes on the player's one serial
    // callback queue (the command queues its own events there too), and `onEnd` is set before
    // the player is loaded.
    private let output: TextOutput
    private let json: Bool
    var onEnd: @Sendable () -> Void = {}

    init(output: TextOutput, json: Bool) {
        self.output = output
        self.json = json
    }

    func event(_ name: String, time: MediaTime?) {
        if json {
            var fields: JSONValue.KeyValuePairs = [("event", .string(name))]
            if let time { fields.append(("time", time.json)) }
            output.line(JSONValue.object(fields).serialized)
        } else {
            output.line(time.map { "\(name) \($0.seconds.fixed(3)) s" } ?? name)
        }
    }

    /// One event line with `fields` after the event's name.
    private func event(_ name: String, _ fields: JSONValue.KeyValuePairs, text: String) {
        output.line(json ? JSONValue.object([("event", .string(name))] + fields).serialized : "\(name) \(text)")
    }

    func onLiveWindowChanged(_ window: LiveSeekWindow) {
        let range = window.seekableRange
        event(
            "live_window_changed", [("start", range.lowerBound.json), ("end", range.upperBound.json)],
            text: "\(range.lowerBound.seconds.fixed(3))-\(range.upperBound.seconds.fixed(3)) s")
    }

    func onLiveWindowReloadFailed(_ error: MediaError) {
        event("live_window_reload_failed", [("error", .string(error.description))], text: error.description)
    }

    func onSeekStart(_ target: MediaTime) {}
    func onSeekEnd(atMediaTime time: MediaTime) {}
    func onTimeUpdate(currentMediaTime currentTime: MediaTime, durationMediaTime duration: MediaTime) { event("time", time: currentTime) }
    func onPlaybackEnded() {
        event("ended", time: nil)
        onEnd()
    }
}
