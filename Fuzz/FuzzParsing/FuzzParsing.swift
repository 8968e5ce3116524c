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
    /// Without the fuzzer: runs the parsing fuzz sequence on each file named and prints what the
    /// parsers made of it.
    @main
    enum FuzzParsingReplay {
        static func main() {
            FuzzScratch.replay(Array(CommandLine.arguments.dropFirst())) { bytes, _ in
                let summary = ParsingExercise.run(bytes)
                return "time \(summary.time.map { "\($0)" } ?? "-"), precision \(summary.precision.map { "\($0)" } ?? "-"), "
                    + "seek exit \(summary.exitCode.rawValue)"
            }
        }
    }
#endif
