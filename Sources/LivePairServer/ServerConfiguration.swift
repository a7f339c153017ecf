/// How `LivePairServer` runs.
public struct ServerConfiguration: Sendable {
    /// Listening and connection handling.
    public var daemon: DaemonConfiguration
    /// The most bytes one upload may have (larger ones get 413 and nothing is kept).
    public var uploadLimit: Int64
    /// Where upload bodies are streamed while they arrive (on the library's file system, so the
    /// ingestor can hard-link them into the store instead of copying).
    public var spoolDirectory: String
    /// The longest a `GET /v1/changes` long poll waits, in seconds.
    public var longPollLimit: Double
    /// How long a SIGTERM waits for requests in flight before closing connections, in seconds.
    public var shutdownGracePeriod: Double
    /// The bearer token `GET /metrics` requires; nil: no token (the counters are service-wide
    /// totals that name no owner, asset or path, but show how busy the service is).
    public var metricsToken: String? = nil
    /// Threads decoding and encoding derivatives (requests' and background jobs'); nil: the core count.
    public var mediaWorkers: Int?
    /// Requests' derivatives waiting for a media thread at most; one more gets 503 with
    /// `Retry-After`. nil: four per media thread.
    public var mediaQueueLimit: Int?
    /// Threads claiming derivative jobs from the catalog and making them in the background (each
    /// accepted asset's placeholder, grid still and motion movie); 0: this node makes none (other
    /// nodes or `livepair library derivatives` do). nil: one less than the media threads, at least one.
    public var backgroundJobs: Int?
    /// Seconds after which a job a node claimed but did not finish (the node was killed) is claimed
    /// again by any node.
    public var derivativeJobLease: Double = 600
    /// The origins whose web pages may call the API from the browser (CORS); none by default.
    public var crossOrigin = CrossOriginPolicy()

    /// A configuration; uploads up to 1 GiB, long polls up to 30 s, 10 s to shut down.
    public init(
        daemon: DaemonConfiguration = DaemonConfiguration(), uploadLimit: Int64 = 1 << 30, spoolDirectory: String,
        longPollLimit: Double = 30, shutdownGracePeriod: Double = 10
    ) {
        self.daemon = daemon
        self.uploadLimit = uploadLimit
        self.spoolDirectory = spoolDirectory
        self.longPollLimit = longPollLimit
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}
