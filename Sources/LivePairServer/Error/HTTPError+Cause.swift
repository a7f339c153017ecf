import LivePairLibrary
import LivePairPostgres
import LivePairS3

extension HTTPError {
    /// A 500 whose `cause` (for the server's error log line, never for the client) is taken from
    /// `error`: its description, and the fields an operator looks for first.
    public static func `internal`(_ message: String, cause error: any Error) -> HTTPError {
        var failure = HTTPError.internal(message)
        failure.cause = Self.cause(of: error)
        return failure
    }

    /// An error's log fields: `error` (its description) and, when it has them, `s3_status`,
    /// `s3_code`, `s3_operation`, `s3_endpoint`, `s3_bucket` (an object store's failure) or
    /// `sqlstate` (a PostgreSQL catalog's).
    public static func cause(of error: any Error) -> [String: String] {
        var cause = ["error": String(describing: error)]
        var s3: S3Error?
        var postgres: PostgresError?
        switch error {
        case let error as LibraryError:
            if case let .store(.objectStore(found)) = error { s3 = found }
            if case let .catalogServer(found) = error { postgres = found }
        case let error as ResourceStoreError:
            if case let .objectStore(found) = error { s3 = found }
        case let error as S3Error: s3 = error
        case let error as PostgresError: postgres = error
        default: break
        }
        if let s3 {
            cause["s3_status"] = String(s3.status)
            cause["s3_operation"] = s3.operation
            cause["s3_endpoint"] = s3.endpoint
            if let code = s3.code { cause["s3_code"] = code }
            if let bucket = s3.bucket { cause["s3_bucket"] = bucket }
        }
        if let state = postgres?.sqlState { cause["sqlstate"] = state }
        return cause
    }
}
