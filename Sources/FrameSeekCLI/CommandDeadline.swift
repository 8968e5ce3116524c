import Dispatch
import FrameSeek
#if canImport(Glibc)
    import Glibc
#endif

/// The longest a command on a URL may run, in all: what bounds a command whose every read is
/// bounded but whose reads are many, or a read that some layer under FFmpeg does not time out
/// (a name lookup, a TLS handshake).
///
/// Each resource over the network is bounded by `--timeout` (every attempt and wait included,
/// `NetworkPolicy`), and each read by FFmpeg's `rw_timeout`. A command's deadline is derived
/// from the first: `multiple` resource timeouts (5 minutes at the defaults, room for a
/// playlist and a live window's segments each failing slowly), plus `play`'s `--for`.
/// `--deadline S` sets it (0: none). `play` without `--for` has none: it plays until the
/// media ends, and each of its network operations is bounded (`NetworkPolicy.timeout`). Media
/// files on disk have none; a playlist on disk has one, since its segments may be remote.
public struct CommandDeadline: Sendable, Equatable {
    /// Resource timeouts a command may take before its deadline.
    static let multiple = 10

    /// How long the command may run.
    public let seconds: Int
    /// The command's name, for the error line.
    public let command: String
    /// The URL the command reads, for the error line.
    public let url: String
    /// How the deadline was set, for the error line ("--deadline", or what it was derived from).
    public let origin: String

    /// The deadline of the command line `arguments` (without the program name), or nil when
    /// it has none: a media file on disk, a command that reads no media over the network, `--deadline
    /// 0`, or arguments that do not parse (the command then refuses them itself).
    public static func of(_ arguments: [String]) -> CommandDeadline? {
        guard let name = arguments.first,
            let command = CommandLineTool.commands.first(where: { $0.name == name }),
            command.allOptions.contains(where: { $0.name == CommandOption.deadline.name }),
            let parsed = try? CommandLineTool.arguments(Array(arguments.dropFirst()), for: command),
            let url = parsed.positionals.first,
            url.hasPrefix("http://") || url.hasPrefix("https://") || PlaylistInput.isPlaylist(url)
        else { return nil }
        let explicit: Int?, timeout: Int
        do {
            explicit = try parsed.integer("--deadline")
            timeout = try parsed.integer("--timeout") ?? Int(NetworkPolicy().timeout.components.seconds)
        } catch {
            return nil
        }
        if let explicit {
            return explicit == 0 ? nil : CommandDeadline(seconds: explicit, command: name, url: url, origin: "--deadline")
        }
        var seconds = multiple * timeout
        var origin = "\(multiple) x --timeout \(timeout) s"
        if command.name == PlayCommand.name {
            guard let text = parsed.value("--for"), let playFor = try? MediaTime(parsing: text), playFor > .zero,
                playFor.seconds <= 1_000_000
            else { return nil }
            seconds += Int(playFor.seconds.rounded(.up))
            origin += " + --for"
        }
        return CommandDeadline(seconds: seconds, command: name, url: url, origin: origin)
    }

    /// The error line when the deadline passes.
    public var message: String {
        "frameseek \(command): \(url): no result within the command's deadline of \(seconds) s (\(origin)); "
            + "the server is too slow or stalled (--deadline S to change it)"
    }

    /// Ends the process when the deadline passes: the message on stderr, exit code 2. For the
    /// `frameseek` executable only; a command run in-process (the tests) is never armed.
    public func arm() {
        let line = message + "\n"
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
            FileDescriptorOutput(descriptor: 2).write(line)
            // _exit: the command's threads may hold any lock; nothing may run after this.
            _exit(CommandLineTool.ExitCode.usageOrInput.rawValue)
        }
    }
}
