import FrameSeekFuzzing

#if FRAMESEEK_LIBFUZZER
    /// libFuzzer's entry point: one input, opened from memory as media. Built by
    /// `scripts/fuzz.sh media`, with `-sanitize=fuzzer,address`; libFuzzer supplies `main`.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzMedia(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        MediaExercise.run(bytes)
        return 0
    }
#else
    /// Without the fuzzer: runs the media fuzz sequence on each file named, named as the file
    /// is, and prints what it came to.
    @main
    enum FuzzMediaReplay {
        static func main() {
            FuzzScratch.replay(Array(CommandLine.arguments.dropFirst())) { bytes, name in
                "\(MediaExercise.run(bytes, name: name))"
            }
        }
    }
#endif
