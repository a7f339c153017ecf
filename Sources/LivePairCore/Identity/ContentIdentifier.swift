/// The identifier that pairs a Live Photo's still and movie: the still's maker-note tag 0x11 and
/// the movie's `com.apple.quicktime.content.identifier`. Apple writes an uppercase UUID; pairing
/// compares the exact text, as Photos does.
public struct ContentIdentifier: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The identifier exactly as stored (trailing NUL bytes and spaces removed).
    public let rawValue: String

    /// Wraps a stored identifier; nil when it is empty.
    public init?(rawValue: String) {
        let trimmed = String(rawValue.unicodeScalars.filter { $0 != "\0" }).trimmingSpaces
        guard !trimmed.isEmpty else { return nil }
        self.rawValue = trimmed
    }

    /// True when the identifier is a UUID in the 8-4-4-4-12 hexadecimal form (either case).
    public var isWellFormedUUID: Bool {
        let scalars = Array(rawValue.unicodeScalars)
        guard scalars.count == 36 else { return false }
        for (index, scalar) in scalars.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard scalar == "-" else { return false }
            } else {
                guard scalar.properties.isASCIIHexDigit else { return false }
            }
        }
        return true
    }

    /// The identifier.
    public var description: String { rawValue }

    /// Orders identifiers by their text.
    public static func < (lhs: ContentIdentifier, rhs: ContentIdentifier) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
