import Dispatch
import Foundation
import LivePairCLI
import LivePairLibrary
import LivePairLogging
import LivePairMedia
import LivePairServer

/// `livepair serve (--library DIR | --catalog URL --store URL) [--listen HOST:PORT] --tokens FILE`:
/// the HTTP service (uploads, assets, derivatives, changes, the web page) over a library, until
/// SIGTERM or SIGINT. Several processes on one catalog and store are one service.
public enum ServeCommand: Command {
    /// The subcommand name.
    public static let name = "serve"
    /// One line saying what it does.
    public static let abstract = MediaCommandCatalog.serve
    /// The usage line.
    public static let usage =
        "livepair serve (--library <dir> | --catalog <url> --store <url>) --tokens <file> [--listen <host>:<port>] [options]"
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Uploads go through the library's ingestor (pairing halves that arrive in any order);
        stills and motion for browsers (JPEG, H.264) are made by the loader and cached: each
        accepted asset's placeholder, grid still and motion movie in the background, from jobs
        queued in the catalog with the asset, and any other size on first request. Every request is logged as one JSON line on standard output (never a token; a
        hash of the owner). SIGHUP reloads the tokens file; SIGTERM or SIGINT stops gracefully:
        no new connections, uploads being ingested finish, others are aborted cleanly. Put a
        reverse proxy in front for TLS and HTTP/2 (an nginx example is in the HTTP API's
        documentation). The API is described there and at GET /v1/openapi.json.

        With --catalog and --store, several serve processes on one PostgreSQL catalog and one
        store are one service: an upload's pending half on one links with its partner uploaded
        to another, GET /v1/changes on one reports commits made on any, and a derivative one
        made is reused by all. The catalog must exist ('livepair library init --catalog <url>
        --store <url>' creates it).

        USAGE: \(usage)

        OPTIONS:
          --library <dir>         The library directory (created if needed).
          --catalog <url>         The multi-node form's catalog: postgresql://USER@/DB?host=/socket/dir
                                  (any libpq URI) or a SQLite file (default: $LIVEPAIR_CATALOG).
          --store <url>           Its store: a directory the nodes share, or s3://BUCKET/PREFIX
                                  (default: $LIVEPAIR_STORE).
          --s3-endpoint <url>     The S3 server of an s3:// store, http://HOST:PORT (default:
                                  $LIVEPAIR_S3_ENDPOINT; keys from AWS_ACCESS_KEY_ID,
                                  AWS_SECRET_ACCESS_KEY, AWS_REGION; local copies in
                                  $LIVEPAIR_S3_CACHE, at most $LIVEPAIR_S3_CACHE_MAX, default 4G).
          --tokens <file>         Lines 'TOKEN OWNER': each token sees only its owner's assets.
          --listen <host>:<port>  Address and port: 127.0.0.1:8080 (the default), localhost:8080,
                                  [::1]:8080, 0.0.0.0:8080 (port 0: any free port).
          --upload-limit <bytes>  Largest upload accepted (default: 1073741824); larger ones get 413.
          --threads <n>           Worker threads of the HTTP daemon (default: 2 per core, at least 4).
          --connection-timeout <seconds>
                                  Drop a connection idle this long, a slow client's too (default: 30).
          --request-timeout <seconds>
                                  Drop a request not received whole after this long, body included
                                  (a client trickling its upload; default: 600).
          --header-timeout <seconds>
                                  Drop a connection that has not sent a request's headers this long
                                  after it opened or after its previous response (default: 10).
          --max-connections-per-ip <n>
                                  Connections one client address may hold open (default: 64). The
                                  daemon's limit comes from the open-file limit, raised to its hard
                                  limit; when it is near, the connections waiting longest for
                                  headers are dropped first.
          --long-poll-limit <seconds>
                                  Longest wait of GET /v1/changes (default: 30).
          --metrics-token <token> The bearer token GET /metrics requires (default:
                                  $LIVEPAIR_METRICS_TOKEN; without one, /metrics is open: it shows
                                  service-wide counts, no owner, asset or path).
          --require-durable       Refuse a PostgreSQL catalog with synchronous_commit or fsync off
                                  (without it: a warning), where an acknowledged upload can be lost.
          --media-workers <n>     Threads decoding and encoding derivatives, for requests and
                                  background jobs alike (default: the core count).
          --media-queue <n>       Derivative requests waiting for a media thread at most (default:
                                  4 per media thread); one more is answered 503 with Retry-After.
                                  Derivatives are kept up to $LIVEPAIR_DERIVATIVE_CACHE_MAX (default
                                  4G), least recently used first.
          --background-jobs <n>   Threads claiming the catalog's derivative jobs and making them on
                                  the media threads, always leaving one of those for requests
                                  (default: media threads - 1, at least 1; 0: none on this node).
          --job-lease <seconds>   A node renews the lease of each job it makes every third of this
                                  time; a job whose lease ran out (its node was killed) is claimed
                                  again (default: 600).
          --cors-origins <origins>
                                  Origins whose web pages may call the API with a token from the
                                  browser (CORS), comma-separated: https://site.example,null, or
                                  '*' for any (default: none; same-origin pages only).
          -h, --help              Show help information.

