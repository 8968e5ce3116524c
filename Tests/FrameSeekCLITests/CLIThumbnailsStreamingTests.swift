// Thumbnails as streaming players read them: JPEG and WebP sheets encoded by FFmpeg's own
// encoders, an HLS image media playlist and a DASH thumbnail-tile MPD. The truth: ffprobe on
// the pictures, the ffmpeg CLI's psnr filter against its own frame at each tile's landed time,
// and two parsers nobody here wrote, Debian's python3-m3u8 and python3-mpegdash.

import Foundation
import FrameSeek
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// A 10-minute encode (testsrc2, 320x180, 25 fps, a keyframe every 250 frames) and one export
/// of it with `--every 10 --columns 5 --rows 4 --size 160x90 --format jpeg --hls --dash`.
struct StreamingThumbnails: Sendable {
    let media: String
    let folder: URL
    /// The `--json` line of the export.
    let jsonLine: String
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(jsonLine.utf8))) as? [String: Any] ?? [:] }
    var out: String { folder.appendingPathComponent("out").path }
    func file(_ name: String) -> String { folder.appendingPathComponent("out").appendingPathComponent(name).path }

    static let made: Result<StreamingThumbnails, OracleError> = Result { () throws(OracleError) in
        do { return try make() } catch let error as OracleError { throw error } catch { throw OracleError("\(error)") }
    }

    private static func make() throws -> StreamingThumbnails {
        let folder = try temporaryDirectory("thumbnails-streaming")
        let media = folder.appendingPathComponent("ten-minutes.mp4").path
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25", "-t", "600",
            "-c:v", "libx264", "-preset", "ultrafast", "-crf", "30", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p", media
        ])
        let out = folder.appendingPathComponent("out").path
        let result = frameseek([
            "thumbnails", media, "--out", out, "--every", "10", "--columns", "5", "--rows", "4", "--size", "160x90",
            "--format", "jpeg", "--hls", "--dash", "--json"
        ])
        guard result.code == .success, let line = result.out.last else { throw OracleError("thumbnails failed: \(result.err)") }
        return StreamingThumbnails(media: media, folder: folder, jsonLine: line)
    }
}

/// Where a form says the tile for a time is: the picture file and the tile's corner in it.
private struct TilePlace: Hashable, CustomStringConvertible {
    let file: String, x: Int, y: Int
    var description: String { "\(file)@\(x),\(y)" }
}

/// The three forms, read here with nothing of FrameSeek's.
private struct StreamingForms {
    /// WebVTT cues: start and end in milliseconds, and the place.
    var cues: [(start: Int, end: Int, place: TilePlace)] = []
    /// HLS: per sheet its URI, EXTINF, layout and tile duration.
    var sheets: [(uri: String, seconds: Double, columns: Int, rows: Int, tile: Double)] = []
    /// DASH: the template, its timescale and duration, the layout and the tile size.
    var template = "", timescale = 1.0, segment = 0.0, columns = 0, rows = 0, tileWidth = 0, tileHeight = 0

