public import LivePairFormats
public import LivePairMedia

/// Why a packaging operation (make, restamp, convert) failed. Nothing was written when it is thrown:
/// outputs are staged under temporary names and only renamed into place after they validated.
public enum PackagingError: Error, Sendable, Equatable {
    /// Reading or writing a container failed (a truncated or invalid input, an I/O error).
    case format(FormatError)
    /// Decoding, encoding or transcoding failed.
    case media(MediaError)
    /// The still is in a format the operation cannot use.
    case unsupportedStill(path: String, format: String)
    /// The movie is in a format the operation cannot use.
    case unsupportedVideo(path: String, reason: String)
    /// The file is not a motion photo with an embedded video.
    case notAMotionPhoto(path: String)
    /// An output already exists and overwriting was not asked for.
    case outputExists(path: String)
    /// An argument is out of range (a still time that is not a number, an empty identifier, ...).
    case invalidArgument(String)
    /// The written outputs failed validation; they were not kept.
    case invalidOutput(findings: [Finding])
    /// The two halves given are not one Live Photo (their content identifiers differ); nothing
    /// was written. `make` and `restamp` give both halves one identifier.
    case mismatchedHalves(findings: [Finding])
    /// An input is damaged (`InputDamageCheck`: sample tables outside the file, a cut-off JPEG
    /// scan, a still-image-time track whose time cannot be read, ...): packaging it would lose
    /// audio or frames or move the still time, so nothing was written.
    case damagedInput(findings: [Finding])

    /// A stable kebab-case code for reports and JSON output.
    public var code: String {
        switch self {
        case let .format(error):
            // The format layer's `read-failed` also covers failed writes here.
            if case .io = error { return "io-failed" }
            return error.code
        case let .media(error): return error.code
        case .unsupportedStill: return "unsupported-still"
        case .unsupportedVideo: return "unsupported-video"
        case .notAMotionPhoto: return "not-a-motion-photo"
        case .outputExists: return "output-exists"
        case .invalidArgument: return "invalid-argument"
        case .invalidOutput: return "invalid-output"
        case .mismatchedHalves: return "identifier-mismatch"
        case .damagedInput: return "damaged-input"
        }
    }

    /// What went wrong, for people.
    public var message: String {
        switch self {
        case let .format(error): return error.description
        case let .media(error): return error.description
        case let .unsupportedStill(path, format): return "\(path): a \(format) still cannot be used here"
        case let .unsupportedVideo(path, reason): return "\(path): \(reason)"
        case let .notAMotionPhoto(path): return "\(path) is not a motion photo with an embedded video"
        case let .outputExists(path): return "\(path) already exists (use --overwrite to replace it)"
        case let .invalidArgument(text): return text
        case let .invalidOutput(findings):
            let errors = findings.filter { $0.severity == .error }
            return "the written pair failed validation: "
                + errors.map { "\($0.code): \($0.message)" }.joined(separator: "; ")
        case let .mismatchedHalves(findings):
            return findings.filter { $0.severity == .error }.map(\.message).joined(separator: "; ")
                + " (give them one identifier first: livepair restamp, or livepair make)"
        case let .damagedInput(findings):
            return findings.filter { $0.severity == .error }.map(\.message).joined(separator: "; ")
                + "; nothing was written"
        }
    }
}
