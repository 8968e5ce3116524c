// Two MPEG-TS recordings joined byte for byte (`cat a.ts b.ts`): where the second's decode
// timestamps go back, FrameSeek cannot place both on one timeline, and every read that meets
// the join refuses the file in one line naming its byte, exit 2. Before, the whole table
// refused a restart only for its repeated timestamps, interleaved a half-frame shift, and
// dropped a 50 s jump back as leading pictures; a seek read as needed answered from either
// recording, or warned falsely of truncation. A jump forward is one timeline, and lands as
// ffprobe lists it.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("CLI: MPEG-TS recordings joined where timestamps go back are refused", .ffmpegLog)
struct CLIJoinedRecordingTests {
    static let refused: [JoinedRecording.Join] = [.restart, .halfFrameLater, .back50Seconds]

    /// `run` is the refusal of `joined`: exit 2, nothing on stdout, one line naming the byte
    /// where the second recording starts.
    func expectRefusal(_ run: RunResult, of joined: JoinedRecording, _ context: String) {
        #expect(run.code == .usageOrInput, "\(context): \(run.stdout.text) \(run.stderr.text)")
        #expect(run.out.isEmpty, "\(context): \(run.out)")
        #expect(run.err.count == 1, "\(context): \(run.err)")
        let line = run.err.first ?? ""
        #expect(
            line.contains("timestamps go back at byte \(joined.secondVideoStart) (decode time from ")
                && line.contains("two recordings joined?"), "\(context): \(line)")
    }

    @Test("probe, frames and a seek on the whole table refuse the join", arguments: refused)
    func wholeTableRefuses(_ join: JoinedRecording.Join) throws {
        let directory = try temporaryDirectory("joined-\(join)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let joined = try JoinedRecording.make(join, in: directory)
        for arguments in [["probe"], ["frames", "--json"], ["seek", "1", "--index", "full"]] {
            let run = frameseek([arguments[0], joined.path] + arguments.dropFirst() + ["--no-index-cache"])
            expectRefusal(run, of: joined, "\(join), \(arguments.joined(separator: " "))")
        }
    }

    /// Targets whose window reads across the join: the first recording's last frames, and past
    /// its end.
    @Test("a seek read as needed refuses the join its window reads through", arguments: refused)
    func windowRefuses(_ join: JoinedRecording.Join) throws {
        let directory = try temporaryDirectory("joined-window-\(join)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let joined = try JoinedRecording.make(join, in: directory)
        for target in ["1.9", "1.96", "3", "1000"] {
            let run = frameseek(["seek", joined.path, target, "--json", "--index", "as-needed", "--no-index-cache"])
            expectRefusal(run, of: joined, "\(join), seek \(target) as needed")
        }
    }

    @Test("recordings joined an hour apart list ffprobe's frames and land on them, whole and as needed")
    func forwardJumpLands() throws {
        let directory = try temporaryDirectory("joined-forward")
        defer { try? FileManager.default.removeItem(at: directory) }
        let joined = try JoinedRecording.make(.forwardHour, in: directory)
        let probed = try JoinedRecording.videoPackets("pts", of: joined.path).sorted()
        let run = frameseek(["frames", joined.path, "--json", "--no-index-cache"])
        #expect(run.code == .success, "\(run.stderr.text)")
        let listing = try #require(run.out.compactMap(JSON.object).first)
        let frames = try #require(listing["frames"] as? [[String: Any]])
        #expect(frames.compactMap { JSON.int64($0["pts"]) } == probed)
        let start = try #require(JSON.int64(listing["start_pts"]))
        // The second recording's frames: its first, one after its keyframe, and its last.
        for index in [50, 51, 77, 99] where index < probed.count {
            let target = "\(probed[index] - start)/90000"
            for indexing in ["as-needed", "full"] {
                let seek = frameseek(["seek", joined.path, target, "--json", "--index", indexing, "--no-index-cache"])
                #expect(seek.code == .success && seek.err.isEmpty, "frame \(index), \(indexing): \(seek.stderr.text)")
                let landing = seek.out.compactMap(JSON.object).first
                #expect(JSON.int64(landing?["landed_pts"]) == probed[index], "frame \(index), \(indexing): \(seek.stdout.text)")
            }
        }
        #expect(probed.count == 100)
    }
}
