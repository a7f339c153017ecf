extension Finding {
    /// A finding of the catalog rule `code`: its severity, and its default hint unless `hint` is given.
    /// A code outside the catalog is reported as a warning.
    public init(_ code: FindingCode, path: String, message: String, hint: String? = nil) {
        let rule = ValidationRule.rule(for: code)
        self.init(
            code: code, severity: rule?.severity ?? .warning, path: path, message: message,
            hint: hint ?? rule?.hint ?? "")
    }
}
