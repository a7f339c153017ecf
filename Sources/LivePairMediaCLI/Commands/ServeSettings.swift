import LivePairCLI
import LivePairServer

/// `livepair serve`'s options, checked.
struct ServeSettings {
    /// The library: `--library DIR`, or `--catalog URL --store URL` (the multi-node form).
    var selection: LibrarySelection
    var tokensPath: String
    var daemon: DaemonConfiguration
    var uploadLimit: Int64
    var longPollLimit: Double
    /// `--media-workers` and `--media-queue` (nil: the defaults).
    var mediaWorkers: Int?
    var mediaQueueLimit: Int?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        selection = try LibrarySelection(parsed)
        guard let tokens = parsed.options["tokens"] else { throw UsageError("Missing expected option '--tokens <file>'.") }
        guard parsed.positionals.isEmpty else { throw UsageError("Unexpected argument '\(parsed.positionals[0])'.") }
        tokensPath = tokens
        let listen = parsed.options["listen"] ?? "127.0.0.1:8080"
        let parts = listen.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = UInt16(parts[1]), parts[0].split(separator: ".").count == 4 else {
            throw UsageError("The value '\(listen)' is invalid for '--listen <host>:<port>': use for example 127.0.0.1:8080.")
        }
        daemon = DaemonConfiguration(host: String(parts[0]), port: port)
        uploadLimit = try Self.number(parsed, "upload-limit", default: 1 << 30, range: 1...Int64.max)
        if parsed.options["threads"] != nil {
            daemon.threads = Int(try Self.number(parsed, "threads", default: 4, range: 1...256))
        }
        daemon.connectionTimeout = Int(try Self.number(parsed, "connection-timeout", default: 30, range: 1...86_400))
        daemon.requestTimeout = Double(try Self.number(parsed, "request-timeout", default: 600, range: 1...86_400))
        longPollLimit = Double(try Self.number(parsed, "long-poll-limit", default: 30, range: 0...3600))
        if parsed.options["media-workers"] != nil {
            mediaWorkers = Int(try Self.number(parsed, "media-workers", default: 1, range: 1...256))
        }
        if parsed.options["media-queue"] != nil {
            mediaQueueLimit = Int(try Self.number(parsed, "media-queue", default: 0, range: 0...100_000))
        }
    }

    private static func number(
        _ parsed: ParsedArguments, _ name: String, default defaultValue: Int64, range: ClosedRange<Int64>
    ) throws(UsageError) -> Int64 {
        guard let text = parsed.options[name] else { return defaultValue }
        guard let value = Int64(text), range.contains(value) else {
            throw UsageError("The value '\(text)' is invalid for '--\(name) <n>': use a whole number from \(range.lowerBound).")
        }
        return value
    }
}
