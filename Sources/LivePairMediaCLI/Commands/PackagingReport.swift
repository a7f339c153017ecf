import LivePair
import LivePairCLI
import LivePairFormats

/// Renders what `make`, `restamp` and `convert` wrote, as text and as JSON (schema version 1,
/// docs/cli.md), and their failures.
enum PackagingReport {
    /// The JSON object for a written Live Photo.
    static func json(_ result: PackagedLivePhoto, operation: String) -> JSONElement {
        .object([
            ("schemaVersion", .integer(1)),
            ("operation", .string(operation)),
            ("contentIdentifier", .string(result.contentIdentifier)),
            ("photo", .object([("path", .string(result.photoPath)), ("handling", .string(result.photoHandling.rawValue))])),
            ("video", .object([("path", .string(result.videoPath)), ("handling", .string(result.videoHandling.rawValue))])),
            ("stillImageTime", .number(result.stillImageTime)),
            ("findings", .array(result.findings.map(ValidateReport.findingJSON))),
            ("dropped", .array(result.dropped.map(JSONElement.string))),
        ])
    }

    /// The JSON object for a written motion photo.
    static func json(_ result: PackagedMotionPhoto) -> JSONElement {
        .object([
            ("schemaVersion", .integer(1)),
            ("operation", .string("convert-to-motion-photo")),
            ("path", .string(result.path)),
            ("videoOffset", .integer(Int64(result.videoOffset))),
            ("videoLength", .integer(Int64(result.videoLength))),
            ("presentationTimestampUs", .integer(result.presentationTimestampUs)),
            ("findings", .array(result.findings.map(ValidateReport.findingJSON))),
            ("dropped", .array(result.dropped.map(JSONElement.string))),
        ])
    }

    /// The JSON object for a failure.
    static func json(_ error: PackagingError, operation: String) -> JSONElement {
        var findings: [Finding] = []
        if case let .invalidOutput(found) = error { findings = found }
        if case let .mismatchedHalves(found) = error { findings = found }
        if case let .damagedInput(found) = error { findings = found }
        return .object([
            ("schemaVersion", .integer(1)),
            ("operation", .string(operation)),
            ("error", .object([("code", .string(error.code)), ("message", .string(error.message))])),
            ("findings", .array(findings.map(ValidateReport.findingJSON))),
        ])
    }

    /// The readable lines for a written Live Photo.
    static func text(_ result: PackagedLivePhoto) -> String {
        var lines = [
            "identifier: \(result.contentIdentifier)",
            "photo: \(TerminalText.path(result.photoPath)) (\(result.photoHandling.rawValue))",
            "video: \(TerminalText.path(result.videoPath)) (\(result.videoHandling.rawValue))",
            "still-image time: \(formatSeconds(result.stillImageTime)) s",
        ]
        lines += result.dropped.map { "dropped: \(TerminalText.escaped($0))" }
        lines += result.findings.map { "\($0.severity.rawValue): \($0.code): \(TerminalText.escaped($0.message))" }
        return lines.joined(separator: "\n")
    }

    /// The readable lines for a written motion photo.
    static func text(_ result: PackagedMotionPhoto) -> String {
        var lines = [
            "motion photo: \(TerminalText.path(result.path))",
            "video: " + Wording.count(Int(result.videoLength), "byte") + " at offset \(result.videoOffset)",
            "presentation timestamp: \(result.presentationTimestampUs) us",
        ]
        lines += result.dropped.map { "dropped: \(TerminalText.escaped($0))" }
        lines += result.findings.map { "\($0.severity.rawValue): \($0.code): \(TerminalText.escaped($0.message))" }
        return lines.joined(separator: "\n")
    }

    /// Reports `error` on standard error (or as JSON on standard output) and returns exit status 1.
    static func fail(_ error: PackagingError, operation: String, json: Bool, streams: OutputStreams) -> ExitCode {
        if json {
            streams.print(self.json(error, operation: operation).rendered())
        } else {
            streams.printError("Error: \(TerminalText.escaped(error.message))")
            var listed: [Finding] = []
            if case let .invalidOutput(findings) = error { listed = findings }
            if case let .damagedInput(findings) = error { listed = findings }
            for finding in listed {
                streams.printError("  \(finding.severity.rawValue): \(finding.code): \(TerminalText.escaped(finding.message))")
            }
        }
        return .failure
    }

    /// Seconds with up to six decimals, without trailing zeros.
    static func formatSeconds(_ value: Double) -> String {
        var text = String(Double((value * 1_000_000).rounded()) / 1_000_000)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

/// Options every packaging command shares: `--still-format`, `--codec`, `--quality`, `--overwrite`.
enum PackagingArguments {
    /// The option names with values.
    static let options: Set<String> = ["still-format", "codec", "quality"]
    /// The flags.
    static let flags: Set<String> = ["overwrite", "json"]

    /// Packaging options from parsed arguments.
    static func options(_ parsed: ParsedArguments) throws(UsageError) -> PackagingOptions {
        var options = PackagingOptions()
        if let value = parsed.options["still-format"] {
            guard let encoding = StillEncoding(rawValue: value.lowercased()) else {
                throw UsageError("The value '\(value)' is invalid for '--still-format heic|jpeg'.")
            }
            options.stillEncoding = encoding
        }
        if let value = parsed.options["codec"] {
            guard let codec = TranscodeCodec(rawValue: value.lowercased()) else {
                throw UsageError("The value '\(value)' is invalid for '--codec hevc|h264'.")
            }
            options.transcodeCodec = codec
        }
        if let value = parsed.options["quality"] {
            guard let quality = Int(value), (1...100).contains(quality) else {
                throw UsageError("The value '\(value)' is invalid for '--quality <1-100>'.")
            }
            options.stillQuality = quality
        }
        options.overwrite = parsed.has("overwrite")
        return options
    }

    /// The `--still-time` value, if given.
    static func stillTime(_ parsed: ParsedArguments) throws(UsageError) -> Double? {
        guard let value = parsed.options["still-time"] else { return nil }
        guard let seconds = Double(value), seconds.isFinite, seconds >= 0 else {
            throw UsageError("The value '\(value)' is invalid for '--still-time <seconds>': use a number of seconds, e.g. 1.5.")
        }
        return seconds
    }
}
