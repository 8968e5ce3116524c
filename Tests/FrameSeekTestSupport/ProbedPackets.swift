// ffprobe's packet list of a file's first video stream, the independent truth a frame table read
// from a container's index is checked against.

/// The PTS and keyframe flag of every packet of `path`'s first video stream, as ffprobe lists
/// them, in presentation order.
package func probedVideoPackets(_ path: String) throws -> [(pts: Int64, key: Bool)] {
    let csv = try runTool(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,flags", "-of", "csv=p=0", path])
    var probed: [(pts: Int64, key: Bool)] = []
    for line in csv.split(whereSeparator: \.isNewline) {
        let fields = line.split(separator: ",")
        guard let pts = fields.first.flatMap({ Int64($0) }) else { continue }
        probed.append((pts, fields.count > 1 && fields[1].hasPrefix("K")))
    }
    return probed.sorted { $0.pts < $1.pts }
}
