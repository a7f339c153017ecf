/// Turns an untrusted original file name into one safe to create inside an export directory.
enum ExportFilename {
    /// At most this many bytes of UTF-8 in a sanitized name.
    static let maximumLength = 200

    /// The sanitized name (see `LibraryAssetResource.exportFilename`).
    static func sanitized(_ name: String?, fallbackStem: String, fallbackExtension: String?) -> String {
        let fallback = fallbackStem + (fallbackExtension.map { "." + $0 } ?? "")
        guard let name else { return fallback }
        // Only the last component counts, for either separator: "../../etc/passwd" -> "passwd".
        let lastComponent = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var cleaned = String.UnicodeScalarView()
        for scalar in lastComponent.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == ":" {
                cleaned.append("_")
            } else {
                cleaned.append(scalar)
            }
        }
        var result = String(cleaned)
        while result.hasPrefix(".") || result.hasPrefix(" ") { result.removeFirst() }
        while result.hasSuffix(" ") { result.removeLast() }
        while result.utf8.count > maximumLength { result.removeFirst() }
        guard !result.isEmpty else { return fallback }
        return result
    }
}
