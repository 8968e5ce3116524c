// The README and the DocC articles point readers at files (`Sources/FrameSeekCore/...`); a file
// moved or renamed leaves a dead pointer nothing else notices. These tests read every
// `Sources/...` path those documents name and look for it in the repository.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("Every Sources path the README and the articles name exists")
struct DocumentedPathTests {
    /// The README and every DocC article, relative to the repository root.
    static let documents: [String] = {
        let articles = "Sources/FrameSeek/FrameSeek.docc"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent(articles).path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "\(articles)/\($0)" }
    }()

    /// Every `Sources/...` path in `text`: path characters after `Sources/`, without the
    /// punctuation that ends a sentence or a markdown link around it.
    static func sourcePaths(in text: String) -> [String] {
        let pathCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-./")
        var paths: [String] = []
        var rest = text[...]
        while let start = rest.range(of: "Sources/") {
            let end = rest[start.upperBound...].firstIndex { !pathCharacters.contains($0) } ?? rest.endIndex
            var path = String(rest[start.lowerBound..<end])
            while path.hasSuffix(".") || path.hasSuffix("/") { path.removeLast() }
            // Only a path at the start of a word: `FrameSeekSources/x` is not one.
            let isWordStart = start.lowerBound == text.startIndex || !pathCharacters.contains(text[text.index(before: start.lowerBound)])
            if isWordStart { paths.append(path) }
            rest = rest[end...]
        }
        return paths
    }

    @Test("The extraction finds paths in code spans, links and sentences, and nothing else")
    func extraction() {
        let text = """
            See `Sources/FrameSeekCore/Seeking/FrameTable+Landing.swift`, [the article](Sources/FrameSeek/FrameSeek.docc/Performance.md)
            and Sources/FrameSeekFFmpeg/. Not FrameSeekSources/x, nor Sources alone.
            """
        #expect(
            Self.sourcePaths(in: text) == [
                "Sources/FrameSeekCore/Seeking/FrameTable+Landing.swift", "Sources/FrameSeek/FrameSeek.docc/Performance.md",
                "Sources/FrameSeekFFmpeg"
            ])
    }

    @Test("The documents are found, and they name Sources paths")
    func documentsAreRead() throws {
        #expect(Self.documents.contains("README.md"))
        #expect(Self.documents.contains("Sources/FrameSeek/FrameSeek.docc/Architecture.md"))
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(!Self.sourcePaths(in: readme).isEmpty)
    }

    @Test("Every Sources path a document names exists", arguments: documents)
    func pathsExist(document: String) throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(document), encoding: .utf8)
        for path in Set(Self.sourcePaths(in: text)).sorted() {
            let exists = FileManager.default.fileExists(atPath: Repository.root.appendingPathComponent(path).path)
            #expect(exists, "\(document) names \(path), which does not exist")
        }
    }
}
