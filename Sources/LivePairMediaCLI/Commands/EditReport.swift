import LivePair
import LivePairCLI
import LivePairFormats

/// Renders what `edit` wrote, as text and as JSON (schema version 1, docs/cli.md).
enum EditReport {
    /// The variation's name on the command line.
    static func name(_ variation: PlaybackVariation) -> String {
        variation == .longExposure ? "long-exposure" : variation.rawValue
    }

    /// The JSON object for a rendered edit.
    static func json(_ result: RenderedLivePhotoEdit) -> JSONElement {
        let settings = result.settings
        return .object([
            ("schemaVersion", .integer(1)),
            ("operation", .string("edit")),
            ("contentIdentifier", .string(result.contentIdentifier)),
            ("photo", .object([("path", .string(result.photoPath)), ("handling", .string("encoded"))])),
            ("video", .object([("path", .string(result.videoPath)), ("handling", .string(result.movieHandling.rawValue))])),
            ("adjustments", .object([("path", .string(result.adjustmentsPath))])),
            ("stillImageTime", .number(result.stillImageTime)),
            ("keyPhotoTime", .number(result.photoTime)),
            ("renderedRange", .array([.number(result.renderedRange.lowerBound), .number(result.renderedRange.upperBound)])),
            ("frameCount", .integer(Int64(result.frameCount))),
            ("audio", .bool(result.hasAudio)),
            ("settings", .object([
                ("keyPhoto", settings.photoTime.map(JSONElement.number) ?? .null),
                ("trim", settings.trim.map { .array([.number($0.lowerBound), .number($0.upperBound)]) } ?? .null),
                ("muted", .bool(settings.isMuted)),
                ("volume", .number(settings.audioVolume)),
                ("variation", .string(name(settings.playbackVariation))),
                ("filter", settings.filter.map { JSONElement.string($0.rawValue) } ?? .null),
            ])),
            ("unrendered", .array(result.unrenderedOperations.map(JSONElement.string))),
            ("findings", .array(result.findings.map(ValidateReport.findingJSON))),
        ])
    }

    /// The readable lines for a rendered edit.
    static func text(_ result: RenderedLivePhotoEdit) -> String {
        let seconds = PackagingReport.formatSeconds
        let range = "\(seconds(result.renderedRange.lowerBound))-\(seconds(result.renderedRange.upperBound)) s of the original"
        let sound = result.hasAudio ? "with sound" : "no sound"
        var lines: [String] = []
        lines.append("identifier: \(result.contentIdentifier)")
        lines.append("photo: \(TerminalText.path(result.photoPath))")
        lines.append("video: \(TerminalText.path(result.videoPath)) (\(result.frameCount) frames, \(range), \(sound))")
        lines.append("adjustments: \(TerminalText.path(result.adjustmentsPath))")
        lines.append("key photo: \(seconds(result.photoTime)) s (still-image time \(seconds(result.stillImageTime)) s)")
        lines.append("variation: \(name(result.settings.playbackVariation))")
        if let filter = result.settings.filter { lines.append("filter: \(filter.rawValue)") }
        if !result.unrenderedOperations.isEmpty {
            lines.append("not rendered: \(result.unrenderedOperations.map(TerminalText.escaped).joined(separator: ", "))")
        }
        lines += result.findings.map { "\($0.severity.rawValue): \($0.code): \(TerminalText.escaped($0.message))" }
        return lines.joined(separator: "\n")
    }
}
