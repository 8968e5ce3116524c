// `ffmpeg -f framemd5` output read by PTS: for oracles of files that are not in the manifest
// (the damaged inputs), where frames FFmpeg does not produce make line numbers meaningless.

import Foundation

/// The MD5 of each frame by its PTS (the framemd5 `pts` column), from a file relative to
/// `Fixtures/`.
public func framemd5ByPTS(_ relative: String) throws -> [Int64: String] {
    let text = String(decoding: try Repository.stableContents(of: Repository.fixture(relative)), as: UTF8.self)
    var md5s: [Int64: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
        let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 6, let pts = Int64(fields[2]) else { throw OracleError("\(relative): bad line \(line)") }
        md5s[pts] = fields[5]
    }
    return md5s
}

/// The MD5 column of a fixture's framemd5 oracle (`oracle/<file>.s<stream>.framemd5`), one per
/// frame in order: the audio oracles too, which the fixture manifest does not list.
public func framemd5Column(_ fixture: Fixture) throws -> [String] {
    let name = URL(fileURLWithPath: fixture.file).lastPathComponent
    let data = try Repository.stableContents(of: Repository.fixture("oracle/\(name).s\(fixture.stream).framemd5"))
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
        .filter { !$0.hasPrefix("#") }
        .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
}
