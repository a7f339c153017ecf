/// Lays out help text to fit a terminal of 80 columns: prose paragraphs are refilled, option and
/// argument entries (`  --name <value>   Description`) wrap under their description column, usage
/// lines wrap under the first argument. Every command's help goes through `wrapped(_:width:)`.
package enum HelpText {
    /// The width help fits in.
    package static let width = 80

    /// One logical line: what comes first on its first line, and the indent of its other lines.
    private struct Paragraph {
        var firstPrefix: String
        var hangingIndent: Int
        var words: [Substring]
        var verbatim: String?
    }

    /// `text` laid out to `width` columns.
    package static func wrapped(_ text: String, width: Int = HelpText.width) -> String {
        var paragraphs: [Paragraph] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if body.isEmpty {
                paragraphs.append(Paragraph(firstPrefix: "", hangingIndent: 0, words: [], verbatim: ""))
            } else if let last = paragraphs.last, last.verbatim == nil, indent == last.hangingIndent, indent > 0
                || (indent == 0 && last.hangingIndent == 0 && !isHeading(body))
            {
                // The continuation of the paragraph or entry above.
                paragraphs[paragraphs.count - 1].words += body.split(separator: " ")
            } else if let column = descriptionColumn(line) {
                let head = String(line.prefix(column))
                let words = line.dropFirst(column).split(separator: " ")
                paragraphs.append(Paragraph(firstPrefix: head, hangingIndent: column, words: words, verbatim: nil))
            } else if body.hasPrefix("USAGE: ") || body.hasPrefix("Usage: ") {
                let words = body.split(separator: " ")
                let hang = indent + words.prefix(3).map(\.count).reduce(0, +) + 3
                paragraphs.append(
                    Paragraph(firstPrefix: String(repeating: " ", count: indent), hangingIndent: hang, words: words, verbatim: nil))
            } else if isHeading(body) {
                paragraphs.append(Paragraph(firstPrefix: "", hangingIndent: 0, words: [], verbatim: String(line)))
            } else {
                let hang = body.hasPrefix("OVERVIEW: ") ? indent + 10 : indent
                paragraphs.append(
                    Paragraph(
                        firstPrefix: String(repeating: " ", count: indent), hangingIndent: hang,
                        words: body.split(separator: " "), verbatim: nil))
            }
        }
        return paragraphs.map { fill($0, width: width) }.joined(separator: "\n")
    }

    /// True for a section heading such as `OPTIONS:`.
    private static func isHeading(_ body: Substring) -> Bool {
        body.hasSuffix(":") && body.allSatisfy { $0.isUppercase || $0 == " " || $0 == ":" }
    }

    /// The column where an entry's description starts (after a gap of two or more spaces, at
    /// column 16 or later), or nil for a line that is not an entry.
    private static func descriptionColumn(_ line: Substring) -> Int? {
        let characters = Array(line)
        guard characters.first == " " else { return nil }
        var index = characters.firstIndex { $0 != " " } ?? characters.count
        while index + 2 < characters.count {
            if characters[index] == " ", characters[index + 1] == " " {
                var end = index
                while end < characters.count, characters[end] == " " { end += 1 }
                return end >= 16 && end < characters.count ? end : nil
            }
            index += 1
        }
        return nil
    }

    /// The paragraph's words filled into lines of at most `width` columns.
    private static func fill(_ paragraph: Paragraph, width: Int) -> String {
        if let verbatim = paragraph.verbatim { return verbatim }
        var lines: [String] = []
        var line = paragraph.firstPrefix
        var lineHasWords = false
        let hanging = String(repeating: " ", count: paragraph.hangingIndent)
        for word in paragraph.words {
            if lineHasWords, line.count + 1 + word.count > width {
                lines.append(line)
                line = hanging
                lineHasWords = false
            } else if lineHasWords {
                line += " "
            }
            line += word
            lineHasWords = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
