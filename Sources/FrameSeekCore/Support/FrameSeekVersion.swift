/// FrameSeek's own version, recorded in landing manifests beside the FFmpeg versions: a
/// landing that moved after an upgrade is traced to the release that moved it.
public enum FrameSeekVersion {
    /// The release this source is, as `major.minor.patch`.
    public static let current = "0.4.0"
}
