import Foundation
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
    /// The token `GET /metrics` requires (`--metrics-token`, else `LIVEPAIR_METRICS_TOKEN`), if any.
    var metricsToken: String?
    /// `--require-durable`: refuse a catalog that can lose acknowledged commits.
    var requireDurable: Bool
    /// `--media-workers` and `--media-queue` (nil: the defaults).
    var mediaWorkers: Int?
    var mediaQueueLimit: Int?
    /// `--background-jobs` (nil: the default) and `--job-lease`.
    var backgroundJobs: Int?
    var jobLease: Double
    /// `--cors-origins`: the origins whose pages may call the API (none by default).
    var crossOrigins: [String] = []

    init(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) {
        selection = try LibrarySelection(parsed)
        guard let tokens = parsed.options["tokens"] else { throw UsageError("Missing expected option '--tokens <file>'.") }
        guard parsed.positionals.isEmpty else { throw UsageError("Unexpected argument '\(parsed.positionals[0])'.") }
        tokensPath = tokens
        let listen = parsed.options["listen"] ?? "127.0.0.1:8080"
        guard let (host, port) = Self.listenAddress(listen) else {
            throw UsageError(
                "The value '\(listen)' is invalid for '--listen <host>:<port>': use for example 127.0.0.1:8080, localhost:8080 or [::1]:8080.")
        }
        daemon = DaemonConfiguration(host: host, port: port)
        uploadLimit = try Self.number(parsed, "upload-limit", default: 1 << 30, range: 1...Int64.max)
        if parsed.options["threads"] != nil {
            daemon.threads = Int(try Self.number(parsed, "threads", default: 4, range: 1...256))
        }
        daemon.connectionTimeout = Int(try Self.number(parsed, "connection-timeout", default: 30, range: 1...86_400))
        daemon.requestTimeout = Double(try Self.number(parsed, "request-timeout", default: 600, range: 1...86_400))
        daemon.headerTimeout = Double(try Self.number(parsed, "header-timeout", default: 10, range: 1...3600))
        daemon.connectionsPerAddress = Int(try Self.number(parsed, "max-connections-per-ip", default: 64, range: 1...65_536))
        longPollLimit = Double(try Self.number(parsed, "long-poll-limit", default: 30, range: 0...3600))
        requireDurable = parsed.has("require-durable")
        metricsToken = parsed.options["metrics-token"] ?? environment["LIVEPAIR_METRICS_TOKEN"]
        if let metricsToken, metricsToken.isEmpty || metricsToken.contains(where: { $0 == " " || $0 == "\t" || $0.isNewline }) {
            throw UsageError("The metrics token must be a non-empty word without spaces.")
        }
        if parsed.options["media-workers"] != nil {
            mediaWorkers = Int(try Self.number(parsed, "media-workers", default: 1, range: 1...256))
        }
        if parsed.options["media-queue"] != nil {
            mediaQueueLimit = Int(try Self.number(parsed, "media-queue", default: 0, range: 0...100_000))
        }
        if parsed.options["background-jobs"] != nil {
            backgroundJobs = Int(try Self.number(parsed, "background-jobs", default: 1, range: 0...256))
        }
        jobLease = Double(try Self.number(parsed, "job-lease", default: 600, range: 1...86_400))
        if let list = parsed.options["cors-origins"] {
            guard let origins = CrossOriginPolicy.parse(list) else {
                throw UsageError(
                    "The value '\(list)' is invalid for '--cors-origins <origins>': use '*' or origins such as https://site.example,http://localhost:3000 (no path).")
            }
            crossOrigins = origins
        }
    }

    /// `HOST:PORT` (an IPv4 address or a host name) or `[IPv6]:PORT`, as the host and port to listen on.
    static func listenAddress(_ text: String) -> (host: String, port: UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            return !host.isEmpty && host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) ? (host, port) : nil
        }
        let allowed = host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
        return !host.isEmpty && allowed ? (host, port) : nil
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
