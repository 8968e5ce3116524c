import FrameSeekFuzzing

#if FRAMESEEK_LIBFUZZER
    /// libFuzzer's entry point: one input, parsed as an HLS playlist of either kind, its first line as an
    /// attribute list and as a program date.
    /// Built by `scripts/fuzz.sh playlists`, with `-sanitize=fuzzer,address`; libFuzzer supplies `main`.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzPlaylists(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        PlaylistExercise.run(bytes)
        return 0
    }
#else
    /// Without the fuzzer: runs the sequence on each file named and prints what it came to.
    @main
    enum FuzzPlaylistsReplay {
        static func main() {
            FuzzScratch.replay(Array(CommandLine.arguments.dropFirst())) { bytes, _ in "\(PlaylistExercise.run(bytes))" }
        }
    }
#endif
