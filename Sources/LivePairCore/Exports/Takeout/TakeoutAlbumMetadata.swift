public import LivePairFormats

/// An album folder's own JSON (`metadata.json`, named in the account's language), which gives
/// the album its title.
public enum TakeoutAlbumMetadata {
    /// The names Takeout gives an album's metadata file, lowercased: English, French, German,
    /// Spanish, Italian, Portuguese, Dutch, Polish, Russian, Japanese, Korean, Chinese and others.
    /// A copy counter (`metadata(1).json`) is allowed.
    public static let fileNames: Set<String> = [
        "metadata.json", "métadonnées.json", "metadaten.json", "metadatos.json", "metadati.json",
        "metadados.json", "metagegevens.json", "metadane.json", "метаданные.json", "メタデータ.json",
        "메타데이터.json", "元数据.json", "中繼資料.json", "metadatat.json", "metadata-filer.json",
        "meta veriler.json", "metaadatok.json",
    ]

    /// Whether `fileName` (without folder) is an album metadata file's name.
    public static func isAlbumMetadataName(_ fileName: String) -> Bool {
        let lower = fileName.lowercased()
        if fileNames.contains(lower) { return true }
        // metadata(1).json
        guard lower.hasSuffix(").json"), let open = lower.lastIndex(of: "(") else { return false }
        let digits = lower[lower.index(after: open)..<lower.index(lower.endIndex, offsetBy: -6)]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return false }
        return fileNames.contains(String(lower[..<open]) + ".json")
    }

    /// The album title in `json` (`title`, also `albumData.title` in old exports); nil when none.
    public static func title(_ json: JSONElement) -> String? {
        let title = json["title"]?.stringValue ?? json["albumData"]?["title"]?.stringValue
        guard let title, !title.isEmpty else { return nil }
        return title
    }
}
