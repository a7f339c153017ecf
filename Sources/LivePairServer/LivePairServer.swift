import LivePairLibrary
import LivePairLogging
import Synchronization

/// The HTTP service of `livepair serve`: uploads through an `Ingestor`, assets, resources and
/// derivatives of a `PhotoLibrary`, changes, health, metrics and the web page, behind bearer
/// tokens that each stand for one owner. It takes any opened `PhotoLibrary` (the embedded one
/// today); the routes talk to the library, the ingestor and the loader only. See docs/http.md.
public final class LivePairServer: Sendable {
    /// The daemon serving the routes.
    public let daemon: HTTPDaemon
    /// The tokens (reload them with `tokens.reload()`).
    public let tokens: TokenStore
    private let service: LivePairService

    /// Starts serving `library` through `ingestor` with `tokens`.
    /// - Throws: `HTTPError` when the spool directory cannot be made or the address cannot be bound.
    public init(
        library: PhotoLibrary, ingestor: Ingestor, tokens: TokenStore, derivatives: any DerivativeCache,
        configuration: ServerConfiguration, logger: Logger = Logger(label: "livepair.serve")
    ) throws(HTTPError) {
        SpoolDirectory.removeFilesOfDeadProcesses(in: configuration.spoolDirectory)
        self.tokens = tokens
        service = LivePairService(
            library: library, ingestor: ingestor, tokens: tokens, derivatives: derivatives, configuration: configuration,
            logger: logger)
        do {
            daemon = try HTTPDaemon(configuration: configuration.daemon, handler: service)
        } catch {
            service.jobWorker.stop()
            service.changeFeed.stop()
            throw error
        }
    }

    /// The port it listens on.
    public var port: UInt16 { daemon.port }

    /// Graceful shutdown: no new connections, long polls answered and event streams ended, uploads being ingested
    /// finished, other requests given `gracePeriod` seconds, then every connection closed.
    public func stop() {
        service.shutdown.store(true, ordering: .releasing)
        service.jobWorker.stop()
        service.changeFeed.stop()
        daemon.stop(gracePeriod: service.configuration.shutdownGracePeriod)
    }
}

/// The routes' shared state, and the daemon's handler.
final class LivePairService: ExchangeHandler {
    let library: PhotoLibrary
    let ingestor: Ingestor
    let configuration: ServerConfiguration
    let metrics = Metrics()
    let derivatives: DerivativeMaker
    /// The bounded pool every decode and encode runs on.
    let mediaPool: MediaWorkPool
    /// Claims the catalog's derivative jobs and makes them on `mediaPool`.
    let jobWorker: DerivativeJobWorker
    let log: RequestLog
    /// Commits heard, for long polls and event streams.
    let changeFeed: ChangeFeed
    /// Upload IDs being ingested (one upload per owner and ID at a time).
    let uploadsInFlight = InFlightKeys()
    /// Each owner's position in their own changes (`next` of `GET /v1/changes`).
    let changePositions: OwnerChangePositions
    /// Set when shutting down: long polls return at once.
    let shutdown = Atomic<Bool>(false)
    private let router: Mutex<Router?> = Mutex(nil)
    private let authentication: BearerAuthentication

    init(
        library: PhotoLibrary, ingestor: Ingestor, tokens: TokenStore, derivatives: any DerivativeCache,
        configuration: ServerConfiguration, logger: Logger
    ) {
        self.library = library
        self.ingestor = ingestor
        self.configuration = configuration
        mediaPool = MediaWorkPool(workers: configuration.mediaWorkers, queueLimit: configuration.mediaQueueLimit)
        self.derivatives = DerivativeMaker(library: library, cache: derivatives, metrics: metrics, pool: mediaPool)
        jobWorker = DerivativeJobWorker(
            library: library, maker: self.derivatives,
            claim: DerivativeJobClaim(node: DerivativeJobClaim.thisProcess, leaseSeconds: configuration.derivativeJobLease),
            leavingFree: 1, logger: logger)
        if library.configuration.access == .readWrite {
            jobWorker.start(claimers: configuration.backgroundJobs ?? max(1, mediaPool.workers - 1))
        }
        log = RequestLog(logger: logger)
        changeFeed = ChangeFeed(library: library)
        changePositions = OwnerChangePositions(library: library)
        authentication = BearerAuthentication(tokens: tokens)
    }

    /// The router, built once (its routes capture the service).
    private var currentRouter: Router {
        router.withLock { router in
            if let router { return router }
            var made = Router(routes: routes(), authentication: authentication, uploadLimit: configuration.uploadLimit)
            made.crossOrigin = configuration.crossOrigin
            router = made
            return made
        }
    }

    /// Every endpoint.
    func routes() -> [Route] {
        systemRoutes() + uploadRoutes() + assetRoutes() + resourceRoutes() + changeRoutes()
    }

    func plan(_ request: HTTPRequest) -> ExchangePlan { currentRouter.plan(request) }

    func spoolPath() -> String { SpoolDirectory.uniquePath(in: configuration.spoolDirectory, suffix: "upload") }

    func finished(_ record: ExchangeRecord) {
        metrics.record(record)
        log.record(record)
    }
}
