/// Reads a property list, XML or binary (`bplist00`), told apart by its first bytes.
///
/// Every reader is bounded by `ParseLimits`: the input by `maximumMetadataBytes`, nesting by
/// `maximumDepth`, values by `maximumPropertyListObjects` (a binary plist's shared references
/// count each time they are used, so a small file cannot expand into a huge tree), and the bytes
/// of the strings and data decoded by `maximumMetadataBytes`. Failures are `FormatError`s; a
/// cyclic binary plist throws `invalid`.
public struct PropertyListReader: Sendable {
    /// The two encodings of a property list.
    public enum Encoding: String, Sendable, Equatable {
        /// `<?xml ...?><plist>...</plist>`.
        case xml
        /// `bplist00`.
        case binary
    }

    /// The limits applied.
    public var limits: ParseLimits

    /// A reader with `limits`.
    public init(limits: ParseLimits = .default) {
        self.limits = limits
    }

    /// The encoding `bytes` start with: binary for `bplist`, XML for `<` (after an optional UTF-8
    /// byte-order mark and whitespace); nil otherwise.
    public static func encoding(of bytes: [UInt8]) -> Encoding? {
        if bytes.starts(with: Array("bplist".utf8)) { return .binary }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "<") ? .xml : nil
    }

    /// Reads the property list in `bytes` and returns its root value.
    public func read(_ bytes: [UInt8], context: String = "property list") throws(FormatError) -> PropertyListValue {
        try limits.checkMetadataSize(UInt64(bytes.count), context: context)
        switch Self.encoding(of: bytes) {
        case .binary?: return try BinaryPropertyListParser(bytes: bytes, limits: limits, context: context).parse()
        case .xml?: return try XMLPropertyListParser(limits: limits, context: context).parse(bytes)
        case nil: throw .unsupported(context: context, reason: "neither an XML nor a binary property list")
        }
    }
}

/// What one property list may still decode: values and string/data bytes.
struct PropertyListBudget {
    let limits: ParseLimits
    let context: String
    private(set) var values = 0
    private(set) var bytes = 0

    init(limits: ParseLimits, context: String) {
        self.limits = limits
        self.context = context
    }

    /// Counts one value of `byteCount` string or data bytes; throws past a limit.
    mutating func spend(bytes byteCount: Int = 0) throws(FormatError) {
        values += 1
        if values > limits.maximumPropertyListObjects {
            throw .limitExceeded(
                context: context, limit: "value count", value: UInt64(values),
                maximum: UInt64(limits.maximumPropertyListObjects))
        }
        if byteCount > limits.maximumMetadataBytes - bytes {
            throw .limitExceeded(
                context: context, limit: "decoded string and data bytes", value: UInt64(bytes) + UInt64(byteCount),
                maximum: UInt64(limits.maximumMetadataBytes))
        }
        bytes += byteCount
    }

    /// Throws when `depth` is past the nesting limit.
    func check(depth: Int) throws(FormatError) {
        if depth > limits.maximumDepth {
            throw .limitExceeded(
                context: context, limit: "nesting depth", value: UInt64(depth), maximum: UInt64(limits.maximumDepth))
        }
    }
}
