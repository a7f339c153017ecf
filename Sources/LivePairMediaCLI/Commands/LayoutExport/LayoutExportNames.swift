import LivePairFormats

/// The names an export layout gives files and folders.
enum LayoutExportNames {
    /// The stem of a file name (before its last dot; the whole name without one).
    static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The last component of a path.
    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The extension of a file name without its dot, or "".
    static func fileExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The four digits of an `IMG_1234` stem: Photos links an original to its render and adjustments
    /// only under `IMG_1234.*`, `IMG_E1234.*` and `IMG_1234.AAE` (osxphotos PR #1113: Image
    /// Capture's names; one letter changed and Photos no longer links them). Nil for other stems.
    static func photosNumber(_ stem: String) -> String? {
        let characters = Array(stem)
        guard characters.count == 8, String(characters[0..<4]) == "IMG_", characters[4...].allSatisfy(\.isASCIIDigit)
        else { return nil }
        return String(characters[4...])
    }

    /// True when none of `names` is written in this run (`used`) or present in `directory`.
    static func free(_ names: [String], in directory: String, used: Set<String>) -> Bool {
        names.allSatisfy { !used.contains($0) && FileSystemPath.linkStatus(directory + "/" + $0) == nil }
    }

    /// `stem`, else `stem-2`, `stem-3`, ...: the first stem whose `names` are all free.
    static func freeStem(_ stem: String, in directory: String, used: Set<String>, names: (String) -> [String]) -> String {
        var candidate = stem
        var number = 2
        while !free(names(candidate), in: directory, used: used) {
            candidate = "\(stem)-\(number)"
            number += 1
        }
        return candidate
    }

    /// An `IMG_nnnn` stem for an edited asset: its own when `stem` is one and free, else the first
    /// free number from 0001; nil when all 9,999 are taken (the asset then keeps `stem`).
    static func photosEditStem(_ stem: String, in directory: String, used: Set<String>, names: (String) -> [String]) -> String? {
        if photosNumber(stem) != nil, free(names(stem), in: directory, used: used) { return stem }
        for number in 1...9_999 {
            let digits = String(number)
            let candidate = "IMG_" + String(repeating: "0", count: 4 - digits.count) + digits
            if free(names(candidate), in: directory, used: used) { return candidate }
        }
        return nil
    }

    /// A folder name for an album title: `/`, `\`, `:` and control characters replaced by `_`,
    /// leading dots and spaces removed, at most 120 characters; `Untitled album` when nothing remains.
    static func folderName(_ title: String) -> String {
        var cleaned = String(
            String.UnicodeScalarView(
                title.unicodeScalars.map { scalar in
                    scalar.value < 0x20 || scalar.value == 0x7F || "/\\:".unicodeScalars.contains(scalar) ? "_" : scalar
                }))
        while cleaned.hasPrefix(".") || cleaned.hasPrefix(" ") { cleaned.removeFirst() }
        while cleaned.hasSuffix(" ") { cleaned.removeLast() }
        if cleaned.count > 120 { cleaned = String(cleaned.prefix(120)) }
        return cleaned.isEmpty ? "Untitled album" : cleaned
    }
}

extension Character {
    /// True for `0` to `9`.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
