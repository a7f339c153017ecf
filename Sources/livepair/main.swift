import Foundation
import LivePairCLI

let status = LivePairTool.main(Array(CommandLine.arguments.dropFirst()), streams: .standard())
exit(status.rawValue)
