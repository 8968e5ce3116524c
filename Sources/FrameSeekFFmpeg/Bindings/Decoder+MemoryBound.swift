internal import CFFmpeg

extension Decoder {
    /// The most pictures this decoder holds itself while parked mid-GOP: its decoded picture
    /// buffer at the stream's level, plus the picture being decoded, one waiting for output,
    /// and one per frame thread.
    ///
    /// FFmpeg allocates decoder pictures from pools it does not report on, so the count comes
    /// from the codec's own limits instead: H.264 (Annex A `MaxDpbMbs`) and HEVC (A.4.2
    /// `maxDpbSize`) cap the pictures a conforming stream keeps by its level and picture
    /// size. Any other codec, or an unknown level, counts the most either standard allows, 16.
    var heldPictureCount: Int {
        let parameters = context.pointee
        let width = Int(max(parameters.coded_width, parameters.width))
        let height = Int(max(parameters.coded_height, parameters.height))
        let level = Int(parameters.level)
        let stored: Int
        switch parameters.codec_id {
        case AV_CODEC_ID_H264: stored = Self.h264PictureBufferFrames(level: level, width: width, height: height)
        case AV_CODEC_ID_HEVC: stored = Self.hevcPictureBufferFrames(level: level, width: width, height: height)
        default: stored = 16
        }
        let threads = max(1, Int(parameters.thread_count))
        return stored + 2 + (threads > 1 ? threads : 0)
    }

    /// The bytes of one picture at the size and format the decoder is set to now: the header's
    /// until the stream says otherwise, when the decoder follows the stream.
    var currentPictureBytes: Int {
        let parameters = context.pointee
        let width = max(parameters.coded_width, parameters.width)
        let height = max(parameters.coded_height, parameters.height)
        let format = parameters.pix_fmt == AV_PIX_FMT_NONE ? AV_PIX_FMT_YUV420P : parameters.pix_fmt
        return Int(max(0, av_image_get_buffer_size(format, width, height, 1)))
    }

    /// H.264 Table A-1: `MaxDpbFrames = min(MaxDpbMbs / (PicWidthInMbs * FrameHeightInMbs), 16)`.
    static func h264PictureBufferFrames(level: Int, width: Int, height: Int) -> Int {
        let maxDpbMbs: [Int: Int] = [
            9: 396, 10: 396, 11: 900, 12: 2376, 13: 2376, 20: 2376, 21: 4752,
            22: 8100, 30: 8100, 31: 18_000, 32: 20_480, 40: 32_768, 41: 32_768,
            42: 34_816, 50: 110_400, 51: 184_320, 52: 184_320, 60: 696_320,
            61: 696_320, 62: 696_320
        ]
        let macroblocks = max(1, ((width + 15) / 16) * ((height + 15) / 16))
        guard let limit = maxDpbMbs[level] else { return 16 }
        return min(max(1, limit / macroblocks), 16)
    }

    /// HEVC A.4.2: 6 pictures at the level's largest picture size, up to 16 for pictures a
    /// quarter of it. FFmpeg stores HEVC levels as 30 times the level number.
    static func hevcPictureBufferFrames(level: Int, width: Int, height: Int) -> Int {
        let maxLumaPs: Int
        switch level {
        case ...30: maxLumaPs = 36_864
        case ...60: maxLumaPs = 122_880
        case ...63: maxLumaPs = 245_760
        case ...90: maxLumaPs = 552_960
        case ...93: maxLumaPs = 983_040
        case ...123: maxLumaPs = 2_228_224
        case ...156: maxLumaPs = 8_912_896
        case ...186: maxLumaPs = 35_651_584
        default: return 16
        }
        guard level > 0 else { return 16 }
        let pictureSize = width * height
        if pictureSize <= maxLumaPs >> 2 { return 16 }
        if pictureSize <= maxLumaPs >> 1 { return 12 }
        if pictureSize <= (maxLumaPs * 3) >> 2 { return 8 }
        return 6
    }
}
