internal import CFFmpeg
import FrameSeekCore

/// A picture's first four plane pointers and the bytes per row of each.
typealias PicturePlanes = (planes: [UnsafePointer<UInt8>?], strides: [Int32])

/// A video frame's picture: its size, pixel format, planes and colour fields.
extension Frame {
    /// A frame over planes it does not own, so a picture held as packed bytes can go through
    /// a filter graph (buffersrc copies such planes). The planes must outlive the frame's use.
    convenience init(
        wrapping planes: [UnsafePointer<UInt8>?], strides: [Int32], format: PixelFormat, width: Int, height: Int
    ) {
        self.init()
        withUnsafeMutableBytes(of: &pointer.pointee.data) { data in
            for i in 0..<min(4, planes.count) {
                data.storeBytes(
                    of: UnsafeMutablePointer(mutating: planes[i]),
                    toByteOffset: i * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                    as: UnsafeMutablePointer<UInt8>?.self)
            }
        }
        withUnsafeMutableBytes(of: &pointer.pointee.linesize) { linesize in
            for i in 0..<min(4, strides.count) {
                linesize.storeBytes(of: strides[i], toByteOffset: i * MemoryLayout<Int32>.stride, as: Int32.self)
            }
        }
        pointer.pointee.format = format.rawValue
        pointer.pointee.width = Int32(width)
        pointer.pointee.height = Int32(height)
    }

    /// Width in pixels.
    var width: Int { Int(pointer.pointee.width) }
    /// Height in pixels.
    var height: Int { Int(pointer.pointee.height) }
    /// The pixel format of a video frame.
    var pixelFormat: PixelFormat { PixelFormat(rawValue: pointer.pointee.format) }

    /// The first four plane pointers and their strides.
    var planes: PicturePlanes {
        let f = pointer.pointee
        let planes = withUnsafeBytes(of: f.data) { raw in
            (0..<4).map {
                UnsafePointer(
                    raw.load(
                        fromByteOffset: $0 * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                        as: UnsafeMutablePointer<UInt8>?.self))
            }
        }
        let strides = withUnsafeBytes(of: f.linesize) { raw in
            (0..<4).map { raw.load(fromByteOffset: $0 * MemoryLayout<Int32>.stride, as: Int32.self) }
        }
        return (planes, strides)
    }

    /// The planes packed one after another with no row padding, as FFmpeg's rawvideo encoder
    /// writes them.
    ///
    /// - Throws: `FFmpegError` from `av_image_get_buffer_size` (a format with no planes in
    ///   memory, such as a hardware surface, or an invalid size) or `av_image_copy_to_buffer`;
    ///   `AVERROR(ENOMEM)` when the packed planes are larger than one allocation may take
    ///   (`ProcessMemory.checkPictureBlock`).
    func packedPlanes() throws(FFmpegError) -> [UInt8] {
        let f = pointer.pointee
        let format = AVPixelFormat(rawValue: f.format)
        let size = try check(av_image_get_buffer_size(format, f.width, f.height, 1), "av_image_get_buffer_size")
        // Each plane FFmpeg allocated is within its limit; all of them packed in one need not be.
        try ProcessMemory.checkPictureBlock(
            width: Int(size), height: 1, bytesPerPixel: 1, for: "a \(f.width)x\(f.height) \(pixelFormat.name) picture, packed")
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let copied = withUnsafePointer(to: pointer.pointee.data) { data in
            withUnsafePointer(to: pointer.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        av_image_copy_to_buffer(&bytes, size, planes, strides, format, f.width, f.height, 1)
                    }
                }
            }
        }
        try check(copied, "av_image_copy_to_buffer")
        return bytes
    }

    var colorMatrix: ColorMatrix {
        get { ColorMatrix(rawValue: pointer.pointee.colorspace.rawValue) }
        set { pointer.pointee.colorspace = newValue.av }
    }

    var colorTransfer: ColorTransfer {
        get { ColorTransfer(rawValue: pointer.pointee.color_trc.rawValue) }
        set { pointer.pointee.color_trc = newValue.av }
    }

    var colorPrimaries: ColorPrimaries {
        get { ColorPrimaries(rawValue: pointer.pointee.color_primaries.rawValue) }
        set { pointer.pointee.color_primaries = newValue.av }
    }

    /// Whether the samples use the full range (`AVCOL_RANGE_JPEG`) or the limited one; nil when
    /// the frame does not say (`AVCOL_RANGE_UNSPECIFIED`). Set, it states one of the two.
    var isFullRange: Bool? {
        get {
            switch pointer.pointee.color_range {
            case AVCOL_RANGE_JPEG: true
            case AVCOL_RANGE_UNSPECIFIED: nil
            default: false
            }
        }
        set { pointer.pointee.color_range = newValue == true ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG }
    }

    /// The content light level the frame carries as side data (from the HEVC SEI); nil when none.
    var contentLightLevel: ContentLightLevel? {
        sideData(AV_FRAME_DATA_CONTENT_LIGHT_LEVEL, as: AVContentLightMetadata.self).map { ContentLightLevel($0) }
    }

    /// The mastering display the frame carries as side data; nil when none.
    var masteringDisplay: MasteringDisplay? {
        sideData(AV_FRAME_DATA_MASTERING_DISPLAY_METADATA, as: AVMasteringDisplayMetadata.self).map { MasteringDisplay($0) }
    }

    /// The frame's side data of `type` read as a `T`, or nil when it has none or too little.
    private func sideData<T>(_ type: AVFrameSideDataType, as: T.Type) -> T? {
        guard let side = av_frame_get_side_data(pointer, type), side.pointee.size >= MemoryLayout<T>.size,
            let data = side.pointee.data
        else { return nil }
        return UnsafeRawPointer(data).loadUnaligned(as: T.self)
    }
}
