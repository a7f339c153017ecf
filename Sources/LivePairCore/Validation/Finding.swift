/// How serious a finding is.
public enum Severity: String, Sendable, Equatable, Comparable, CaseIterable {
    /// Worth knowing; nothing to fix.
    case info
    /// Likely to cause trouble (a half missing, metadata in a non-Apple place); the files still load.
    case warning
    /// The asset is not a valid Live Photo or motion photo as it stands.
    case error

    private var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }

    /// Orders by seriousness: info < warning < error.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A stable kebab-case code naming one validation rule; every code is documented in `docs/validation.md`.
public struct FindingCode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The code, for example `missing-pair-video`.
    public let rawValue: String

    /// Wraps a code.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The code.
    public var description: String { rawValue }

    /// Orders codes alphabetically.
    public static func < (lhs: FindingCode, rhs: FindingCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One problem (or remark) about a file or an asset: what is wrong in the user's terms and how to fix it.
public struct Finding: Sendable, Hashable {
    /// The rule.
    public let code: FindingCode
    /// How serious it is.
    public let severity: Severity
    /// The file it is about.
    public let path: String
    /// What is wrong, in the user's terms.
    public let message: String
    /// How to fix it.
    public let hint: String

    /// Memberwise initializer.
    public init(code: FindingCode, severity: Severity, path: String, message: String, hint: String) {
        self.code = code
        self.severity = severity
        self.path = path
        self.message = message
        self.hint = hint
    }
}
