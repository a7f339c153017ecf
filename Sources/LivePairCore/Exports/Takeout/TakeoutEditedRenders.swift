/// Takeout's `-edited` renders: `IMG_1234-edited.jpg` beside `IMG_1234.jpg` is the same asset's
/// current version (the edit made in Google Photos), with no JSON of its own.
enum TakeoutEditedRenders {
    /// The suffixes Takeout gives renders, by account language, lowercased.
    static let suffixes = ["-edited", "-bearbeitet", "-modifié", "-editado", "-modificato", "-bewerkt", "-edytowane"]

    /// For each render among `names` (one folder's media names), the original it renders.
    static func originals(among names: [String]) -> [String: String] {
        var byStem: [String: [String]] = [:]
        for name in names { byStem[TakeoutSidecarMatcher.stem(name).lowercased(), default: []].append(name) }
        var result: [String: String] = [:]
        for name in names {
            let stem = TakeoutSidecarMatcher.stem(name).lowercased()
            guard let suffix = suffixes.first(where: { stem.hasSuffix($0) && stem.count > $0.count }) else { continue }
            let originalStem = String(stem.dropLast(suffix.count))
            guard let originals = byStem[originalStem]?.sorted() else { continue }
            let sameExtension = originals.first {
                TakeoutSidecarMatcher.fileExtension($0).lowercased() == TakeoutSidecarMatcher.fileExtension(name).lowercased()
            }
            result[name] = sameExtension ?? originals[0]
        }
        return result
    }
}
