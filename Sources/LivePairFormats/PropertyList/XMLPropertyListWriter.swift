/// Writes a property list as XML in the layout Apple's writer uses (tab indentation, `<data>`
/// base64 in lines of 76 columns less 8 per level of indentation, dates as ISO 8601 UTC), so an
/// `.AAE` file read and written again keeps its bytes.
///
/// Dictionaries are written in their entry order (Apple's writer sorts keys; `AdjustmentSidecar`
/// gives its entries sorted). `uid` values have no XML form and are written as
/// `<dict><key>CF$UID</key><integer>...</integer></dict>`, as Apple does.
public enum XMLPropertyListWriter {
    /// The XML property list of `root`, ending with a newline.
    public static func write(_ root: PropertyListValue) -> [UInt8] {
        var output = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """.utf8)
        write(root, level: 0, into: &output)
        output.append(contentsOf: "</plist>\n".utf8)
        return output
    }

    private static func indent(_ level: Int, _ output: inout [UInt8]) {
        output.append(contentsOf: repeatElement(0x09, count: level))
    }

    private static func line(_ text: String, _ level: Int, _ output: inout [UInt8]) {
        indent(level, &output)
        output.append(contentsOf: text.utf8)
        output.append(0x0A)
    }

    private static func element(_ name: String, _ text: String, _ level: Int, _ output: inout [UInt8]) {
        line("<\(name)>\(escaped(text))</\(name)>", level, &output)
    }

    private static func write(_ value: PropertyListValue, level: Int, into output: inout [UInt8]) {
        switch value {
        case let .string(text): element("string", text, level, &output)
        case let .integer(number): element("integer", String(number), level, &output)
        case let .real(number): element("real", realText(number), level, &output)
        case let .boolean(flag): line(flag ? "<true/>" : "<false/>", level, &output)
        case let .date(date): element("date", date.iso8601, level, &output)
        case let .uid(number):
            write(.dictionary(PropertyListDictionary([PropertyListEntry("CF$UID", .integer(Int64(bitPattern: number)))])),
                  level: level, into: &output)
        case let .data(bytes):
            line("<data>", level, &output)
            let text = Array(Base64.encode(bytes).utf8)
            let width = max(16, 76 - 8 * level)
            var start = 0
            while start < text.count {
                let end = min(start + width, text.count)
                indent(level, &output)
                output.append(contentsOf: text[start..<end])
                output.append(0x0A)
                start = end
            }
            line("</data>", level, &output)
        case let .array(elements):
            guard !elements.isEmpty else { return line("<array/>", level, &output) }
            line("<array>", level, &output)
            for element in elements { write(element, level: level + 1, into: &output) }
            line("</array>", level, &output)
        case let .dictionary(dictionary):
            guard !dictionary.entries.isEmpty else { return line("<dict/>", level, &output) }
            line("<dict>", level, &output)
            for entry in dictionary.entries {
                element("key", entry.key, level + 1, &output)
                write(entry.value, level: level + 1, into: &output)
            }
            line("</dict>", level, &output)
        }
    }

    private static func realText(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    private static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            default: output.unicodeScalars.append(character)
            }
        }
        return output
    }
}
