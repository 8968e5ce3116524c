// swift-tools-version: 6.2
// FrameSeek: precise seeking in video on Linux, decoding with FFmpeg.
import PackageDescription

let package = Package(
    name: "FrameSeek",
    products: [
        .library(name: "FrameSeek", targets: ["FrameSeek"]),
        .executable(name: "frameseek", targets: ["frameseek"]),
    ],
    targets: [
        // C system libraries. Each names the Debian package that provides it.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavfilter-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]
        ),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

        // Pure Swift: time, precisions, frame tables and the landing rules. Imports no C.
        .target(name: "FrameSeekCore"),
        // Every FFmpeg pointer lives here.
        .target(name: "FrameSeekFFmpeg", dependencies: ["FrameSeekCore", "CFFmpeg", "CXML2"]),
        // Pictures: orientation and PNG through libpng.
        .target(name: "FrameSeekImages", dependencies: ["FrameSeekCore", "FrameSeekFFmpeg", "CPNG"]),
        // Landing manifests: record where seeks land, check them again after an upgrade.
        .target(name: "FrameSeekManifest", dependencies: ["FrameSeekCore", "FrameSeekFFmpeg", "FrameSeekImages"]),
        // Resume: the SQLite progress store. Every SQLite pointer lives here.
        .target(name: "FrameSeekResume", dependencies: ["FrameSeekCore", "CSQLite"]),
        // The umbrella module users import.
        .target(name: "FrameSeek", dependencies: ["FrameSeekCore", "FrameSeekFFmpeg", "FrameSeekImages",
                                                  "FrameSeekManifest", "FrameSeekResume"]),
        // The command-line tool: its logic is a library so the tests can drive it in-process.
        .target(name: "FrameSeekCLI", dependencies: ["FrameSeek"]),
        // Release builds link with lld and pack their relative relocations (DT_RELR, glibc
        // 2.36, as in Debian 12): a static Swift runtime's 70,000 relocations shrink from
        // 1.7 MiB to 14 KiB, which a process no longer pages in at start (1.2 MiB less RSS).
        // lld also lays the functions the common commands run side by side
        // (hot-functions.order, from scripts/make-order-file.sh): the kernel maps 64 KiB of
        // code around each page fault, and 2,500 functions spread over 15 MiB kept 7 MiB of
        // code resident. A name the list no longer matches is skipped, without a warning.
        .executableTarget(name: "frameseek", dependencies: ["FrameSeekCLI"], exclude: ["hot-functions.order"],
                          linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-zpack-relative-relocs",
                                                         "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/frameseek/hot-functions.order",
                                                         "-Xlinker", "--no-warn-symbol-ordering"],
                                                        .when(configuration: .release))]),
        .executableTarget(name: "frameseek-benchmarks", dependencies: ["FrameSeek", "FrameSeekCLI"],
                          path: "Benchmarks/FrameSeekBenchmarks"),
        // The README's Player example, compiled and run so it cannot drift from the API.
        .executableTarget(name: "frameseek-player-example", dependencies: ["FrameSeek"],
                          path: "Examples/PlayerExample"),
        // The SDK's two documents (shared/spec) as a new user ports them, snippet by snippet,
        // compiled with every warning an error so a call shape that breaks, or an `await` that
        // picks a synchronous form, fails the build; SDKConformanceTests runs it.
        .target(name: "SDKConformance", dependencies: ["FrameSeek"], path: "Examples/SDKConformance",
                exclude: ["README.md"], swiftSettings: [.treatAllWarnings(as: .error)]),
        // Fuzzing: the sequences every fuzz input runs, shared with the tests that replay
        // Fixtures/fuzz-regressions. The two executables replay files in an ordinary build;
        // scripts/fuzz.sh builds them as libFuzzer targets (-sanitize=fuzzer,address).
        .target(name: "FrameSeekFuzzing", dependencies: ["FrameSeekFFmpeg", "FrameSeekImages", "FrameSeekCLI"],
                path: "Fuzz/FrameSeekFuzzing"),
        .executableTarget(name: "frameseek-fuzz-media", dependencies: ["FrameSeekFuzzing"], path: "Fuzz/FuzzMedia"),
        .executableTarget(name: "frameseek-fuzz-parsing", dependencies: ["FrameSeekFuzzing"], path: "Fuzz/FuzzParsing"),
        // The remote-input targets: HLS playlists, an MP4 read from its path (its box parser and
        // range readers), index cache entries, landing manifests and catalogs, and
        // RangedHTTPReader against a scripted loopback server.
        .executableTarget(name: "frameseek-fuzz-playlists", dependencies: ["FrameSeekFuzzing"], path: "Fuzz/FuzzPlaylists"),
        .executableTarget(name: "frameseek-fuzz-mp4file", dependencies: ["FrameSeekFuzzing"], path: "Fuzz/FuzzMP4File"),
        .executableTarget(name: "frameseek-fuzz-index-cache", dependencies: ["FrameSeekFuzzing"], path: "Fuzz/FuzzIndexCache"),
        .executableTarget(name: "frameseek-fuzz-landing", dependencies: ["FrameSeekFuzzing"], path: "Fuzz/FuzzLanding"),
        .executableTarget(name: "frameseek-fuzz-ranged-http", dependencies: ["FrameSeekFuzzing"], path: "Fuzz/FuzzRangedHTTP"),

        // Opens, seeks, steps, thumbnails and closes N times in a process of its own, for
        // CycleSoakTests to read the process's descriptors and memory without the other tests'.
        .executableTarget(name: "frameseek-cycles", dependencies: ["FrameSeekFFmpeg", "FrameSeekImages"],
                          path: "Tests/FrameSeekCycles"),
        // Saves progress into a SQLite store in a process of its own, for ProgressStoreProcessTests
        // to kill with SIGKILL mid-save and to run two at once against one file.
        .executableTarget(name: "frameseek-store-writer", dependencies: ["FrameSeekResume"],
                          path: "Tests/FrameSeekStoreWriter"),
        .target(name: "FrameSeekTestSupport", dependencies: ["FrameSeekCore", "FrameSeekFFmpeg", "CPNG"], path: "Tests/FrameSeekTestSupport"),
        .testTarget(name: "FrameSeekCoreTests", dependencies: ["FrameSeekCore", "FrameSeekTestSupport"]),
        .testTarget(name: "FrameSeekFFmpegTests", dependencies: ["FrameSeekFFmpeg", "FrameSeekImages", "FrameSeekTestSupport",
                                                             "FrameSeekFuzzing"]),
        .testTarget(name: "FrameSeekImagesTests", dependencies: ["FrameSeekImages", "FrameSeekFFmpeg", "FrameSeekTestSupport"]),
        .testTarget(name: "FrameSeekCLITests", dependencies: ["FrameSeekCLI", "FrameSeek", "FrameSeekTestSupport"]),
        // The Player over the real FFmpeg engine, through the umbrella module users import.
        .testTarget(name: "FrameSeekTests", dependencies: ["FrameSeek", "FrameSeekTestSupport"]),
        .testTarget(name: "FrameSeekResumeTests", dependencies: ["FrameSeekResume", "FrameSeekTestSupport"]),
        .testTarget(name: "SDKConformanceTests", dependencies: ["SDKConformance", "FrameSeek", "FrameSeekTestSupport"]),
        .testTarget(name: "FrameSeekManifestTests", dependencies: ["FrameSeekManifest", "FrameSeekTestSupport", "FrameSeek"]),
    ],
    swiftLanguageModes: [.v6]
)
