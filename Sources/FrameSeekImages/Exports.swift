@_exported import FrameSeekCore
