#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an S3-compatible server is and how to talk to it.
///
/// Requests use path-style addressing (`<endpoint>/<bucket>/<key>`), which every S3-compatible
/// server (SeaweedFS, MinIO, Ceph) and AWS accept, and are signed with AWS Signature Version 4 by
/// libcurl for the service `s3` in `region`.
public struct S3Configuration: Sendable, Equatable {
    /// The server's base URL, `http://HOST:PORT` or `https://HOST`, without a trailing slash.
    public var endpoint: String
    /// The signing region (`us-east-1` when the server does not care).
    public var region: String
    /// The key pair requests are signed with.
    public var credentials: S3Credentials
    /// Retries after server errors and transport failures.
    public var retry: S3RetryPolicy
    /// How long connecting may take, in milliseconds, before the attempt counts as a timeout.
    public var connectTimeoutMilliseconds: Int
    /// How long a transfer may stall (under 1 byte/s), in seconds, before it counts as a timeout.
    public var stallTimeoutSeconds: Int

    /// A configuration with explicit values.
    public init(
        endpoint: String, region: String = "us-east-1", credentials: S3Credentials, retry: S3RetryPolicy = S3RetryPolicy(),
        connectTimeoutMilliseconds: Int = 5_000, stallTimeoutSeconds: Int = 30
    ) {
        var endpoint = endpoint
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
        self.retry = retry
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.stallTimeoutSeconds = stallTimeoutSeconds
    }

    /// A configuration for `endpoint` whose credentials come from `AWS_ACCESS_KEY_ID` and
    /// `AWS_SECRET_ACCESS_KEY` and whose region comes from `AWS_REGION` (else `AWS_DEFAULT_REGION`,
    /// else `us-east-1`). Throws `missingCredentials` naming the variable that is unset or empty.
    /// The timeouts and attempts may be set with `LIVEPAIR_S3_CONNECT_TIMEOUT` (seconds, default
    /// 5), `LIVEPAIR_S3_STALL_TIMEOUT` (whole seconds, default 30) and `LIVEPAIR_S3_ATTEMPTS`
    /// (default 4); a value that is not a positive number is ignored.
    ///
    /// - Parameter variables: the environment to read; nil (the default) reads this process's.
    public static func fromEnvironment(endpoint: String, variables: [String: String]? = nil) throws(S3Error) -> S3Configuration {
        let environment = { (name: String) in value(of: name, in: variables) }
        guard let accessKey = environment("AWS_ACCESS_KEY_ID") else {
            throw S3Error(.missingCredentials, operation: "configure", endpoint: endpoint, detail: "AWS_ACCESS_KEY_ID is not set")
        }
        guard let secret = environment("AWS_SECRET_ACCESS_KEY") else {
            throw S3Error(
                .missingCredentials, operation: "configure", endpoint: endpoint, detail: "AWS_SECRET_ACCESS_KEY is not set")
        }
        let region = environment("AWS_REGION") ?? environment("AWS_DEFAULT_REGION") ?? "us-east-1"
        var configuration = S3Configuration(
            endpoint: endpoint, region: region, credentials: S3Credentials(accessKeyID: accessKey, secretAccessKey: secret))
        let positiveNumber = { (name: String) in positive(environment(name)) }
        if let seconds = positiveNumber("LIVEPAIR_S3_CONNECT_TIMEOUT") {
            configuration.connectTimeoutMilliseconds = max(1, Int(seconds * 1000))
        }
        if let seconds = positiveNumber("LIVEPAIR_S3_STALL_TIMEOUT") { configuration.stallTimeoutSeconds = max(1, Int(seconds)) }
        if let attempts = positiveNumber("LIVEPAIR_S3_ATTEMPTS") { configuration.retry.attempts = max(1, Int(attempts)) }
        return configuration
    }

    /// `text` as a positive finite number, nil otherwise.
    static func positive(_ text: String?) -> Double? {
        guard let text, let value = Double(text), value.isFinite, value > 0, value < 1e9 else { return nil }
        return value
    }

    /// The value of an environment variable in `variables` (nil: this process's environment), nil
    /// when unset or empty.
    static func value(of name: String, in variables: [String: String]?) -> String? {
        let text: String
        if let variables {
            guard let value = variables[name] else { return nil }
            text = value
        } else {
            guard let value = getenv(name) else { return nil }
            text = String(cString: value)
        }
        return text.isEmpty ? nil : text
    }
}
