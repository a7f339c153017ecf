import LivePairFormats
public import LivePairMedia

/// Why a request ended without a final result.
public enum LoaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pair's metadata did not pass validation: the error findings (identifier mismatch,
    /// missing identifier, unreadable half...).
    case invalidPair(findings: [Finding])
    /// The request was cancelled (by `cancelRequest`, or by cancelling the consuming task).
    case cancelled
    /// A file could not be read or parsed: the path and the parser's error.
    case unreadable(path: String, reason: String)
    /// A file is not a still or movie format the loader decodes (`format` names it, for example
    /// `png`).
    case unsupportedFormat(path: String, format: String)
    /// The files given are not one still and one movie, or one motion photo: `paths`, and what
    /// they were (`given`). Reported with the code `unsupported-format` too.
    case unsupportedResources(paths: String, given: String)
    /// Decoding the still failed.
    case stillDecodeFailed(path: String, MediaError)
    /// Decoding the movie (its poster or frames) failed.
    case movieDecodeFailed(path: String, MediaError)

    /// A stable kebab-case code for reports and JSON.
    public var code: String {
        switch self {
        case .invalidPair: return "invalid-pair"
        case .cancelled: return "cancelled"
        case .unreadable: return "unreadable"
        case .unsupportedFormat, .unsupportedResources: return "unsupported-format"
        case .stillDecodeFailed: return "still-decode-failed"
        case .movieDecodeFailed: return "movie-decode-failed"
        }
    }

    /// A sentence that says what went wrong.
    public var description: String {
        switch self {
        case let .invalidPair(findings):
            return "invalid pair: " + findings.map { "\($0.code): \($0.message)" }.joined(separator: "; ")
        case .cancelled: return "cancelled"
        case let .unreadable(path, reason): return "\(path): unreadable: \(reason)"
        case let .unsupportedFormat(path, format): return "\(path): the loader does not decode \(format) files"
        case let .unsupportedResources(paths, given):
            return "\(paths): the loader takes one still and one movie, or one motion photo; got \(given)"
        case let .stillDecodeFailed(path, error): return "\(path): still decode failed: \(error)"
        case let .movieDecodeFailed(path, error): return "\(path): movie decode failed: \(error)"
        }
    }

    /// The still error for `error`, mapping `MediaError.cancelled` to `.cancelled`.
    static func still(_ path: String, _ error: MediaError) -> LoaderError {
        error == .cancelled ? .cancelled : .stillDecodeFailed(path: path, error)
    }

    /// The movie error for `error`, mapping `MediaError.cancelled` to `.cancelled`.
    static func movie(_ path: String, _ error: MediaError) -> LoaderError {
        error == .cancelled ? .cancelled : .movieDecodeFailed(path: path, error)
    }

    /// The error for a parser failure on `path`.
    static func unreadable(_ path: String, _ error: FormatError) -> LoaderError {
        .unreadable(path: path, reason: "\(error)")
    }
}
