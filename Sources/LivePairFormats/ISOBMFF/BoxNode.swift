/// A mutable ISO-BMFF / QuickTime box, built from a parsed `Box` or from scratch, that can be
/// edited and written back (see `BoxTree+Writing.swift`).
///
/// The model is lossless: a container keeps the bytes before its children (`prefix`, such as the
/// version and flags of an ISO `meta`) and any bytes after the last child that do not form a box
/// (`trailer`, such as the 4-byte zero terminator some writers put in `udta`), and every box keeps
/// how its size was encoded. An unmodified tree therefore serialises to the bytes it was parsed from.
/// Sizes are never stored: they are computed bottom-up when the tree is written.
public struct BoxNode: Sendable, Equatable {
    /// What a box holds.
    public enum Content: Sendable, Equatable {
        /// An opaque payload (everything after the header).
        case leaf([UInt8])
        /// `prefix`, then child boxes, then `trailer`.
        case container(prefix: [UInt8], children: [BoxNode], trailer: [UInt8])
    }

    /// The box type.
    public var type: FourCC
    /// How the size was (or should be) encoded. A `compact` box whose size no longer fits 32 bits
    /// is written `large`; `large` stays large; `toEnd` is written as size 0 only where the box is
    /// the last one of its container or file, and as a counted size elsewhere.
    public var sizeEncoding: BoxSizeEncoding
    /// The payload or children.
    public var content: Content

    /// A box with `content`.
    public init(type: FourCC, sizeEncoding: BoxSizeEncoding = .compact, content: Content) {
        self.type = type
        self.sizeEncoding = sizeEncoding
        self.content = content
    }

    /// A leaf box with an opaque payload.
    public static func leaf(_ type: FourCC, _ payload: [UInt8]) -> BoxNode {
        BoxNode(type: type, content: .leaf(payload))
    }

    /// A full box (version, flags, then `payload`) as a leaf.
    public static func fullBox(_ type: FourCC, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> BoxNode {
        var writer = ByteWriter(capacity: payload.count + 4)
        writer.fullBoxHeader(version: version, flags: flags)
        writer.append(payload)
        return leaf(type, writer.bytes)
    }

    /// A container box of `children`, with optional bytes before them (`prefix`).
    public static func container(_ type: FourCC, prefix: [UInt8] = [], _ children: [BoxNode]) -> BoxNode {
        BoxNode(type: type, content: .container(prefix: prefix, children: children, trailer: []))
    }

    /// Builds the mutable form of a parsed box. Container boxes (those the parser descended into)
    /// keep their children; the bytes between the header and the first child, and after the last
    /// child, are kept as `prefix` and `trailer`. Throws `unsupported` when the box's payload was
    /// not loaded (a box only scanned at the top level).
    public init(_ box: Box) throws(FormatError) {
        guard let payload = box.payload else {
            throw .unsupported(context: "\(box.type) box", reason: "its payload was not loaded, so it cannot be rewritten")
        }
        type = box.type
        sizeEncoding = box.sizeEncoding
        let childStart = BoxParser.childrenOffset(type: box.type, payload: payload)
        guard let childStart, childStart <= payload.remaining else {
            content = .leaf(Array(payload.bytes[payload.position..<payload.end]))
            return
        }
        let prefix = Array(payload.bytes[payload.position..<payload.position + childStart])
        var children: [BoxNode] = []
        children.reserveCapacity(box.children.count)
        var childEnd = payload.position + childStart
        for child in box.children {
            children.append(try BoxNode(child))
            childEnd += Int(child.size)
        }
        let trailer = childEnd < payload.end ? Array(payload.bytes[childEnd..<payload.end]) : []
        content = .container(prefix: prefix, children: children, trailer: trailer)
    }

    /// Parses `bytes` (whole boxes, for example a complete small file) into mutable boxes.
    public static func parseAll(_ bytes: [UInt8], limits: ParseLimits = .default) throws(FormatError) -> [BoxNode] {
        var reader = ByteReader(bytes)
        let boxes = try BoxParser(limits: limits).parseBoxes(&reader)
        var nodes: [BoxNode] = []
        for box in boxes { nodes.append(try BoxNode(box)) }
        return nodes
    }

    // MARK: Reading

    /// True for container boxes.
    public var isContainer: Bool {
        if case .container = content { return true }
        return false
    }

    /// The payload of a leaf box; nil for containers.
    public var payload: [UInt8]? {
        if case let .leaf(bytes) = content { return bytes }
        return nil
    }

    /// A reader over a leaf box's payload (empty for containers), for the format parsers.
    public func payloadReader() -> ByteReader {
        ByteReader(payload ?? [], context: "\(type)")
    }

    /// The children of a container (empty for leaves).
    public var children: [BoxNode] {
        get {
            if case let .container(_, children, _) = content { return children }
            return []
        }
        set {
            switch content {
            case let .container(prefix, _, trailer):
                content = .container(prefix: prefix, children: newValue, trailer: trailer)
            case .leaf:
                content = .container(prefix: [], children: newValue, trailer: [])
            }
        }
    }

    /// The first child of `type`.
    public func child(_ type: FourCC) -> BoxNode? { children.first { $0.type == type } }

    /// The index of the first child of `type`.
    public func childIndex(_ type: FourCC) -> Int? { children.firstIndex { $0.type == type } }

    /// The first descendant reached by following `path`.
    public func descendant(_ path: [FourCC]) -> BoxNode? {
        var current = self
        for type in path {
            guard let next = current.child(type) else { return nil }
            current = next
        }
        return current
    }

    // MARK: Editing

    /// Appends `child` to a container's children.
    public mutating func append(_ child: BoxNode) { children.append(child) }

    /// Inserts `child` at `index` among a container's children.
    public mutating func insert(_ child: BoxNode, at index: Int) { children.insert(child, at: index) }

    /// Replaces the first child of `child.type` with `child`, or appends it when there is none.
    public mutating func replaceOrAppend(_ child: BoxNode) {
        if let index = childIndex(child.type) {
            children[index] = child
        } else {
            children.append(child)
        }
    }

    /// Removes every child for which `shouldRemove` is true.
    public mutating func removeChildren(where shouldRemove: (BoxNode) -> Bool) {
        children.removeAll(where: shouldRemove)
    }

    /// Applies `body` to the descendant at `path`; returns false (and changes nothing) when the
    /// path does not exist.
    @discardableResult
    public mutating func modify<E: Error>(
        _ path: [FourCC], _ body: (inout BoxNode) throws(E) -> Void
    ) throws(E) -> Bool {
        guard let first = path.first else {
            try body(&self)
            return true
        }
        guard let index = childIndex(first) else { return false }
        var nodes = children
        let found = try nodes[index].modify(Array(path.dropFirst()), body)
        children = nodes
        return found
    }

    /// Applies `body` to every descendant (depth first, parents before children), including self.
    public mutating func visit<E: Error>(_ body: (inout BoxNode) throws(E) -> Void) throws(E) {
        try body(&self)
        guard isContainer else { return }
        var nodes = children
        for index in nodes.indices { try nodes[index].visit(body) }
        children = nodes
    }
}
