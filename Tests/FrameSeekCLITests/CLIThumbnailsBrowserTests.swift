// The sprite sheet and its WebVTT track as a browser shows them: headless Chromium loads a small
// page that, like video.js's thumbnail plugins, finds the cue for a time, and draws the cue's
// #xywh cell of its sheet. The picture it draws is held against ffmpeg's own frame at the
// tile's landed time, scaled to the tile (the psnr filter). Skipped where Chromium is not
// installed (scripts/install-deps.sh installs it, so CI runs it).

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("CLI: thumbnails in a browser", .ffmpegLog)
struct CLIThumbnailsBrowserTests {
    /// Finds the cue for `?t=` seconds in thumbnails.vtt and writes an <img> of its sheet, offset
    /// so that the 160x90 window shows only the cue's cell; the cue's text goes into the DOM.
    static let page = """
        <!doctype html><html><head><style>
        body { margin: 0; background: #fff; } #tile { position: relative; overflow: hidden; width: 160px; height: 90px; }
        #tile img { position: absolute; }
        </style></head><body><div id="tile"><script>
        const t = parseFloat(new URLSearchParams(location.search).get("t"));
        const request = new XMLHttpRequest();
        request.open("GET", "thumbnails.vtt", false);
        request.send();
        const seconds = (text) => text.trim().split(":").reduce((sum, part) => sum * 60 + parseFloat(part), 0);
        const lines = request.responseText.split("\\n");
        for (let i = 0; i < lines.length; i++) {
          if (!lines[i].includes(" --> ")) continue;
          const [start, end] = lines[i].split(" --> ").map(seconds);
          if (t < start || t >= end) continue;
          const [file, fragment] = lines[i + 1].split("#xywh=");
          const [x, y] = fragment.split(",").map(Number);
          document.write(`<img src="${file}" style="left:-${x}px;top:-${y}px" data-cue="${lines[i + 1]}">`);
          break;
        }
        </script></div></body></html>
        """

    @Test(
        "Headless Chromium shows, for a time, the tile of the cue that covers it, and it is ffmpeg's frame at the tile's landed time",
        .enabled(if: chromiumPath != nil, "chromium is not installed (apt-get install chromium; scripts/install-deps.sh does)"),
        .timeLimit(.minutes(3)))
    func browserShowsTheTile() throws {
        let chromium = try #require(chromiumPath)
        let export = try StreamingThumbnails.made.get()
        let page = export.file("scrub-preview.html")
        try Self.page.write(toFile: page, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: page) }
        let scratch = try temporaryDirectory("thumbnails-browser")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let browser = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files",
            "--user-data-dir=\(scratch.appendingPathComponent("profile").path)",
            // Larger than the tile: a headless window much smaller than this draws only a strip.
            "--window-size=320,320"
        ]
        let tiles = try #require(export.json["thumbnails"] as? [[String: Any]])
        // The first, a middle and the last tile, each at a time inside its cue and off its start.
        for index in [0, 27, tiles.count - 1] {
            let tile = tiles[index]
            let time = Double(index) * 10 + 3.5
            let url = "file://\(page)?t=\(time)"
            let dom = try runTool(browser + ["--dump-dom", url])
            // The <img> the script wrote (the script's own text holds the template, unfilled).
            let cue = try #require(
                dom.firstMatch(of: /<img src="[^"$]+" [^>]*data-cue="([^"$]+)"/).map { String($0.1) }, "no cue drawn at \(time) s")
            #expect(cue == "\(tile["file"] as? String ?? "")#xywh=\(tile["x"] as? Int ?? -1),\(tile["y"] as? Int ?? -1),160,90")
            let shot = scratch.appendingPathComponent("shot-\(index).png").path
            try runTool(browser + ["--screenshot=\(shot)", url], in: scratch)
            // Only the cell is shown: everything outside the 160x90 box is the page's white.
            let image = try readPNG(shot)
            var outside = 0
            for y in 0..<image.height {
                for x in 0..<image.width where x >= 160 || y >= 90 {
                    let i = (y * image.width + x) * 3
                    if image.pixels[i] < 250 || image.pixels[i + 1] < 250 || image.pixels[i + 2] < 250 { outside += 1 }
                }
            }
            #expect(outside == 0, "\(outside) pixels drawn outside the tile at \(time) s")
            let actual = try #require(tile["actual"] as? Double)
            let psnr = try tilePSNR(shot, x: 0, y: 0, againstFrameOf: export.media, at: actual)
            #expect(psnr >= 30, "what Chromium drew at \(time) s against ffmpeg's frame at \(actual) s: \(psnr) dB")
        }
    }
}
