import LivePairFormats

extension LivePairTool {
    /// The process's arguments without the program name, read as bytes: `CommandLine.arguments`
    /// replaces bytes that are not valid UTF-8 (a file name in Latin-1), after which the path no
    /// longer names the file. Each argument is decoded as `FileSystemPath` describes.
    public static func commandLineArguments() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { FileSystemPath.string(cString: $0) }
        }
    }
}
