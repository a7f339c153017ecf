import Foundation
import LivePairCLI

let status = LivePairTool.main(LivePairTool.commandLineArguments(), streams: .standard())
exit(status.rawValue)
