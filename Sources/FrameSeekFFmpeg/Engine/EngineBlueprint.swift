import FrameSeekCore

/// What another engine needs to open the same media without indexing it again
/// (`FFmpegEngine.init(sharingIndexOf:)`).
package struct EngineBlueprint: Sendable {
    let path: String
    let options: FFmpegEngine.Options
    let memory: MemoryInput?
    let media: MediaDescription
    let frameTable: FrameTable
    let packetOrder: DecodeOrderByPTS
    let demuxerFlaggedFrames: Set<Int>
    let keyframePrefetch: KeyframePrefetch?
    let decoderParameters: StreamParameters
}

extension FFmpegEngine {
    /// What another engine needs to open this media without indexing it. The engine keeps no
    /// frame cache: a helper lands each frame of its share once.
    package var blueprint: EngineBlueprint {
        var helperOptions = options
        helperOptions.cacheBytes = 0
        return EngineBlueprint(
            path: path, options: helperOptions, memory: pool.slots[0].demuxer.memory, media: media,
            frameTable: frameTable, packetOrder: executor.packetOrder,
            demuxerFlaggedFrames: demuxerFlaggedFrames, keyframePrefetch: keyframePrefetch,
            decoderParameters: pool.opener.parameters)
    }
}
