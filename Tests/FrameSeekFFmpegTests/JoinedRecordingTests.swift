// The engine's error for two MPEG-TS recordings joined byte for byte (`cat a.ts b.ts`) whose
// decode timestamps go back (DecodeTimeJoinCheck): `.unsupported`, naming the byte of the
// join, from the open that scans the whole stream and from a seek whose window reads across it.

import Foundation
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@testable import FrameSeekFFmpeg

@Suite("Joined MPEG-TS recordings whose timestamps go back", .ffmpegLog)
struct JoinedRecordingTests {
    func expectJoinError(_ error: MediaError?, _ joined: JoinedRecording, _ context: String) {
        #expect(error?.reason == .unsupported, "\(context): \(String(describing: error))")
        #expect(
            error?.cause.hasPrefix("timestamps go back at byte \(joined.secondVideoStart) ") == true,
            "\(context): \(String(describing: error))")
    }

    @Test(
        "the whole stream's scan and a window across the join throw .unsupported naming its byte",
        arguments: [JoinedRecording.Join.restart, .halfFrameLater, .back50Seconds])
    func refused(_ join: JoinedRecording.Join) throws {
        let directory = try temporaryDirectory("joined-engine-\(join)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let joined = try JoinedRecording.make(join, in: directory)
        let opened = #expect(throws: MediaError.self) {
            try FFmpegEngine(path: joined.path, options: .init(threads: 1))
        }
        expectJoinError(opened, joined, "\(join), whole table")

        var options = FFmpegEngine.Options(threads: 1)
        options.indexing = .asNeeded
        let engine = try FFmpegEngine(path: joined.path, options: options)
        // The first recording's last frame: the window reads on to the next packet, the join.
        let landed = #expect(throws: MediaError.self) {
            try engine.seek(to: MediaTime(value: 196, timescale: 100), precision: .exact, interruption: nil)
        }
        expectJoinError(landed, joined, "\(join), window")
    }
}
