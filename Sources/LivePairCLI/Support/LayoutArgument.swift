import LivePairCore

extension ParsedArguments {
    /// The export layout `--layout` names (nil when not given), or the usage error for a name
    /// that is none (`pair`, `validate` and `import` read it alike).
    package func exportLayout() throws(UsageError) -> ExportLayout? {
        guard let name = options["layout"] else { return nil }
        guard let layout = ExportLayout(rawValue: name) else {
            throw UsageError("The value '\(name)' is invalid for '--layout <layout>': use \(ExportLayout.names).")
        }
        return layout
    }
}
