import FrameSeekImages
import FrameSeekTestSupport
import Testing

/// Thumbnail sizes follow the display aspect: the sample aspect ratio and the display matrix.
struct ThumbnailSizeTests {
    @Test(
        "A portrait phone clip gives portrait thumbnails; an anamorphic one its display aspect",
        arguments: [
            ("iphone_hevc_editlist.s0", 51, 90),  // 1920x1080 coded, rotated -90: 1080x1920 shown
            ("android_h264_portrait_4k60.s0", 51, 90),  // 3840x2160 coded, rotated -90
            ("h264_anamorphic_sar64x45.s0", 160, 84),  // 320x240 coded at SAR 64:45 shows as 455x240
            ("h264_bframes_gop250.s0", 120, 90)  // square pixels, 4:3
        ])
    func sizes(id: String, width: Int, height: Int) throws {
        let fixture = try #require(FixtureCatalog.fixture(id))
        let generator = try ThumbnailGenerator(path: fixture.path)
        generator.maximumSize = (160, 90)
        #expect(generator.thumbnailSize == (width, height))
        let thumbnail = try generator.thumbnail(at: .zero)
        #expect(thumbnail.image.width == width && thumbnail.image.height == height)
    }
}
