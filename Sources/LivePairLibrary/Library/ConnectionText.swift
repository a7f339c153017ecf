import Foundation

/// Connection strings as they may be shown: in any command's output, error or log, a password is
/// replaced by `***`, whatever form it came in.
public enum ConnectionText {
    /// `text` with every password hidden: the user-info of a URL of any scheme
    /// (`postgresql://user:secret@host`, `http://key:secret@host`), a `password=` (or
    /// `sslpassword=`) query argument, and a `password=` keyword of a libpq `key=value`
    /// connection string (quoted or not).
    public static func redacted(_ text: String) -> String {
        var result = withoutUserInfoPassword(text)
        for keyword in ["password", "sslpassword"] { result = withoutValue(of: keyword, in: result) }
        return result
    }

    /// Whether `text` is a libpq `key=value` connection string (`host=/run/pg dbname=photos ...`)
    /// rather than a file path: it starts with a libpq keyword followed by `=`.
    public static func isKeywordValueConnectionString(_ text: String) -> Bool {
        let trimmed = text.drop { $0 == " " }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let keyword = trimmed[..<equals].trimmingSpaces.lowercased()
        return libpqKeywords.contains(keyword)
    }

    private static let libpqKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "service", "options", "sslmode",
        "connect_timeout", "application_name", "target_session_attrs", "sslpassword",
    ]

    /// `scheme://user:secret@...` with `secret` replaced.
    private static func withoutUserInfoPassword(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0 == " " } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result += authority[...colon] + "***" + authority[at...]
            } else {
                result += authority
            }
            rest = rest[authorityEnd...]
        }
        return result + rest
    }

    /// Every `keyword=value` (after the start, a space, `?` or `&`, any case) with its value replaced.
    private static func withoutValue(of keyword: String, in text: String) -> String {
        let characters = Array(text)
        let lowered = Array(text.lowercased())
        let pattern = Array(keyword)
        guard lowered.count == characters.count else { return text }  // a case mapping changed the length: leave it
        var output: [Character] = []
        var index = 0
        while index < characters.count {
            let boundary = index == 0 || [" ", "?", "&", "\t"].contains(characters[index - 1])
            if boundary, index + pattern.count < characters.count, Array(lowered[index..<index + pattern.count]) == pattern {
                var cursor = index + pattern.count
                while cursor < characters.count, characters[cursor] == " " { cursor += 1 }
                if cursor < characters.count, characters[cursor] == "=" {
                    output += characters[index...cursor]
                    cursor += 1
                    while cursor < characters.count, characters[cursor] == " " { cursor += 1 }
                    cursor = endOfValue(characters, from: cursor)
                    output += Array("***")
                    index = cursor
                    continue
                }
            }
            output.append(characters[index])
            index += 1
        }
        return String(output)
    }

    /// Where a value starting at `start` ends: a quoted one after its closing quote, else at a space or `&`.
    private static func endOfValue(_ characters: [Character], from start: Int) -> Int {
        var cursor = start
        if cursor < characters.count, characters[cursor] == "'" {
            cursor += 1
            while cursor < characters.count, characters[cursor] != "'" {
                cursor += characters[cursor] == "\\" ? 2 : 1
            }
            return min(cursor + 1, characters.count)
        }
        while cursor < characters.count, ![" ", "&", "\t", "#"].contains(characters[cursor]) { cursor += 1 }
        return cursor
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
