/// Text reports written straight into the output buffer: names and messages made safe for a
/// terminal (`TerminalText`) and counted nouns (`Wording`), without building intermediate lines.
extension OutputBuffer {
    /// Appends `text` as `TerminalText.escaped` shows it. Printable ASCII other than the
    /// backslash (most names and messages) is appended as it is, without a scan by scalar.
    package mutating func append(shown text: String) {
        var text = text
        let plain = text.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { return false }
            append(bytes: utf8)
            return true
        }
        if !plain { append(TerminalText.escaped(text)) }
    }

    /// Appends `value` in decimal.
    package mutating func append(decimal value: Int) { append(decimal: Int64(value)) }

    /// Appends "1 file", "2 files" (as `Wording.count`).
    package mutating func append(count number: Int, _ singular: String, plural: String? = nil) {
        append(decimal: number)
        append(UInt8(ascii: " "))
        if number == 1 {
            append(singular)
        } else if let plural {
            append(plural)
        } else {
            append(singular)
            append(UInt8(ascii: "s"))
        }
    }
}
