/// The overall state of an asset: the most serious of its findings.
public enum AssetStatus: String, Sendable, Equatable {
    /// No finding, or only information.
    case valid
    /// At least one warning, no error.
    case warning
    /// At least one error.
    case invalid

    /// The status for a list of findings.
    public init(_ findings: [Finding]) {
        let worst = findings.map(\.severity).max() ?? .info
        self = worst == .error ? .invalid : worst == .warning ? .warning : .valid
    }
}

/// What kind of asset a validated asset is.
public enum AssetKind: String, Sendable, Equatable {
    /// A Live Photo: a still and a movie, both present or one missing (an orphan half).
    case livePhoto = "live-photo"
    /// A motion photo: one file with the video embedded.
    case motionPhoto = "motion-photo"
}

/// One Live Photo or motion photo with its findings.
public struct ValidatedAsset: Sendable, Equatable {
    /// Live Photo or motion photo.
    public let kind: AssetKind
    /// The identifier, when the halves carry one.
    public let contentIdentifier: ContentIdentifier?
    /// The still (or the motion photo file); nil when the still is missing.
    public let photo: String?
    /// The movie; nil when missing, and for motion photos.
    public let video: String?
    /// The findings about this asset and its files, most serious first, then by code and path
    /// (in a report filtered by severity, only those shown).
    public let findings: [Finding]
    /// The asset's verdict: the most serious of *all* its findings. Filtering a report by severity
    /// hides findings but never changes this.
    public let status: AssetStatus

    /// Memberwise initializer; findings are put in report order and the status is their most serious.
    public init(kind: AssetKind, contentIdentifier: ContentIdentifier?, photo: String?, video: String?, findings: [Finding]) {
        self.init(
            kind: kind, contentIdentifier: contentIdentifier, photo: photo, video: video, findings: findings,
            status: AssetStatus(findings))
    }

    /// The same asset showing only the findings at or above `minimum`, with its status unchanged.
    func showing(minimumSeverity minimum: Severity) -> ValidatedAsset {
        ValidatedAsset(
            kind: kind, contentIdentifier: contentIdentifier, photo: photo, video: video,
            findings: findings.filter { $0.severity >= minimum }, status: status)
    }

    private init(
        kind: AssetKind, contentIdentifier: ContentIdentifier?, photo: String?, video: String?, findings: [Finding],
        status: AssetStatus
    ) {
        self.kind = kind
        self.contentIdentifier = contentIdentifier
        self.photo = photo
        self.video = video
        self.findings = findings.sorted(by: Finding.reportOrder)
        self.status = status
    }
}

/// A file that is not part of any asset (a plain photo or movie, a duplicate, an unreadable file), with its findings.
public struct ValidatedFile: Sendable, Equatable {
    /// The path.
    public let path: String
    /// Its role.
    public let role: ResourceRole
    /// Its findings, in report order.
    public let findings: [Finding]

    /// Memberwise initializer; findings are put in report order.
    public init(path: String, role: ResourceRole, findings: [Finding]) {
        self.path = path
        self.role = role
        self.findings = findings.sorted(by: Finding.reportOrder)
    }
}

/// Everything validation found, in a deterministic order (assets by photo or video path, files by path).
public struct ValidationReport: Sendable, Equatable {
    /// Live Photos and motion photos.
    public var assets: [ValidatedAsset]
    /// Files outside any asset.
    public var files: [ValidatedFile]

    /// Memberwise initializer.
    public init(assets: [ValidatedAsset], files: [ValidatedFile]) {
        self.assets = assets
        self.files = files
    }

    /// Every finding, assets first.
    public var allFindings: [Finding] { assets.flatMap(\.findings) + files.flatMap(\.findings) }

    /// How many findings of each severity.
    public var countsBySeverity: [Severity: Int] {
        var counts: [Severity: Int] = [.info: 0, .warning: 0, .error: 0]
        for finding in allFindings { counts[finding.severity, default: 0] += 1 }
        return counts
    }

    /// True when any finding is an error.
    public var hasErrors: Bool { allFindings.contains { $0.severity == .error } }

    /// The report without findings below `minimum`, for display. At `info` everything is kept;
    /// above it only the assets and files that keep a finding are (`--severity error` shows only
    /// what has an error). Each asset keeps the status its full findings give (`--severity error`
    /// never makes an asset with a warning "valid"). Counts and exit statuses come from the
    /// unfiltered report.
    public func filtered(minimumSeverity minimum: Severity) -> ValidationReport {
        let shownAssets = assets.map { $0.showing(minimumSeverity: minimum) }
        let shownFiles = files.map {
            ValidatedFile(path: $0.path, role: $0.role, findings: $0.findings.filter { $0.severity >= minimum })
        }
        guard minimum > .info else { return ValidationReport(assets: shownAssets, files: shownFiles) }
        return ValidationReport(
            assets: shownAssets.filter { !$0.findings.isEmpty }, files: shownFiles.filter { !$0.findings.isEmpty })
    }
}

extension Finding {
    /// Most serious first, then by code, then by path.
    public static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
        if lhs.code != rhs.code { return lhs.code < rhs.code }
        return lhs.path < rhs.path
    }
}
