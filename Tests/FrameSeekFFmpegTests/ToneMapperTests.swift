// Tone mapping at the C boundary: a libavfilter without zscale is a clear error, never a grey
// picture; the two ways into the converter (a decoder's frame, a copied picture) give the
// same HDR pixels; and the graph is the recipe with the stream's peak.

import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Tone mapping at the C boundary", .ffmpegLog)
struct ToneMapperTests {
    @Test("Without zscale an HDR picture is an error naming zscale and --tonemap none; an SDR one converts as always")
    func withoutZscale() throws {
        let converter = PixelConverter(toneMapping: .hable, filterExists: { $0 != "zscale" })
        for (file, isHDR) in [("media/hevc_pq_hdr10.mp4", true), ("media/h264_10bit.mp4", false)] {
            let engine = try FFmpegEngine(path: Repository.fixture(file))
            _ = try engine.seek(to: MediaTime(value: 1, timescale: 2), precision: .exact)
            let picture = try #require(try engine.landedPicture())
            var bytes = picture.bytes
            let outcome = bytes.withUnsafeMutableBufferPointer { buffer -> Result<Int, FFmpegError> in
                do throws(FFmpegError) {
                    let (planes, strides) = try picture.pixelFormatID.planes(
                        packedAt: buffer.baseAddress, width: picture.width, height: picture.height)
                    let rgb = try converter.packedRGB(
                        planes: planes, strides: strides,
                        format: picture.pixelFormatID, width: picture.width, height: picture.height,
                        color: picture.color, outputWidth: nil, outputHeight: nil, depth: .eight)
                    return .success(rgb.pixels.count)
                } catch {
                    return .failure(error)
                }
            }
            switch (outcome, isHDR) {
            case (.failure(let error), true):
                let message = engine.conversionError(error, of: "frame 12", width: nil, height: nil).description
                #expect(message.contains("zscale") && message.contains("--tonemap none") && message.contains(file), "\(message)")
                #expect(!message.contains("\n"))
            case (.success(let count), false):
                #expect(count == picture.width * picture.height * 3)
            default:
                Issue.record("\(file): \(outcome)")
            }
        }
    }

    @Test(
        "A decoder's frame and the picture copied out of it tone-map to the same pixels, 8-bit and 16-bit",
        arguments: ["media/hevc_pq_hdr10.mp4", "media/hevc_hlg.mkv", "media/iphone_hevc_editlist.mp4"])
    func bothPathsAgree(_ file: String) throws {
        let engine = try FFmpegEngine(path: Repository.fixture(file))
        _ = try engine.seek(to: MediaTime(value: 1, timescale: 2), precision: .exact)
        let fromFrame = try #require(try engine.landedImage())
        let picture = try #require(try engine.landedPicture())
        #expect(try picture.rgbImage(using: engine) == fromFrame)
        let deep = try picture.rgb16Image(using: engine)
        #expect(deep.width == fromFrame.width && deep.height == fromFrame.height)
        let straight = PixelConverter(toneMapping: .none)
        let flat = try straight.rgb(engine.landedFrame, stream: engine.media.selectedStream.color)
        #expect(flat.pixels != fromFrame.pixels, "\(file): tone mapping changed nothing")
    }

    @Test("The graph is the recipe: Hable, no desaturation, the peak from MaxCLL in units of 100 nits, held to 100-10,000 nits")
    func filters() {
        #expect(
            ToneMapper.filters(mapping: .hable, peakLuminance: 1000, depth: .eight)
                == "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0:peak=10.0,"
                + "zscale=t=bt709:m=bt709:r=pc,format=rgb24")
        #expect(ToneMapper.filters(mapping: .mobius, peakLuminance: 4000, depth: .sixteen).contains("tonemap=mobius:desat=0:peak=40.0"))
        #expect(ToneMapper.filters(mapping: .clip, peakLuminance: 4000, depth: .sixteen).hasSuffix("format=rgb48be"))
        #expect(ToneMapper.filters(mapping: .reinhard, peakLuminance: 5, depth: .eight).contains("peak=1.0"))
        #expect(ToneMapper.filters(mapping: .hable, peakLuminance: 1e9, depth: .eight).contains("peak=100.0"))
    }
}
