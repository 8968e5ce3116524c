// FileContents reads a regular file whole up to a limit, and refuses everything else by kind,
// told from stat(2) and again from the open descriptor. The truth for each case is the file the
// test made: the bytes it wrote, the kind mkfifo(3) or symlink(2) made, the size it gave.

#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Files read whole, bounded")
struct FileContentsTests {
    @Test("A file at the limit is read byte for byte; one byte more is refused, so is a larger sparse file")
    func limit() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("bytes")
        var generator = SeededGenerator(seed: 7)
        let bytes = Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try FileContents.read(path, limit: 10_000) == bytes)
        #expect(try FileContents.read(path, limit: 1 << 20) == bytes)
        #expect(throws: FileContents.Refusal.tooLarge(limit: 9_999)) { try FileContents.read(path, limit: 9_999) }

        let empty = folder.file("empty")
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(try FileContents.read(empty, limit: 0) == Data())

        // A gibibyte that takes no disk: refused from its size, before a byte is read.
        let sparse = folder.file("sparse")
        try #require(FileManager.default.createFile(atPath: sparse, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: sparse))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        #expect(throws: FileContents.Refusal.tooLarge(limit: 1 << 20)) { try FileContents.read(sparse, limit: 1 << 20) }
        #expect(FileContents.Refusal.tooLarge(limit: 256 << 20).description == "is larger than 256 MiB, the limit for it")
    }

    @Test("A FIFO, a device, a folder, a link loop and a missing path are refused by kind, without blocking")
    func kinds() throws {
        let folder = try TemporaryDirectory()
        let fifo = folder.file("fifo")
        try #require(mkfifo(fifo, 0o644) == 0)
        let loop = folder.file("loop")
        try #require(symlink(loop, loop) == 0)
        let toZero = folder.file("zero")
        try #require(symlink("/dev/zero", toZero) == 0)
        let cases: [(String, FileContents.Refusal)] = [
            (fifo, .notRegular(.fifo)), (toZero, .notRegular(.characterDevice)), ("/dev/null", .notRegular(.characterDevice)),
            (folder.path, .notRegular(.folder)), (loop, .notRegular(.linkLoop)), (folder.file("missing"), .missing),
            (folder.file("missing/below"), .missing)
        ]
        for (path, refusal) in cases {
            #expect(throws: refusal, "\(path)") { try FileContents.read(path, limit: 1 << 20) }
        }
        #expect(FileContents.Refusal.notRegular(.fifo).description == "is a FIFO, not a regular file")
        #expect(FileContents.Refusal.missing.description == "does not exist")
    }

    @Test("Text must be UTF-8: bytes that are not are refused, not read with replacement characters")
    func text() throws {
        let folder = try TemporaryDirectory()
        let good = folder.file("good"), bad = folder.file("bad")
        try Data("1.5\nčas 2\n".utf8).write(to: URL(fileURLWithPath: good))
        try Data([0x31, 0x0A, 0xC3, 0x28, 0x0A]).write(to: URL(fileURLWithPath: bad))
        #expect(try FileContents.readText(good, limit: 100) == "1.5\nčas 2\n")
        #expect(throws: FileContents.Refusal.notUTF8) { try FileContents.readText(bad, limit: 100) }
    }
}
