// `frameseek step` gathers its lines into few writes (BufferedOutput): nothing is lost or
// reordered, a terminal still sees each line at once, and a full buffer goes out by itself.

@testable import FrameSeekCLI
import Testing

/// A captured output that says it is a terminal.
private final class TerminalOutput: TextOutput {
    var text = ""
    func write(_ text: String) { self.text += text }
    var isTerminal: Bool { true }
}

@Suite("Buffered output")
struct BufferedOutputTests {
    @Test("Lines gather until flush, then arrive whole and in order")
    func gathersUntilFlush() {
        let captured = CapturedOutput()
        let lines = BufferedOutput(captured, interval: .seconds(3600))
        for i in 1...100 { lines.line("step \(i)") }
        #expect(captured.text.isEmpty, "written before the flush: \(captured.text.count) characters")
        lines.flush()
        #expect(captured.lines == (1...100).map { "step \($0)" })
        lines.flush()
        #expect(captured.lines.count == 100, "a second flush writes nothing again")
    }

    @Test("A terminal gets every line at once")
    func terminalPassesThrough() {
        let terminal = TerminalOutput()
        let lines = BufferedOutput(terminal)
        lines.line("one")
        #expect(terminal.text == "one\n")
        #expect(lines.isTerminal)
    }

    @Test("A full buffer is written without a flush")
    func fullBufferGoesOut() {
        let captured = CapturedOutput()
        let lines = BufferedOutput(captured, interval: .seconds(3600))
        let line = String(repeating: "x", count: 1023)
        for _ in 0..<(BufferedOutput.capacity / 1024) { lines.line(line) }
        #expect(captured.text.utf8.count == BufferedOutput.capacity)
    }

    @Test("Text that waited longer than the interval goes out with the next write")
    func slowRunStreams() {
        let captured = CapturedOutput()
        let lines = BufferedOutput(captured, interval: .zero)
        lines.line("one")
        #expect(captured.text == "one\n")
    }
}
