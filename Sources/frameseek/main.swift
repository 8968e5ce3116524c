import FrameSeekCLI
import FrameSeekFFmpeg
#if canImport(Glibc)
    import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
ProcessMemory.mapLargeBlocksOnTheirOwn()
CommandDeadline.of(arguments)?.arm()
let code = CommandLineTool.run(
    arguments,
    output: FileDescriptorOutput(descriptor: 1),
    errors: FileDescriptorOutput(descriptor: 2))
exit(code.rawValue)
