// A video stream's colour, as probe reports it, against ffprobe's own -show_streams (the
// fixtures' probe oracles): transfer, primaries, matrix and range, and the HDR side data the
// container carries (mastering display, content light level, Dolby Vision configuration).

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("probe: colour and HDR metadata", .ffmpegLog)
struct CLIColorTests {
    @Test(
        "probe --json's color is ffprobe's: names, dynamic range, mastering display, MaxCLL, Dolby Vision",
        arguments: FixtureCatalog.video)
    func colorMatchesFFprobe(_ fixture: Fixture) throws {
        let oracle = try #require(JSON.object(try String(contentsOfFile: Repository.fixture(fixture.probe), encoding: .utf8)))
        let streams = try #require(oracle["streams"] as? [[String: Any]])
        let expected = try #require(streams.first { JSON.int($0["index"]) == fixture.stream })
        let result = frameseek(["probe", fixture.path, "--stream", String(fixture.stream), "--json"])
        #expect(result.code == .success, "\(result.stderr.text)")
        let probed = try #require(result.out.first.flatMap(JSON.object))
        let stream = try #require((probed["streams"] as? [[String: Any]])?.first { JSON.int($0["index"]) == fixture.stream })
        let color = try #require(stream["color"] as? [String: Any], "\(fixture.id): no color object")
        // ffprobe prints "unknown" for an unspecified value, where FrameSeek says null.
        func stated(_ key: String) -> String? { (expected[key] as? String).flatMap { $0 == "unknown" ? nil : $0 } }
        #expect(color["transfer"] as? String == stated("color_transfer"), "\(fixture.id)")
        #expect(color["primaries"] as? String == stated("color_primaries"), "\(fixture.id)")
        #expect(color["matrix"] as? String == stated("color_space"), "\(fixture.id)")
        #expect(color["range"] as? String == stated("color_range"), "\(fixture.id)")
        let range =
            switch stated("color_transfer") {
            case "smpte2084": "pq";
            case "arib-std-b67": "hlg";
            default: "sdr"
            }
        #expect(color["dynamic_range"] as? String == range, "\(fixture.id)")

        let sideData = expected["side_data_list"] as? [[String: Any]] ?? []
        func side(_ type: String) -> [String: Any]? { sideData.first { $0["side_data_type"] as? String == type } }
        func ratio(_ value: Any?) -> Double? {
            guard let text = value as? String else { return nil }
            let parts = text.split(separator: "/").compactMap { Double($0) }
            return parts.count == 2 && parts[1] != 0 ? parts[0] / parts[1] : nil
        }
        if let mastering = side("Mastering display metadata") {
            let probedMastering = try #require(color["mastering_display"] as? [String: Any], "\(fixture.id)")
            let primaries = try #require(probedMastering["primaries"] as? [[Double]])
            for (index, name) in ["red", "green", "blue"].enumerated() {
                #expect(
                    primaries[index] == [ratio(mastering["\(name)_x"]), ratio(mastering["\(name)_y"])].compactMap { $0 },
                    "\(fixture.id) \(name)")
            }
            #expect(
                probedMastering["white_point"] as? [Double]
                    == [ratio(mastering["white_point_x"]), ratio(mastering["white_point_y"])].compactMap { $0 })
            #expect(JSON.double(probedMastering["max_luminance"]) == ratio(mastering["max_luminance"]))
            #expect(JSON.double(probedMastering["min_luminance"]) == ratio(mastering["min_luminance"]))
        } else {
            #expect(color["mastering_display"] is NSNull, "\(fixture.id): ffprobe lists no mastering display")
        }
        if let light = side("Content light level metadata") {
            let probedLight = try #require(color["content_light_level"] as? [String: Any], "\(fixture.id)")
            #expect(JSON.int(probedLight["max_cll"]) == JSON.int(light["max_content"]))
            #expect(JSON.int(probedLight["max_fall"]) == JSON.int(light["max_average"]))
        } else {
            #expect(color["content_light_level"] is NSNull, "\(fixture.id): ffprobe lists no content light level")
        }
        if let dovi = side("DOVI configuration record") {
            let probedDovi = try #require(color["dolby_vision"] as? [String: Any], "\(fixture.id)")
            #expect(JSON.int(probedDovi["profile"]) == JSON.int(dovi["dv_profile"]))
            #expect(JSON.int(probedDovi["level"]) == JSON.int(dovi["dv_level"]))
            #expect(JSON.int(probedDovi["bl_signal_compatibility_id"]) == JSON.int(dovi["dv_bl_signal_compatibility_id"]))
            #expect(probedDovi["rpu"] as? Bool == (JSON.int(dovi["rpu_present_flag"]) == 1))
        } else {
            #expect(color["dolby_vision"] is NSNull, "\(fixture.id): ffprobe lists no Dolby Vision record")
        }
    }

    @Test("the HDR fixtures say what they are, in the text too")
    func hdrFixturesInText() throws {
        let expectations = [
            ("hevc_pq_hdr10.s0", "PQ (smpte2084, bt2020), MaxCLL 1000 nits, mastered at 1000 nits"),
            ("hevc_hlg.s0", "HLG (arib-std-b67, bt2020)"),
            ("iphone_hevc_editlist.s0", "HLG (arib-std-b67, bt2020), Dolby Vision 8.4")
        ]
        for (id, text) in expectations {
            let fixture = try #require(FixtureCatalog.fixture(id))
            let result = frameseek(["probe", fixture.path])
            #expect(
                result.out.contains { $0.contains("stream \(fixture.stream): video hevc") && $0.contains(text) }, "\(id): \(result.out)")
        }
        let sdr = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        #expect(!frameseek(["probe", sdr.path]).out.contains { $0.contains("SDR") || $0.contains("HLG") || $0.contains("PQ (") })
    }
}
