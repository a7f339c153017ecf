import Foundation
import LivePairCLI
import LivePairMediaCLI

// The media half of `livepair` (preview, make, restamp, convert, library, import, validate --deep):
// `livepair` replaces itself with this executable for those commands.
let status = MediaTool.main(Array(CommandLine.arguments.dropFirst()), streams: .standard())
exit(status.rawValue)