    init(_ export: StreamingThumbnails) throws {
        let vtt = try String(contentsOfFile: export.file("thumbnails.vtt"), encoding: .utf8)
        let lines = vtt.components(separatedBy: "\n")
        for (index, line) in lines.enumerated() where line.contains(" --> ") {
            let times = line.components(separatedBy: " --> ").map(Self.milliseconds)
            let target = lines[index + 1]
            let file = String(target.prefix { $0 != "#" })
            let numbers = target.split(separator: "=").last!.split(separator: ",").compactMap { Int($0) }
            cues.append((times[0], times[1], TilePlace(file: file, x: numbers[0], y: numbers[1])))
        }
        let playlist = try String(contentsOfFile: export.file("images.m3u8"), encoding: .utf8).components(separatedBy: "\n")
        var tiles: (Int, Int, Double)?
        var extinf: Double?
        for line in playlist {
            if line.hasPrefix("#EXT-X-TILES:") {
                let layout = line.firstMatch(of: /LAYOUT=([0-9]+)x([0-9]+)/)!
                let duration = line.firstMatch(of: /DURATION=([0-9.]+)/)!
                tiles = (Int(layout.1)!, Int(layout.2)!, Double(duration.1)!)
            } else if line.hasPrefix("#EXTINF:") {
                extinf = Double(line.dropFirst(8).prefix { $0 != "," })
            } else if !line.hasPrefix("#"), !line.isEmpty, let tiles, let seconds = extinf {
                sheets.append((line, seconds, tiles.0, tiles.1, tiles.2))
            }
        }
        let mpd = try String(contentsOfFile: export.file("thumbnails.mpd"), encoding: .utf8)
        template = String(mpd.firstMatch(of: /media="([^"]+)"/)!.1)
        timescale = Double(mpd.firstMatch(of: /timescale="([0-9]+)"/)!.1)!
        segment = Double(mpd.firstMatch(of: /duration="([0-9]+)"/)!.1)!
        let layout = mpd.firstMatch(of: /thumbnail_tile" value="([0-9]+)x([0-9]+)"/)!
        (columns, rows) = (Int(layout.1)!, Int(layout.2)!)
        let width = Int(mpd.firstMatch(of: /[ ]width="([0-9]+)"/)!.1)!, height = Int(mpd.firstMatch(of: /[ ]height="([0-9]+)"/)!.1)!
        (tileWidth, tileHeight) = (width / columns, height / rows)
    }

    static func milliseconds(_ text: String) -> Int {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":")
        let seconds = parts[2].split(separator: ".")
        return ((Int(parts[0])! * 60 + Int(parts[1])!) * 60 + Int(seconds[0])!) * 1000 + Int(seconds[1])!
    }

    /// The WebVTT cue's place at `ms` milliseconds.
    func vtt(_ ms: Int) -> TilePlace? { cues.first { $0.start <= ms && ms < $0.end }?.place }

    /// The HLS place: the sheet whose EXTINFs cover the time, the tile by its index in it.
    func hls(_ ms: Int, tileWidth: Int, tileHeight: Int) -> TilePlace? {
        var start = 0.0
        let t = Double(ms) / 1000
        for sheet in sheets {
            if t < start + sheet.seconds - 1e-9 {
                let index = Int(((t - start) / sheet.tile + 1e-9).rounded(.down))
                return TilePlace(
                    file: sheet.uri, x: (index % sheet.columns) * tileWidth, y: (index / sheet.columns) * tileHeight)
            }
            start += sheet.seconds
        }
        return nil
    }

    /// The DASH place: `$Number$` from the segment duration, the tile by its index.
    func dash(_ ms: Int) -> TilePlace {
        let t = Double(ms) / 1000, length = segment / timescale
        let number = Int((t / length + 1e-9).rounded(.down)) + 1
        let index = Int(((t - Double(number - 1) * length) / (length / Double(columns * rows)) + 1e-9).rounded(.down))
        let file = template.replacingOccurrences(of: "$Number%03d$", with: String(format: "%03d", number))
        return TilePlace(file: file, x: (index % columns) * tileWidth, y: (index / columns) * tileHeight)
    }
}

/// The ffmpeg CLI's psnr filter between the 160x90 cell at (`x`, `y`) of the picture `file`
/// and ffmpeg's own frame of `media` at `seconds`, scaled to 160x90; both in yuv420p.
func tilePSNR(_ file: String, x: Int, y: Int, againstFrameOf media: String, at seconds: Double) throws -> Double {
    let log = try runTool([
        "ffmpeg", "-nostdin", "-hide_banner", "-i", file, "-ss", String(format: "%.6f", seconds), "-i", media,
        "-lavfi", "[0]crop=160:90:\(x):\(y),format=yuv420p[t];[1]scale=160:90,format=yuv420p[f];[t][f]psnr=stats_file=-",
        "-frames:v", "1", "-f", "null", "-"
    ])
    guard let psnr = log.firstMatch(of: /psnr_avg:([0-9.]+|inf)/).map({ $0.1 == "inf" ? Double.infinity : Double($0.1) ?? -1 }) else {
        throw OracleError("no psnr_avg in ffmpeg's log")
    }
    return psnr
}

