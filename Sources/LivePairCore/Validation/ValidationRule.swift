/// One entry of the rule catalog: a finding code with its severity, a short title and the fix
/// hint used when a finding has no more specific one. Every rule is documented in `docs/validation.md`.
public struct ValidationRule: Sendable, Equatable {
    /// The stable code.
    public let code: FindingCode
    /// The severity every finding of this rule has.
    public let severity: Severity
    /// A short title, for listings.
    public let title: String
    /// The default fix hint.
    public let hint: String
    /// True for rules only deep validation (which decodes pixels) can report.
    public let requiresDeepValidation: Bool
    /// What a finding of this rule does to an upload (ingestion, and the library's check of a new Live Photo).
    public let uploadEffect: UploadEffect

    /// Memberwise initializer. `uploadEffect` defaults to `.rejectsUpload` for errors and
    /// `.acceptedWithFlag` for warnings and information.
    public init(
        code: FindingCode, severity: Severity, title: String, hint: String, requiresDeepValidation: Bool = false,
        uploadEffect: UploadEffect? = nil
    ) {
        self.code = code
        self.severity = severity
        self.title = title
        self.hint = hint
        self.requiresDeepValidation = requiresDeepValidation
        self.uploadEffect = uploadEffect ?? (severity == .error ? .rejectsUpload : .acceptedWithFlag)
    }

    /// The rule for `code`, or nil for a code outside the catalog.
    public static func rule(for code: FindingCode) -> ValidationRule? { catalogByCode[code] }

    private static let catalogByCode: [FindingCode: ValidationRule] = Dictionary(
        uniqueKeysWithValues: catalog.map { ($0.code, $0) })
}
