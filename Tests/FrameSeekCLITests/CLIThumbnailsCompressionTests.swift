// `frameseek thumbnails --png-compression` and `--decoders`: every level and decoder count
// writes sheets that the ffmpeg CLI decodes to the same pixels, and the same track.

import Foundation
import FrameSeek
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("Command line: thumbnails --png-compression and --decoders", .ffmpegLog)
struct CLIThumbnailsCompressionTests {
    @Test("Levels 0-9 on one decoder and on two: the same sheet pixels (decoded by ffmpeg) and the same track; 0 is largest")
    func levels() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let root = try temporaryDirectory("thumbs-levels")
        defer { try? FileManager.default.removeItem(at: root) }
        var reference: (md5s: [String], track: String)?
        var sizes: [Int: Int] = [:]
        for (level, decoders) in (0...9).map({ ($0, $0 % 2 + 1) }) {
            let directory = root.appendingPathComponent("\(level)")
            let result = frameseek([
                "thumbnails", fixture.path, "--out", directory.path, "--every", "1", "--columns", "3",
                "--rows", "2", "--png-compression", "\(level)", "--decoders", "\(decoders)"
            ])
            try #require(result.code == .success, "level \(level): \(result.stderr.text)")
            let sheets = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("sheet-") }.sorted()
            #expect(sheets.count >= 2, "level \(level): \(sheets)")
            let md5s = try sheets.map { try ffmpegRGB24MD5(["-i", directory.appendingPathComponent($0).path]) }
            let track = try String(contentsOf: directory.appendingPathComponent("thumbnails.vtt"), encoding: .utf8)
            sizes[level] = try sheets.reduce(0) { total, sheet in
                total
                    + ((try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(sheet).path)[.size] as? Int) ?? 0)
            }
            if let reference {
                #expect(md5s == reference.md5s, "level \(level) on \(decoders) decoders: other pixels")
                #expect(track == reference.track, "level \(level) on \(decoders) decoders: another track")
            } else {
                reference = (md5s, track)
            }
        }
        #expect(sizes.values.allSatisfy { $0 <= sizes[0]! }, "\(sizes.sorted { $0.key < $1.key })")
        #expect(sizes[9]! < sizes[0]!)
    }
}
