import Foundation
import LivePairCLI

// Links no media library: the media commands run in `livepair-media`, next to this executable.
let status = LivePairTool.main(
    Array(CommandLine.arguments.dropFirst()), streams: .standard(), media: .besideThisExecutable())
exit(status.rawValue)
