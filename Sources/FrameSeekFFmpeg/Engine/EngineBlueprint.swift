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

/// What opening the same media again takes, as a value another thread can open it from: for
/// another decoder of an engine that lands in seek windows (`FrameIndexing.asNeeded`), which
/// has no whole table to share and reads its own index (Matroska's Cues) and windows.
package struct EngineOpening: Sendable {
    let path: String
    let options: FFmpegEngine.Options
}

extension FFmpegEngine {
    /// How to open this media again, with the same options but no frame cache (another
    /// decoder lands each frame of its share once); nil for media in memory, which has no
    /// path to open.
    package var opening: EngineOpening? {
        guard pool.slots[0].demuxer.memory == nil else { return nil }
        var again = options
        again.cacheBytes = 0
        return EngineOpening(path: path, options: again)
    }

    /// Opens the media `opening` names, as `init(path:options:)` does.
    ///
    /// - Throws: `MediaError` as `init(path:options:)` does.
    package convenience init(_ opening: EngineOpening) throws(MediaError) {
        try self.init(path: opening.path, options: opening.options)
    }
}
