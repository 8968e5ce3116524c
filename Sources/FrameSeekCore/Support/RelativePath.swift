import Foundation

/// Paths written into one file to name another, relative, so that the two can move together.
public enum RelativePath {
    /// `path` as seen from the folder of `file` (`../media/clip.mp4`), both standardized
    /// (`..` removed), symbolic links kept.
    public static func of(_ path: String, fromDirectoryOf file: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent().pathComponents
        var shared = 0
        while shared < min(target.count - 1, base.count), target[shared] == base[shared] { shared += 1 }
        let ups = Array(repeating: "..", count: base.count - shared)
        return (ups + target[shared...]).joined(separator: "/")
    }
}
