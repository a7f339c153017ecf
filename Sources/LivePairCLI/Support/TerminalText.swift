import LivePairFormats

/// Text from the file system (names) or from files (metadata, error messages quoting them) made
/// safe for text output: one record stays one line, and nothing is run by the terminal.
///
/// - a byte that is not valid UTF-8 (carried as described in `FileSystemPath`) is shown `\xE9`;
/// - a control character is shown `\n`, `\r`, `\t` or `\x1B` (C1 controls `\u{85}`);
/// - a character that reorders or splits lines (bidirectional overrides, U+2028) is shown `\u{202E}`;
/// - a backslash is shown `\\`, so that every shown name reads back to one name.
public enum TerminalText {
    /// `path` as shown in text output.
    public static func path(_ path: String) -> String { escaped(path) }

    /// An error line's text about `path`: "PATH: DESCRIPTION", or the description alone when it
    /// names the path already (so a path is never shown twice), escaped.
    public static func message(about path: String, _ description: String) -> String {
        escaped(description.hasPrefix(path + ":") ? description : path + ": " + description)
    }

    /// `text` with every character listed above escaped; other text is unchanged.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if let byte = FileSystemPath.escapedByte(scalar) {
                shown += "\\x" + hex(UInt32(byte), digits: 2)
            } else if !needsEscape(scalar) {
                shown.unicodeScalars.append(scalar)
            } else {
                switch scalar {
                case "\\": shown += "\\\\"
                case "\n": shown += "\\n"
                case "\r": shown += "\\r"
                case "\t": shown += "\\t"
                case _ where scalar.value < 0x80: shown += "\\x" + hex(scalar.value, digits: 2)
                default: shown += "\\u{" + hex(scalar.value, digits: 1) + "}"
                }
            }
        }
        return shown
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x5C, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return FileSystemPath.escapedByte(scalar) != nil
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
