@_exported import FrameSeekCore
@_exported import FrameSeekFFmpeg
@_exported import FrameSeekImages
