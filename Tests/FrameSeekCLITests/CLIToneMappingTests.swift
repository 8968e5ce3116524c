// HDR pictures against independent truths: FFmpeg's tone-mapping recipe run by the ffmpeg CLI
// on the same frame; a lossless encode of known PQ code values whose SDR colours a script
// computed from the published formulas (Fixtures/hdr-code-values.py, no zimg); and for SDR,
// the pictures the build before tone mapping made, which must not move by one pixel.

import Foundation
import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// FFmpeg's recipe for an HDR frame in SDR BT.709, with its peak of 1000 nits.
private let recipe =
    "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0:peak=10,"
    + "zscale=t=bt709:m=bt709:r=pc,format=rgb24"

/// The peak signal-to-noise ratio of two 8-bit RGB pictures of one size, in dB (infinite when
/// they are the same).
private func psnr(_ a: RGBImage, _ b: RGBImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    // Through buffer pointers, in integers (exact below 2^63): an iterator of pairs costs a call
    // per byte in a debug build, many more under the sanitizers.
    let squares = a.pixels.withUnsafeBufferPointer { x in
        b.pixels.withUnsafeBufferPointer { y in
            var sum = 0
            for i in 0..<min(x.count, y.count) {
                let d = Int(x[i]) - Int(y[i])
                sum += d * d
            }
            return sum
        }
    }
    let mse = Double(squares) / Double(a.pixels.count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// Frame `index` of `fixture` (ffmpeg's decode order of output, which is presentation order)
/// through `filters` with the ffmpeg CLI, in coded orientation, as 8-bit RGB.
private func ffmpegPicture(_ fixture: Fixture, frame index: Int, filters: String, in directory: URL) throws -> RGBImage {
    let picture = try ffmpegPPM(
        [
            "-threads", "1", "-noautorotate", "-i", fixture.path, "-map", "0:\(fixture.stream)",
            "-vf", "select=eq(n\\,\(index)),\(filters)"
        ], pixelFormat: "rgb24", to: directory.appendingPathComponent("ffmpeg-\(index).ppm").path)
    return RGBImage(width: picture.width, height: picture.height, pixels: picture.samples)
}

/// The first picture ffmpeg makes of `input` (the arguments that name the input, and any
/// filters), in `pixelFormat` (`rgb24`, or `rgb48be` for 16 bits), written as a binary PPM:
/// its header gives the size, and nothing in it stands for a gamma, where libpng's simplified
/// reader would apply a PNG's gAMA chunk (ffmpeg writes one after zscale).
private func ffmpegPPM(_ input: [String], pixelFormat: String, to out: String) throws -> (width: Int, height: Int, samples: [UInt8]) {
    try runTool(
        ["ffmpeg", "-nostdin", "-v", "error", "-y"] + input + [
            "-frames:v", "1", "-pix_fmt", pixelFormat, "-c:v", "ppm", "-f", "image2", out
        ])
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    // "P6\nW H\nMAXVAL\n" and then the samples, as ffmpeg's PPM encoder writes them.
    let breaks = Array(bytes.indices.lazy.filter { bytes[$0] == 0x0A }.prefix(3))
    guard breaks.count == 3, bytes.starts(with: Array("P6".utf8)) else { throw OracleError("\(out): not a binary PPM") }
    let size = String(decoding: bytes[(breaks[0] + 1)..<breaks[1]], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
    guard size.count == 2 else { throw OracleError("\(out): no size in its header") }
    return (size[0], size[1], Array(bytes[(breaks[2] + 1)...]))
}

@Suite("HDR pictures: tone mapping, 16-bit PNGs, SDR unchanged", .ffmpegLog)
struct CLIToneMappingTests {
    static let hdrClips = ["hevc_pq_hdr10.s0", "hevc_hlg.s0", "iphone_hevc_editlist.s0"]

    @Test(
        "A landed HDR frame's PNG is at least 40 dB from FFmpeg's recipe on the same frame",
        arguments: hdrClips)
    func landedFrames(_ id: String) throws {
        let fixture = try #require(FixtureCatalog.fixture(id))
        let oracle = try Oracle(fixture)
        let directory = try temporaryDirectory("tonemap")
        for index in [0, oracle.count / 2, oracle.lastIndex] {
            let png = directory.appendingPathComponent("landed-\(index).png").path
            let result = frameseek([
                "seek", fixture.path, oracle.middleText(index), "--stream", String(fixture.stream),
                "--png", png, "--no-autorotate", "--json", "--index", "full"
            ])
            #expect(result.code == .success, "\(result.stderr.text)")
            let landing = try #require(result.out.first.flatMap(JSON.object))
            #expect(JSON.int(landing["frame_index"]) == index)
            let ours = try readPNG(png)
            let theirs = try ffmpegPicture(fixture, frame: index, filters: recipe, in: directory)
            let db = psnr(ours, theirs)
            #expect(db >= 40, "\(id) frame \(index): \(db) dB from the recipe")
            // And the straight conversion of the same frame is far from it: the test can fail.
            let flat = directory.appendingPathComponent("flat-\(index).png").path
            _ = frameseek(["seek", fixture.path, oracle.middleText(index), "--png", flat, "--no-autorotate", "--tonemap", "none"])
            #expect(psnr(try readPNG(flat), theirs) < 35, "\(id) frame \(index): --tonemap none is as close as tone mapping")
        }
    }

    @Test("An HDR thumbnail is at least 30 dB from the recipe followed by scaling, and scaling first is not")
    func thumbnails() throws {
        let fixture = try #require(FixtureCatalog.fixture("hevc_pq_hdr10.s0"))
        let oracle = try Oracle(fixture)
        let directory = try temporaryDirectory("tonemap-thumbs")
        let out = directory.appendingPathComponent("thumbs").path
        let result = frameseek(["thumbnails", fixture.path, "--out", out, "--count", "3", "--precision", "exact", "--json"])
        #expect(result.code == .success, "\(result.stderr.text)")
        let json = try #require(result.out.first.flatMap(JSON.object))
        let (width, height) = try (#require(JSON.int(json["width"])), #require(JSON.int(json["height"])))
        let thumbnails = try #require(json["thumbnails"] as? [[String: Any]])
        #expect(thumbnails.count == 3)
        for thumbnail in thumbnails {
            let actual = try #require(JSON.double(thumbnail["actual"]))
            let index = try #require(oracle.frames.indices.first { abs(oracle.seconds($0) - actual) < 1e-6 })
            let file = try #require(thumbnail["file"] as? String)
            let ours = try readPNG(out + "/" + file)
            let expected = try ffmpegPicture(fixture, frame: index, filters: recipe + ",scale=\(width):\(height)", in: directory)
            #expect(psnr(ours, expected) >= 30, "frame \(index): \(psnr(ours, expected)) dB")
            let scaledFirst = try ffmpegPicture(fixture, frame: index, filters: "scale=\(width):\(height)," + recipe, in: directory)
            #expect(psnr(scaledFirst, expected) < psnr(ours, expected), "frame \(index): scaling first is as good")
        }
    }

    @Test("Known PQ code values come out as the BT.2100 and Hable formulas say, within 2 codes, without zimg's word for it")
    func codeValues() throws {
        let expected = try JSON.file("oracle/hdr_pq_codes.expected.json")
        let patches = try #require(expected["patches"] as? [[String: Any]])
        #expect(patches.count == 32)
        let directory = try temporaryDirectory("tonemap-codes")
        let png = directory.appendingPathComponent("codes.png").path
        let result = frameseek(["seek", Repository.fixture("media/hdr_pq_codes.mkv"), "0", "--png", png])
        #expect(result.code == .success, "\(result.stderr.text)")
        let picture = try readPNG(png)
        #expect(picture.width == JSON.int(expected["width"]) && picture.height == JSON.int(expected["height"]))
        for patch in patches {
            let (x0, y0, size) = try (#require(JSON.int(patch["x"])), #require(JSON.int(patch["y"])), #require(JSON.int(patch["size"])))
            let sdr = try #require(patch["sdr_rgb"] as? [Int])
            // Every pixel of the patch but a 2-pixel border, where the encoder's neighbours could not reach anyway.
            for y in (y0 + 2)..<(y0 + size - 2) {
                for x in (x0 + 2)..<(x0 + size - 2) {
                    let at = (y * picture.width + x) * 3
                    let got = (0..<3).map { Int(picture.pixels[at + $0]) }
                    let off = zip(got, sdr).map { abs($0 - $1) }.max() ?? 0
                    if off > 2 {
                        Issue.record("patch at \(x0),\(y0) \(patch["ycbcr"] ?? ""): \(got) at \(x),\(y), expected \(sdr)")
                        return
                    }
                }
            }
        }
    }

    @Test(
        "SDR pictures are the ones the build before tone mapping made, and HDR ones with --tonemap none",
        arguments: FixtureCatalog.video)
    func sdrUnchanged(_ fixture: Fixture) throws {
        let lines = try String(contentsOfFile: Repository.fixture("oracle/pictures-before-tone-mapping.md5"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").map(String.init) }
        let before = Dictionary(uniqueKeysWithValues: lines.filter { $0.first == fixture.id }.map { ($0[1], $0[2]) })
        #expect(before.count == 4, "\(fixture.id): no pictures recorded before tone mapping")
        let hdr = Self.hdrClips.contains(fixture.id)
        let tonemap = hdr ? ["--tonemap", "none"] : []
        let directory = try temporaryDirectory("sdr-\(fixture.id)")
        let png = directory.appendingPathComponent("seek.png").path
        let seek = frameseek(["seek", fixture.path, "0.5", "--stream", String(fixture.stream), "--png", png] + tonemap)
        #expect(seek.code == .success, "\(seek.stderr.text)")
        #expect(try ffmpegRGB24MD5(["-i", png]) == "MD5=" + (before["seek-0.5"] ?? ""), "\(fixture.id): the landed PNG moved")
        let out = directory.appendingPathComponent("thumbs").path
        let thumbs = frameseek(["thumbnails", fixture.path, "--out", out, "--count", "3", "--stream", String(fixture.stream)] + tonemap)
        #expect(thumbs.code == .success, "\(thumbs.stderr.text)")
        for k in 1...3 {
            #expect(
                try ffmpegRGB24MD5(["-i", "\(out)/thumb-000\(k).png"]) == "MD5=" + (before["thumb-000\(k)"] ?? ""),
                "\(fixture.id): thumbnail \(k) moved")
        }
        if hdr {
            // Tone mapping on (the default) does move them: the comparison above can fail.
            let mapped = directory.appendingPathComponent("mapped.png").path
            _ = frameseek(["seek", fixture.path, "0.5", "--stream", String(fixture.stream), "--png", mapped])
            #expect(try ffmpegRGB24MD5(["-i", mapped]) != "MD5=" + (before["seek-0.5"] ?? ""))
        }
    }

    @Test(
        "--png-depth 16 writes a 16-bit RGB PNG whose samples, brought to 8 bits, are close to the 8-bit PNG's",
        arguments: ["h264_10bit.s0", "hevc_pq_hdr10.s0", "h264_bframes_gop250.s0"])
    func sixteenBit(_ id: String) throws {
        let fixture = try #require(FixtureCatalog.fixture(id))
        let directory = try temporaryDirectory("png16")
        let deep = directory.appendingPathComponent("deep.png").path, shallow = directory.appendingPathComponent("shallow.png").path
        #expect(frameseek(["seek", fixture.path, "0.5", "--png", deep, "--png-depth", "16"]).code == .success)
        #expect(frameseek(["seek", fixture.path, "0.5", "--png", shallow, "--png-depth", "8"]).code == .success)
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: deep)).prefix(26))
        #expect(header.count == 26 && header[24] == 16 && header[25] == 2, "\(id): IHDR bit depth \(header[24]), colour type \(header[25])")
        let shallowHeader = [UInt8](try Data(contentsOf: URL(fileURLWithPath: shallow)).prefix(26))
        #expect(shallowHeader[24] == 8)
        let samples = try ffmpegPPM(["-i", deep], pixelFormat: "rgb48be", to: deep + ".ppm").samples
        let eight = try ffmpegPPM(["-i", shallow], pixelFormat: "rgb24", to: shallow + ".ppm").samples
        #expect(samples.count == eight.count * 2)
        var worst = 0, total = 0
        var levels = Set<Int>()
        for i in 0..<min(eight.count, samples.count / 2) {
            let sample = Int(samples[2 * i]) << 8 | Int(samples[2 * i + 1])
            levels.insert(sample)
            let off = abs((sample * 255 + 32767) / 65535 - Int(eight[i]))
            worst = max(worst, off)
            total += off
        }
        // swscale's 8-bit RGB path rounds in fewer bits than its 16-bit one (the tone-mapping
        // graph's two outputs agree within a code): close on average, never far.
        let mean = Double(total) / Double(max(1, eight.count))
        #expect(worst <= 4 && mean <= 0.6, "\(id): 16-bit and 8-bit PNGs differ by up to \(worst) codes, \(mean) on average")
        // More levels than 8 bits hold: the precision is kept, not 8-bit values widened.
        #expect(levels.count > 256, "\(id): \(levels.count) levels")
    }

    @Test("Bad --tonemap and --png-depth values are refused with one line and exit 2")
    func badValues() throws {
        let fixture = try #require(FixtureCatalog.fixture("hevc_pq_hdr10.s0"))
        for arguments in [["--tonemap", "filmic"], ["--png-depth", "12"], ["--png-depth", "x"]] {
            let result = frameseek(["seek", fixture.path, "0.5"] + arguments)
            #expect(result.code == .usageOrInput, "\(arguments): \(result.code)")
            #expect(result.err.count == 1 && result.err[0].contains(arguments[0]), "\(result.err)")
        }
    }
}
