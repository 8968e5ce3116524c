// The report as a browser draws it: headless Chromium renders a report of a small bench and a
// peers file, and the picture and the DOM it built are checked. Skipped where Chromium is not
// installed (scripts/install-deps.sh installs it, so CI runs it).

import Foundation
import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// Chromium's path on PATH (Debian's package installs `chromium`), nil when not installed.
let chromiumPath: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        for name in ["chromium", "chromium-browser"] where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
    }
    return nil
}()

@Suite("Bench report in a browser", .ffmpegLog)
struct BenchScreenshotTests {
    static let width = 1200, height = 2400

    @Test(
        "headless Chromium draws the report: the charts are in the DOM and the picture is not blank",
        .enabled(if: chromiumPath != nil, "chromium is not installed (apt-get install chromium; scripts/install-deps.sh does)"),
        .timeLimit(.minutes(3)))
    func screenshot() throws {
        let chromium = try #require(chromiumPath)
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let directory = try temporaryDirectory("report-shot")
        let peers = try writeJSON(samplePeers, named: "peers.json", in: directory)
        let report = directory.appendingPathComponent("bench.html").path
        let result = frameseek(["bench", fixture.path, "--workload", "random,scrub", "-n", "8", "--peers", peers, "--report", report])
        #expect(result.code == .success, "\(result.stderr.text)")
        // A profile of its own: two Chromiums on one default profile (SeekCostTests renders
        // at the same time) meet at its singleton lock, and one waited minutes for the other.
        let browser = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
            "--window-size=\(Self.width),\(Self.height)"
        ]
        let dom = try runTool(browser + ["--dump-dom", "file://\(report)"])
        // What the browser parsed, not what was written: every chart survived as SVG.
        #expect(dom.components(separatedBy: "<svg").count - 1 == 5, "two charts per workload and the peers chart")
        #expect(dom.components(separatedBy: "class=\"peer-bar median\"").count - 1 == 8)
        #expect(dom.components(separatedBy: "<circle").count - 1 == 16)

        let shot = directory.appendingPathComponent("shot.png").path
        try runTool(browser + ["--screenshot=\(shot)", "file://\(report)"], in: directory)
        let image = try readPNG(shot)
        #expect(image.width == Self.width && image.height == Self.height)
        // Count what a reader would see: ink (dark text and lines) and the charts' blue.
        var ink = 0, blue = 0, firstBlueRow = Int.max
        for i in stride(from: 0, to: image.pixels.count, by: 3) {
            let (r, g, b) = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
            if r + g + b < 200 { ink += 1 }
            if abs(r - 0x4a) < 24 && abs(g - 0x7f) < 24 && abs(b - 0xb5) < 24 {
                blue += 1
                firstBlueRow = min(firstBlueRow, i / 3 / image.width)
            }
        }
        let pixels = Self.width * Self.height
        #expect(ink > pixels / 400, "text and axes drawn: \(ink) dark pixels")
        #expect(blue > pixels / 400, "bars and points drawn: \(blue) blue pixels")
        // The layout holds: the title and settings at the top, the charts below the tables.
        let top = image.crop(x: 0, y: 0, width: Self.width, height: 300)
        #expect(top.pixels.contains { $0 < 70 }, "the title and settings at the top")
        #expect(firstBlueRow > 500 && firstBlueRow < Self.height, "the first chart starts at row \(firstBlueRow)")
    }
}
