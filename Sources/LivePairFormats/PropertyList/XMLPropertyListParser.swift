/// Parses an XML property list (`<plist version="1.0">`) with `XMLScanner`, bounded by
/// `ParseLimits` through `PropertyListBudget`.
struct XMLPropertyListParser {
    let limits: ParseLimits
    let context: String

    init(limits: ParseLimits, context: String) {
        self.limits = limits
        self.context = context
    }

    /// The element tree reduced to what a plist needs: names, and the text inside.
    private enum Token {
        case start(String, isPlist: Bool)
        case end(String)
        case text(String)
    }

    func parse(_ bytes: [UInt8]) throws(FormatError) -> PropertyListValue {
        var tokens: [Token] = []
        try XMLScanner().scan(bytes) { event in
            switch event {
            case let .start(name, _): tokens.append(.start(name.localName, isPlist: name.localName == "plist"))
            case let .end(name): tokens.append(.end(name.localName))
            case let .text(text):
                if case let .text(previous)? = tokens.last {
                    tokens[tokens.count - 1] = .text(previous + text)
                } else {
                    tokens.append(.text(text))
                }
            }
        }
        var cursor = Cursor(tokens: tokens, context: context)
        var budget = PropertyListBudget(limits: limits, context: context)
        guard case let .start(_, isPlist)? = cursor.peek else { throw cursor.fail("no root element") }
        if isPlist { cursor.index += 1 }
        let value = try parseValue(&cursor, &budget, depth: 0)
        if isPlist { try cursor.expectEnd("plist") }
        guard cursor.peek == nil else { throw cursor.fail("content after the root value") }
        return value
    }

    private struct Cursor {
        let tokens: [Token]
        let context: String
        var index = 0

        var peek: Token? { index < tokens.count ? tokens[index] : nil }

        func fail(_ reason: String) -> FormatError { .invalid(context: context, reason: reason) }

        mutating func expectEnd(_ name: String) throws(FormatError) {
            guard case let .end(found)? = peek, found == name else { throw fail("<\(name)> is not closed") }
            index += 1
        }

        /// The text of a simple element (`<key>`, `<string>`, ...) whose start was consumed, through its end.
        mutating func text(of name: String) throws(FormatError) -> String {
            var text = ""
            if case let .text(found)? = peek {
                text = found
                index += 1
            }
            try expectEnd(name)
            return text
        }
    }

    private func parseValue(
        _ cursor: inout Cursor, _ budget: inout PropertyListBudget, depth: Int
    ) throws(FormatError) -> PropertyListValue {
        try budget.check(depth: depth)
        guard case let .start(name, _)? = cursor.peek else { throw cursor.fail("expected a value element") }
        cursor.index += 1
        switch name {
        case "dict":
            try budget.spend()
            var dictionary = PropertyListDictionary()
            while true {
                if case .end("dict")? = cursor.peek {
                    cursor.index += 1
                    return .dictionary(dictionary)
                }
                guard case .start("key", _)? = cursor.peek else { throw cursor.fail("<dict> entry without <key>") }
                cursor.index += 1
                let key = try cursor.text(of: "key")
                try budget.spend(bytes: key.utf8.count)
                dictionary.entries.append(PropertyListEntry(key, try parseValue(&cursor, &budget, depth: depth + 1)))
            }
        case "array":
            try budget.spend()
            var elements: [PropertyListValue] = []
            while true {
                if case .end("array")? = cursor.peek {
                    cursor.index += 1
                    return .array(elements)
                }
                elements.append(try parseValue(&cursor, &budget, depth: depth + 1))
            }
        case "string":
            let text = try cursor.text(of: name)
            try budget.spend(bytes: text.utf8.count)
            return .string(text)
        case "integer":
            let text = try cursor.text(of: name).trimmingWhitespace
            try budget.spend()
            guard let value = Int64(text) ?? UInt64(text).map({ Int64(bitPattern: $0) }) else {
                throw cursor.fail("<integer> '\(text.prefix(40))' is not a 64-bit integer")
            }
            return .integer(value)
        case "real":
            let text = try cursor.text(of: name).trimmingWhitespace
            try budget.spend()
            guard let value = Double(text) else { throw cursor.fail("<real> '\(text.prefix(40))' is not a number") }
            return .real(value)
        case "true", "false":
            try cursor.expectEnd(name)
            try budget.spend()
            return .boolean(name == "true")
        case "date":
            let text = try cursor.text(of: name).trimmingWhitespace
            try budget.spend()
            guard let date = PropertyListDate(iso8601: text) else {
                throw cursor.fail("<date> '\(text.prefix(40))' is not an ISO 8601 UTC date")
            }
            return .date(date)
        case "data":
            let text = try cursor.text(of: name)
            guard let bytes = Base64.decode(text.utf8) else { throw cursor.fail("<data> is not base64") }
            try budget.spend(bytes: bytes.count)
            return .data(bytes)
        default:
            throw cursor.fail("<\(name)> is not a property-list element")
        }
    }
}

extension String {
    /// The text without leading and trailing ASCII whitespace.
    fileprivate var trimmingWhitespace: String {
        let bytes = Array(utf8)
        func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
