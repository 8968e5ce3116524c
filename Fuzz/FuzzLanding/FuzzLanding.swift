import FrameSeekFuzzing

#if FRAMESEEK_LIBFUZZER
    /// libFuzzer's entry point: one input, as a landing manifest, a catalog and a shard's results file.
    /// Built by `scripts/fuzz.sh landing`, with `-sanitize=fuzzer,address`; libFuzzer supplies `main`.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzLanding(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        ManifestExercise.run(bytes)
        return 0
    }
#else
    /// Without the fuzzer: runs the sequence on each file named and prints what it came to.
    @main
    enum FuzzLandingReplay {
        static func main() {
            FuzzScratch.replay(Array(CommandLine.arguments.dropFirst())) { bytes, _ in "\(ManifestExercise.run(bytes))" }
        }
    }
#endif