@Suite("CLI: thumbnails for streaming players", .ffmpegLog)
struct CLIThumbnailsStreamingTests {
    @Test("One export writes JPEG sheets, an image playlist whose EXTINFs add up to the duration, and an MPD naming them")
    func export() throws {
        let export = try StreamingThumbnails.made.get()
        let names = try FileManager.default.contentsOfDirectory(atPath: export.out).sorted()
        let sheets = names.filter { $0.hasPrefix("sheet-") }
        #expect(sheets == ["sheet-001.jpg", "sheet-002.jpg", "sheet-003.jpg"], "60 tiles of 20 a sheet: \(names)")
        for sheet in sheets {
            let probed = try runTool([
                "ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", export.file(sheet)
            ])
            #expect(probed.trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,800,360", "\(sheet): \(probed)")
        }
        let playlist = try String(contentsOfFile: export.file("images.m3u8"), encoding: .utf8)
        let lines = playlist.components(separatedBy: "\n")
        #expect(lines.first == "#EXTM3U" && lines.contains("#EXT-X-IMAGES-ONLY") && lines.contains("#EXT-X-ENDLIST"))
        #expect(lines.filter { $0.hasPrefix("#EXT-X-TILES:RESOLUTION=160x90,LAYOUT=5x4,DURATION=10.") }.count == 3)
        // The duration is the last frame's end, as ffprobe's frame table has it.
        let frames = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time,pkt_duration_time",
            "-of", "csv=p=0", export.media
        ]).split(separator: "\n").last!.split(separator: ",").compactMap { Double($0) }
        let duration = frames[0] + frames[1]
        // Python's m3u8 (Debian's python3-m3u8) reads the same EXTINFs.
        let parsed = try runTool([
            "/usr/bin/python3", "-c",
            "import m3u8,sys; p=m3u8.load(sys.argv[1]); print(p.is_endlist, len(p.segments), sum(s.duration for s in p.segments))",
            export.file("images.m3u8")
        ]).split(separator: " ")
        #expect(parsed.count == 3 && parsed[0] == "True" && parsed[1] == "3")
        #expect(abs((Double(parsed.last!.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - duration) < 0.000_01)
        let streamInf = try String(contentsOfFile: export.file("images-stream-inf.txt"), encoding: .utf8)
        #expect(
            streamInf.hasPrefix("#EXT-X-IMAGE-STREAM-INF:BANDWIDTH=")
                && streamInf.contains("RESOLUTION=160x90,CODECS=\"jpeg\",URI=\"images.m3u8\""))
        #expect(export.json["image_stream_inf"] as? String == streamInf.trimmingCharacters(in: .whitespacesAndNewlines))
        // The MPD, read by Python's mpegdash (Debian's python3-mpegdash): its template names
        // every sheet, and its Representation is a sheet's size.
        let mpd = try runTool([
            "/usr/bin/python3", "-c",
            """
            import sys, math
            from mpegdash.parser import MPEGDASHParser
            m = MPEGDASHParser.parse(sys.argv[1])
            a = m.periods[0].adaptation_sets[0]; r = a.representations[0]; t = a.segment_templates[0]
            props = [(e.scheme_id_uri, e.value) for e in r.essential_properties]
            total = float(m.media_presentation_duration[2:-1])
            count = math.ceil(total * t.timescale / t.duration - 1e-9)
            files = [t.media.replace('$Number%03d$', '%03d' % (t.start_number + i)) for i in range(count)]
            print(a.content_type, a.mime_type, r.width, r.height, props[0][0], props[0][1], ' '.join(files))
            """,
            export.file("thumbnails.mpd")
        ]).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").map(String.init)
        #expect(Array(mpd.prefix(6)) == ["image", "image/jpeg", "800", "360", "http://dashif.org/thumbnail_tile", "5x4"], "\(mpd)")
        #expect(Array(mpd.dropFirst(6)) == sheets, "the template names exactly the sheets written")
    }

    @Test("For every tile time the WebVTT track, the HLS image playlist and the DASH template name the same sheet and cell")
    func formsAgree() throws {
        let export = try StreamingThumbnails.made.get()
        let forms = try StreamingForms(export)
        #expect(forms.cues.count == 60 && forms.sheets.count == 3)
        for cue in forms.cues {
            for ms in [cue.start, (cue.start + cue.end) / 2, cue.end - 1] {
                let places = [forms.vtt(ms), forms.hls(ms, tileWidth: 160, tileHeight: 90), forms.dash(ms)]
                #expect(Set(places.map(\.?.description)).count == 1 && places[0] == cue.place, "at \(ms) ms: \(places)")
            }
        }
    }

    @Test("Each tile is within 30 dB PSNR of ffmpeg's frame at the tile's landed time, scaled to the tile")
    func tilesAreTheFrames() throws {
        let export = try StreamingThumbnails.made.get()
        let tiles = try #require(export.json["thumbnails"] as? [[String: Any]])
        #expect(tiles.count == 60)
        for tile in tiles.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) {
            let actual = try #require(tile["actual"] as? Double)
            let (x, y) = (try #require(tile["x"] as? Int), try #require(tile["y"] as? Int))
            let file = export.file(try #require(tile["file"] as? String))
            let psnr = try tilePSNR(file, x: x, y: y, againstFrameOf: export.media, at: actual)
            #expect(psnr >= 30, "tile at \(actual) s in \(file) at \(x),\(y): \(psnr) dB")
        }
    }

    @Test("--merge-into writes copies of a multivariant playlist and an MPD with the thumbnails added, named relative to them")
    func mergeInto() throws {
        let export = try StreamingThumbnails.made.get()
        let folder = try temporaryDirectory("thumbnails-merge")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = folder.appendingPathComponent("stream")
        try FileManager.default.createDirectory(at: stream, withIntermediateDirectories: true)
        let master = stream.appendingPathComponent("master.m3u8").path
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=320x180\nv/index.m3u8\n"
            .write(toFile: master, atomically: true, encoding: .utf8)
        let manifest = stream.appendingPathComponent("manifest.mpd").path
        try """
        <?xml version="1.0" encoding="utf-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT600S" minBufferTime="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
          <Period id="0" start="PT0S">
            <AdaptationSet id="0" contentType="video" mimeType="video/mp4">
              <SegmentTemplate media="v/$Number$.m4s" initialization="v/init.mp4" duration="10" startNumber="1"/>
              <Representation id="v" bandwidth="800000" width="320" height="180" codecs="avc1.64000d"/>
            </AdaptationSet>
          </Period>
        </MPD>
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("thumbs").path
        let base = ["thumbnails", export.media, "--out", out, "--every", "10", "--columns", "5", "--rows", "4"]
        let result = frameseek(base + ["--hls", "--dash", "--merge-into", master, "--merge-into", manifest])
        try #require(result.code == .success, "\(result.err)")
        let checked = try runTool([
            "/usr/bin/python3", "-c",
            """
            import os, sys, m3u8
            from mpegdash.parser import MPEGDASHParser
            folder = os.path.dirname(sys.argv[1])
            text = open(sys.argv[1]).read()
            p = m3u8.loads(text)
            image = [l for l in text.splitlines() if l.startswith('#EXT-X-IMAGE-STREAM-INF:')][0]
            uri = image.split('URI="')[1].split('"')[0]
            m = MPEGDASHParser.parse(sys.argv[2])
            sets = m.periods[0].adaptation_sets
            media = sets[1].segment_templates[0].media.replace('$Number%03d$', '001')
            print(p.is_variant, len(p.playlists), os.path.exists(os.path.join(folder, uri)), len(sets), sets[1].content_type,
                  os.path.exists(os.path.join(folder, media)), sets[0].segment_templates[0].media)
            """,
            stream.appendingPathComponent("master-thumbnails.m3u8").path, stream.appendingPathComponent("manifest-thumbnails.mpd").path
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(checked == "True 1 True 2 image True v/$Number$.m4s", "\(checked)")
        // A playlist without --hls, and a file that is neither, are refused before decoding.
        #expect(frameseek(base + ["--dash", "--merge-into", master]).code == .usageOrInput)
        #expect(frameseek(base + ["--hls", "--merge-into", export.media]).code == .usageOrInput)
    }

    @Test(
        "A file whose timeline spans a million years: --count spaces its thumbnails exactly, and sheets too long for a playlist or an MPD are refused with exit 2"
    )
    func absurdTimeline() throws {
        let folder = try temporaryDirectory("thumbnails-absurd")
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = folder.appendingPathComponent("frames.mjpeg").path, media = folder.appendingPathComponent("huge.mkv").path
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=25", "-frames:v", "4", "-f", "mjpeg",
            frames
        ])
        // Two clusters, the second 2^55 ms (about a million years) after the first.
        try runTool(["/usr/bin/python3", Repository.fixture("make-overflow-mkv.py"), frames, media, "0", "36028797018963968"])
        let plain = frameseek(["thumbnails", media, "--out", folder.path + "/plain", "--count", "4"])
        try #require(plain.code == .success, "\(plain.err)")
        let cues = try String(contentsOfFile: folder.path + "/plain/thumbnails.vtt", encoding: .utf8)
            .components(separatedBy: "\n").filter { $0.contains(" --> ") }
        #expect(Set(cues).count == 4 && !cues[1].hasPrefix("00:00:00.000"), "evenly spaced over the span, not all at 0: \(cues)")
        for options in [["--count", "4", "--dash"], ["--count", "4", "--hls"], ["--every", "1000000000000", "--hls", "--dash"]] {
            let result = frameseek(["thumbnails", media, "--out", folder.path + "/streaming", "--columns", "2", "--rows", "1"] + options)
            #expect(result.code == .usageOrInput && result.err.count == 1, "\(options): \(result.err)")
            #expect(result.err.first?.contains("longer than") == true, "\(options): \(result.err)")
        }
    }

    @Test("--format webp writes WebP files, --quality trades size for fidelity, and png stays the default")
    func formats() throws {
        let export = try StreamingThumbnails.made.get()
        let folder = try temporaryDirectory("thumbnails-formats")
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(_ name: String, _ options: [String]) throws -> [String] {
            let out = folder.appendingPathComponent(name).path
            let result = frameseek(["thumbnails", export.media, "--out", out, "--count", "6", "--columns", "3", "--rows", "2"] + options)
            try #require(result.code == .success, "\(result.err)")
            return try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("sheet-") }.map { out + "/" + $0 }
        }
        let png = try run("png", [])
        #expect(png.count == 1 && png[0].hasSuffix("sheet-001.png"))
        let webp = try run("webp", ["--format", "webp"])
        let codec = try runTool(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", webp[0]])
        #expect(webp.count == 1 && webp[0].hasSuffix(".webp") && codec.hasPrefix("webp"), "\(webp) \(codec)")
        let low = try run("low", ["--format", "jpeg", "--quality", "10"]), high = try run("high", ["--format", "jpeg", "--quality", "95"])
        func size(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        }
        #expect(try size(low[0]) < size(high[0]))
        // A set in another format leaves the PNG pictures (they may be someone's own), and the
        // track names the new ones.
        let replaced = try run("png", ["--format", "jpeg"]).map { URL(fileURLWithPath: $0).lastPathComponent }.sorted()
        #expect(replaced == ["sheet-001.jpg", "sheet-001.png"])
        let track = try String(contentsOfFile: folder.appendingPathComponent("png/thumbnails.vtt").path, encoding: .utf8)
        #expect(track.contains("sheet-001.jpg#xywh=") && !track.contains(".png"))
        #expect(frameseek(["thumbnails", export.media, "--out", folder.path + "/bad", "--format", "gif"]).code == .usageOrInput)
    }

    @Test(
        "A streaming grid whose full sheet is over the limits is one line and exit 2, before a sheet is allocated",
        arguments: [["100", "100", "320x180"], ["316", "316", "1920x1080"], ["400", "400", "16x9"]])
    func fullSheetOverTheLimits(_ grid: [String]) throws {
        let folder = try TemporaryDirectory()
        let media = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0")).path
        let out = folder.file("out")
        let arguments = [
            "thumbnails", media, "--out", out, "--count", "3", "--hls", "--dash", "--columns", grid[0], "--rows", grid[1], "--size", grid[2]
        ]
        let run = try runBounded([Repository.builtExecutable("frameseek")] + arguments, bound: refusalBound)
        #expect(run.exitStatus == 2 && !run.timedOut, "\(grid): exit \(run.exitStatus ?? -1), signal \(run.signal ?? 0) \(run.errorLines)")
        #expect(run.errorLines.count == 1 && run.errorLines.first?.contains("--columns or --rows") == true, "\(run.errorLines)")
        // The sheets asked for are 1.7 GB and 621 GB: nothing near that was touched.
        #expect(run.peakResidentBytes < 256 << 20, "\(grid): peak RSS \(run.peakResidentBytes >> 20) MiB")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(written.isEmpty, "\(written)")
    }
}