        EXIT STATUS:
          0 stopped by a signal, 1 cannot open the library, read the tokens or listen, 64 usage error.
        """

    /// Runs `serve` until a termination signal.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(
                arguments, flags: ["require-durable"],
                options: [
                    "library", "catalog", "store", "s3-endpoint", "tokens", "listen", "upload-limit", "threads", "connection-timeout", "request-timeout",
                    "long-poll-limit", "header-timeout", "max-connections-per-ip", "metrics-token",
                    "media-workers", "media-queue", "background-jobs", "job-lease", "cors-origins",
                ])
        } catch {
            return usageFailure(error, streams: streams)
        }
        if parsed.has("help") {
            streams.print(HelpText.wrapped(help))
            return .success
        }
        let settings: ServeSettings
        do {
            settings = try ServeSettings(parsed)
        } catch {
            return usageFailure(error, streams: streams)
        }
        return serve(settings, streams: streams)
    }

    private static func serve(_ settings: ServeSettings, streams: OutputStreams) -> ExitCode {
        let tokens: TokenStore
        do throws(TokenStore.LoadError) {
            tokens = try TokenStore(contentsOf: settings.tokensPath)
        } catch {
            streams.printError("Error: \(error.description)")
            return .failure
        }
        LoggingSystem.bootstrap { _ in JSONLinesLogHandler(fileDescriptor: 1) }
        LargeBufferAllocation.mapSeparately()
        let logger = Logger(label: "livepair.serve")
        let server: LivePairServer
        do {
            let (library, places) = try open(settings.selection)
            let durability = CatalogDurabilityCheck.check(library, require: settings.requireDurable, streams: streams)
            guard durability.allowed else { return .failure }
            if !durability.problems.isEmpty {
                logger.warning("catalog not durable", metadata: ["settings": .string(durability.problems.joined(separator: ","))])
            }
            let ingestor = Ingestor(library: library, options: IngestOptions(uploadHandling: .move))
            var configuration = ServerConfiguration(
                daemon: settings.daemon, uploadLimit: settings.uploadLimit, spoolDirectory: places.spool)
            configuration.longPollLimit = settings.longPollLimit
            configuration.metricsToken = settings.metricsToken
            configuration.mediaWorkers = settings.mediaWorkers
            configuration.mediaQueueLimit = settings.mediaQueueLimit
            configuration.backgroundJobs = settings.backgroundJobs
            configuration.derivativeJobLease = settings.jobLease
            configuration.crossOrigin = CrossOriginPolicy(origins: settings.crossOrigins)
            server = try LivePairServer(
                library: library, ingestor: ingestor, tokens: tokens, derivatives: places.derivatives,
                configuration: configuration, logger: logger)
        } catch {
            streams.printError("Error: " + ConnectionText.redacted("\(error)"))
            return .failure
        }
        let address = settings.daemon.host.contains(":") ? "[\(settings.daemon.host)]:\(server.port)" : "\(settings.daemon.host):\(server.port)"
        // Signals are handled before `listening` is said: a SIGHUP sent as soon as a supervisor
        // reads that line must reload the tokens, not be lost (or, by default, end the process).
        let termination = SignalHandling(server: server, tokens: tokens, logger: logger)
        logger.info(
            "listening",
            metadata: [
                "address": .string(address), "port": .int(Int(server.port)),
                "tokens": .int(tokens.count), "connection_limit": .int(server.daemon.connectionLimit),
            ])
        streams.printError(
            "livepair serve: listening on http://\(address) with \(tokens.count) token\(tokens.count == 1 ? "" : "s")"
                + " (\(settings.tokensPath)).\nOpen the page in a browser with one of them: open http://\(address)/#token=YOUR_TOKEN")
        termination.waitForTermination()
        logger.info("stopped")
        return .success
    }

    /// Opens the selected library (an existing one: the multi-node form never creates a catalog,
    /// `livepair library init` does) and says where this node spools uploads and caches derivatives.
    private static func open(_ selection: LibrarySelection) throws -> (PhotoLibrary, ServePlaces) {
        guard selection.directory == nil else {
            let library = try selection.open()
            return (library, try ServePlaces(library: library))
        }
        var configuration = LibraryConfiguration()
        configuration.openMode = .openExisting
        configuration.hearsOtherProcessesAtOnce = true  // GET /v1/changes hears the other nodes' commits at once
        let library = try selection.open(configuration: configuration)
        return (library, try ServePlaces(sharedStore: library))
    }
}
