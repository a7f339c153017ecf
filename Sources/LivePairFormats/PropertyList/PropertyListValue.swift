/// One value of a property list (Apple's plist, XML or binary), as `.AAE` edit files store them.
public indirect enum PropertyListValue: Sendable, Equatable {
    /// `<string>`, or an ASCII / UTF-16 string object.
    case string(String)
    /// `<integer>` (binary plists' 128-bit integers are accepted when they fit 64 bits).
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// `<date>`.
    case date(PropertyListDate)
    /// `<data>`: the bytes, base64-decoded.
    case data([UInt8])
    /// `<array>`.
    case array([PropertyListValue])
    /// `<dict>`, entries in document order.
    case dictionary(PropertyListDictionary)
    /// A binary plist UID (keyed archives only; no XML form).
    case uid(UInt64)

    /// The dictionary of a `dictionary` value.
    public var dictionaryValue: PropertyListDictionary? {
        if case let .dictionary(dictionary) = self { return dictionary }
        return nil
    }

    /// The text of a `string` value.
    public var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The value of an `integer`.
    public var integerValue: Int64? {
        if case let .integer(value) = self { return value }
        return nil
    }

    /// The bytes of a `data` value.
    public var dataValue: [UInt8]? {
        if case let .data(bytes) = self { return bytes }
        return nil
    }

    /// The date of a `date` value.
    public var dateValue: PropertyListDate? {
        if case let .date(date) = self { return date }
        return nil
    }
}

/// A property-list dictionary: entries kept in the order read (or given), looked up by key.
public struct PropertyListDictionary: Sendable, Equatable {
    /// The entries, in order.
    public var entries: [PropertyListEntry]

    /// A dictionary of `entries`.
    public init(_ entries: [PropertyListEntry] = []) {
        self.entries = entries
    }

    /// The value of the first entry named `key`; setting replaces it in place, or appends.
    public subscript(key: String) -> PropertyListValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(PropertyListEntry(key, newValue))
            }
        }
    }

    /// The keys, in order.
    public var keys: [String] { entries.map(\.key) }
}

/// One key and value of a property-list dictionary.
public struct PropertyListEntry: Sendable, Equatable {
    /// The key.
    public var key: String
    /// The value.
    public var value: PropertyListValue

    /// Memberwise initializer.
    public init(_ key: String, _ value: PropertyListValue) {
        self.key = key
        self.value = value
    }
}
