import Foundation
import LivePairCLI

// Links no media library: the media commands run in `livepair-media`, next to this executable.
// The arguments are read as bytes (names that are not UTF-8 are kept, see FileSystemPath).
let status = LivePairTool.main(
    LivePairTool.commandLineArguments(), streams: .standard(), media: .besideThisExecutable())
exit(status.rawValue)
