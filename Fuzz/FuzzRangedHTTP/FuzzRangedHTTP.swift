import FrameSeekFuzzing

#if FRAMESEEK_LIBFUZZER
    /// libFuzzer's entry point: one input, the script of a loopback server that serves a small MP4 to an
    /// engine opening it over HTTP.
    /// Built by `scripts/fuzz.sh ranged-http`, with `-sanitize=fuzzer,address`; libFuzzer supplies `main`.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzRangedHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        RangedHTTPExercise.run(bytes)
        return 0
    }
#else
    /// Without the fuzzer: runs the sequence on each file named and prints what it came to.
    @main
    enum FuzzRangedHTTPReplay {
        static func main() {
            FuzzScratch.replay(Array(CommandLine.arguments.dropFirst())) { bytes, _ in "\(RangedHTTPExercise.run(bytes))" }
        }
    }
#endif
