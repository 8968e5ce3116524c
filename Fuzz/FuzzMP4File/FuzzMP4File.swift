import FrameSeekFuzzing

#if FRAMESEEK_LIBFUZZER
    /// libFuzzer's entry point: one input, written to a file and opened from its path as an MP4.
    /// Built by `scripts/fuzz.sh mp4file`, with `-sanitize=fuzzer,address`; libFuzzer supplies `main`.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzMP4File(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        MP4FileExercise.run(bytes)
        return 0
    }
#else
    /// Without the fuzzer: runs the sequence on each file named and prints what it came to.
    @main
    enum FuzzMP4FileReplay {
        static func main() {
            FuzzScratch.replay(Array(CommandLine.arguments.dropFirst())) { bytes, _ in "\(MP4FileExercise.run(bytes))" }
        }
    }
#endif
