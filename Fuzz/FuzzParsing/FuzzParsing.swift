import FrameSeekFuzzing

#if FRAMESEEK_LIBFUZZER
/// libFuzzer's entry point: one input, parsed as a time, a precision and a targets file.
/// Built by `scripts/fuzz.sh parsing`, with `-sanitize=fuzzer,address`; libFuzzer supplies
/// `main`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParsing(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    ParsingExercise.run(bytes)
    return 0
}
#else
import Foundation

/// Without the fuzzer: runs the parsing fuzz sequence on each file named and prints what the
/// parsers made of it.
@main
enum FuzzParsingReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                continue
            }
            let summary = ParsingExercise.run(Array(data))
            print("\(path): time \(summary.time.map { "\($0)" } ?? "-"), precision \(summary.precision.map { "\($0)" } ?? "-"), seek exit \(summary.exitCode.rawValue)")
        }
    }
}
#endif
