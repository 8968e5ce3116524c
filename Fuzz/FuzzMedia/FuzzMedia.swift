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
import Foundation

/// Without the fuzzer: runs the media fuzz sequence on each file named, as libFuzzer does when
/// given files, and prints what it came to. For a crash file under a debugger.
@main
enum FuzzMediaReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                continue
            }
            print("\(path): \(MediaExercise.run(Array(data), name: (path as NSString).lastPathComponent))")
        }
    }
}
#endif
