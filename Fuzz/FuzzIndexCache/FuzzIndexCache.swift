import FrameSeekFuzzing

#if FRAMESEEK_LIBFUZZER
    /// libFuzzer's entry point: one input, as an index cache entry, whole and as the payload of a valid
    /// header.
    /// Built by `scripts/fuzz.sh index-cache`, with `-sanitize=fuzzer,address`; libFuzzer supplies `main`.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzIndexCache(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        IndexCacheExercise.run(bytes)
        return 0
    }
#else
    /// Without the fuzzer: runs the sequence on each file named and prints what it came to.
    @main
    enum FuzzIndexCacheReplay {
        static func main() {
            FuzzScratch.replay(Array(CommandLine.arguments.dropFirst())) { bytes, _ in "\(IndexCacheExercise.run(bytes))" }
        }
    }
#endif
