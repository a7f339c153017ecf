import Foundation
import LivePairCLI
import LivePairMediaCLI

// The media half of `livepair` (preview, make, restamp, convert, library, import, validate --deep):
// `livepair` replaces itself with this executable for those commands.
// The arguments are read as bytes (names that are not UTF-8 are kept, see FileSystemPath).
let status = MediaTool.main(LivePairTool.commandLineArguments(), streams: .standard())
exit(status.rawValue)
