import FrameSeekCLI
#if canImport(Glibc)
import Glibc
#endif

let code = CommandLineTool.run(Array(CommandLine.arguments.dropFirst()),
                               output: FileDescriptorOutput(descriptor: 1),
                               errors: FileDescriptorOutput(descriptor: 2))
exit(code.rawValue)
