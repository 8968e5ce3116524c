import FrameSeekCLI
#if canImport(Glibc)
    import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
// For maintainers, not listed in --help: rewrites the Command line article's usage block and
// option lists from the commands' declarations (a test checks the committed article).
if arguments.count == 2, arguments[0] == "--write-command-line-article" {
    do { try CommandLineArticle.rewrite(path: arguments[1]) } catch {
        FileDescriptorOutput(descriptor: 2).write("frameseek: \(arguments[1]): \(error)\n")
        exit(CommandLineTool.ExitCode.usageOrInput.rawValue)
    }
    exit(CommandLineTool.ExitCode.success.rawValue)
}
CommandDeadline.of(arguments)?.arm()
let code = CommandLineTool.run(
    arguments,
    output: FileDescriptorOutput(descriptor: 1),
    errors: FileDescriptorOutput(descriptor: 2))
exit(code.rawValue)
