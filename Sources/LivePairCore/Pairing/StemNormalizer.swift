/// Normalises file stems (names without folder and extension) so that the names vendors give the
/// two halves of one Live Photo compare equal. Used by the same-stem tie-break and by name matching.
///
/// Applied until nothing changes, case-insensitively (the result is lowercase):
/// - a trailing copy counter `(N)`, with or without a space before it: `IMG_1234(1)`, `IMG_1234 (2)`
///   (Google Takeout, browsers);
/// - a trailing `_HEVC`: `IMG_1234_HEVC` (icloudpd's movie names);
/// - the Photos-library resource suffixes after a UUID: `UUID_3` (the original movie),
///   `UUID_2_100_a` (rendered edits). Only after a UUID: a general `_N` rule would make
///   `DSC_01` and `DSC_02` equal.
///
/// The `IMG_E` prefix of edited stills is kept: an edit is another asset.
public enum StemNormalizer {
    /// The normalised form of `stem`.
    public static func normalize(_ stem: String) -> String {
        var scalars = Array(stem.lowercased().unicodeScalars)
        while true {
            let before = scalars.count
            stripCopyCounter(&scalars)
            stripSuffix(Array("_hevc".unicodeScalars), from: &scalars)
            stripPhotosLibrarySuffix(&scalars)
            if scalars.count == before { break }
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// `name(12)` or `name (12)` -> `name`, keeping at least one character.
    private static func stripCopyCounter(_ scalars: inout [Unicode.Scalar]) {
        guard scalars.last == ")", let open = scalars.lastIndex(of: "(") else { return }
        let digits = scalars[(open + 1)..<(scalars.count - 1)]
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return }
        var end = open
        while end > 0, scalars[end - 1] == " " { end -= 1 }
        guard end > 0 else { return }
        scalars.removeSubrange(end...)
    }

    private static func stripSuffix(_ suffix: [Unicode.Scalar], from scalars: inout [Unicode.Scalar]) {
        guard scalars.count > suffix.count, Array(scalars.suffix(suffix.count)) == suffix else { return }
        scalars.removeLast(suffix.count)
    }

    /// `<uuid>_3` or `<uuid>_2_100_a` -> `<uuid>`.
    private static func stripPhotosLibrarySuffix(_ scalars: inout [Unicode.Scalar]) {
        guard scalars.count > 36, isUUID(scalars[0..<36]) else { return }
        let rest = scalars[36...]
        // `_digits` groups, then optionally one `_letters` group.
        let groups = rest.split(separator: "_", omittingEmptySubsequences: false)
        guard groups.count >= 2, groups.first?.isEmpty == true else { return }
        let tail = groups.dropFirst()
        var sawLetters = false
        for (index, group) in tail.enumerated() {
            guard !group.isEmpty, !sawLetters else { return }
            if group.allSatisfy(isDigit) { continue }
            guard index > 0, group.allSatisfy({ ("a"..."z").contains($0) }) else { return }
            sawLetters = true
        }
        scalars.removeSubrange(36...)
    }

    private static func isUUID(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        for (index, scalar) in scalars.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard scalar == "-" else { return false }
            } else {
                guard scalar.properties.isASCIIHexDigit else { return false }
            }
        }
        return true
    }
}
