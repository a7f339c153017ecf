/// One movie-level metadata value to write: a key and a typed value (`ilst` `data` atom).
public struct MovieMetadataEntry: Sendable, Equatable {
    /// The key namespace, `mdta` for reverse-DNS keys.
    public var namespace: FourCC
    /// The key, for example `com.apple.quicktime.content.identifier`.
    public var key: String
    /// The well-known type code (1 UTF-8, 21 signed integer, 22 unsigned integer, 23 float32, ...).
    public var typeCode: UInt32
    /// The value bytes, already encoded for `typeCode`.
    public var value: [UInt8]

    /// Memberwise initializer.
    public init(namespace: FourCC = "mdta", key: String, typeCode: UInt32, value: [UInt8]) {
        self.namespace = namespace
        self.key = key
        self.typeCode = typeCode
        self.value = value
    }

    /// A UTF-8 text value (type 1).
    public static func utf8(_ key: String, _ text: String) -> MovieMetadataEntry {
        MovieMetadataEntry(key: key, typeCode: 1, value: Array(text.utf8))
    }

    /// The Live Photo content identifier (`com.apple.quicktime.content.identifier`, UTF-8).
    public static func contentIdentifier(_ identifier: String) -> MovieMetadataEntry {
        utf8(QuickTimeMovie.contentIdentifierKey, identifier)
    }
}

/// Creates or updates a movie's `moov/meta` box (QuickTime form: no version and flags) holding
/// `hdlr mdta`, `keys` and `ilst`, as Apple writes it.
///
/// Existing keys and values are kept byte for byte; a key that already exists gets its value
/// replaced, a new key is appended to `keys` with a new `ilst` item.
public enum MovieMetadataWriter {
    /// Apple's `hdlr` payload in `moov/meta`: version/flags 0, no component type, subtype `mdta`,
    /// zero manufacturer, flags and mask, and an empty name.
    public static let handlerPayload: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0] + FourCC("mdta").bytes + [UInt8](repeating: 0, count: 14)

    /// Sets `entries` in `moov` (a `moov` box), creating `moov/meta` when it is absent.
    /// Throws `unsupported` when `moov/meta` exists with a handler other than `mdta`.
    public static func set(_ entries: [MovieMetadataEntry], in moov: inout BoxNode) throws(FormatError) {
        guard moov.type == "moov" else { throw .invalid(context: "\(moov.type)", reason: "not a moov box") }
        guard !entries.isEmpty else { return }
        var meta = moov.child("meta") ?? BoxNode.container("meta", [.leaf("hdlr", handlerPayload)])
        try set(entries, inMeta: &meta)
        moov.replaceOrAppend(meta)
    }

    /// Moves the `mdta` metadata that ffmpeg's `use_metadata_tags` writes in `moov/udta/meta` into
    /// `moov/meta`, where Apple writes it, and removes `udta/meta` (and `udta` when nothing else is
    /// left in it). ffmpeg reads only the first `keys` box of a movie and numbers every `ilst` by
    /// it, so with two tables it misnames values (LivePair's identifier in `moov/meta` read as
    /// `major_brand`, the first key of ffmpeg's table); with one table every reader finds every key.
    /// A key both hold keeps `moov/meta`'s value (what Apple's readers and exiftool show). A
    /// `udta/meta` of another handler, or a `moov/meta` that is not `mdta`, is left alone.
    public static func mergeUserData(in moov: inout BoxNode) throws(FormatError) {
        guard let udta = moov.child("udta"), let userMetaIndex = udta.childIndex("meta"),
            isMetadataHandler(udta.children[userMetaIndex]), moov.child("meta").map(isMetadataHandler) ?? true
        else { return }
        let userMeta = udta.children[userMetaIndex]
        let userKeys = try readKeys(userMeta.child("keys"))
        var meta = moov.child("meta") ?? BoxNode.container("meta", [.leaf("hdlr", handlerPayload)])
        var keys = try readKeys(meta.child("keys"))
        var items = try readItems(meta.child("ilst"))
        for item in try readItems(userMeta.child("ilst")) {
            let index = Int(item.type.rawValue) - 1
            guard userKeys.entries.indices.contains(index) else { continue }
            let key = userKeys.entries[index]
            guard !keys.entries.contains(where: { $0.namespace == key.namespace && $0.name == key.name }) else { continue }
            keys.entries.append(key)
            var moved = item
            moved.type = FourCC(rawValue: UInt32(keys.entries.count))
            items.append(moved)
        }
        store(keys, items, in: &meta)
        moov.replaceOrAppend(meta)
        try moov.modify(["udta"]) { (udta: inout BoxNode) throws(FormatError) in udta.children.remove(at: userMetaIndex) }
        moov.removeChildren { $0.type == "udta" && $0.isContainer && $0.children.isEmpty }
    }

    /// Whether `meta` has an `hdlr` of subtype `mdta`.
    private static func isMetadataHandler(_ meta: BoxNode) -> Bool {
        guard let hdlr = meta.child("hdlr") else { return false }
        var reader = hdlr.payloadReader()
        return (try? reader.skip(8)) != nil && (try? reader.fourCC()) == "mdta"
    }

    /// Removes the `mdta` keys named `keys` (and their values) from `moov/meta`; the other items
    /// are renumbered (an item's type is its key's 1-based index). Nothing changes when none is there.
    public static func remove(keys names: Set<String>, in moov: inout BoxNode) throws(FormatError) {
        guard let meta = moov.child("meta"), meta.child("keys") != nil else { return }
        let keys = try readKeys(meta.child("keys"))
        let removed = Set(keys.entries.indices.filter {
            keys.entries[$0].namespace == "mdta" && names.contains(String(decoding: keys.entries[$0].name, as: UTF8.self))
        })
        guard !removed.isEmpty else { return }
        var renumbered: [UInt32: UInt32] = [:]
        var kept = Keys(versionAndFlags: keys.versionAndFlags, entries: [])
        for index in keys.entries.indices where !removed.contains(index) {
            kept.entries.append(keys.entries[index])
            renumbered[UInt32(index + 1)] = UInt32(kept.entries.count)
        }
        let items = try readItems(meta.child("ilst")).compactMap { item -> BoxNode? in
            guard let number = renumbered[item.type.rawValue] else { return nil }
            var item = item
            item.type = FourCC(rawValue: number)
            return item
        }
        try moov.modify(["meta"]) { (meta: inout BoxNode) throws(FormatError) in
            if let index = meta.childIndex("keys") { meta.children[index] = keysBox(kept) }
            if let index = meta.childIndex("ilst") { meta.children[index].content = .container(prefix: [], children: items, trailer: []) }
        }
    }

    /// Sets `entries` in a `meta` box (either form) with `hdlr mdta`.
    public static func set(_ entries: [MovieMetadataEntry], inMeta meta: inout BoxNode) throws(FormatError) {
        if let hdlr = meta.child("hdlr") {
            var reader = hdlr.payloadReader()
            try reader.skip(8)
            let handler = try reader.fourCC()
            guard handler == "mdta" else {
                throw .unsupported(context: "moov/meta", reason: "handler \(handler) is not mdta; metadata not written")
            }
        } else {
            meta.insert(.leaf("hdlr", handlerPayload), at: 0)
        }
        var keys = try readKeys(meta.child("keys"))
        var items = try readItems(meta.child("ilst"))
        for entry in entries {
            let keyBytes = Array(entry.key.utf8)
            let dataAtom = dataAtom(typeCode: entry.typeCode, value: entry.value)
            if let index = keys.entries.firstIndex(where: { $0.namespace == entry.namespace && $0.name == keyBytes }) {
                let itemType = FourCC(rawValue: UInt32(index + 1))
                if let itemIndex = items.firstIndex(where: { $0.type == itemType }) {
                    items[itemIndex] = replacingData(of: items[itemIndex], with: dataAtom)
                } else {
                    items.append(.container(itemType, [dataAtom]))
                }
            } else {
                keys.entries.append((entry.namespace, keyBytes))
                items.append(.container(FourCC(rawValue: UInt32(keys.entries.count)), [dataAtom]))
            }
        }
        store(keys, items, in: &meta)
    }

    /// Writes `keys` and `items` (the `ilst` children) into `meta`, replacing or adding its boxes.
    private static func store(_ keys: Keys, _ items: [BoxNode], in meta: inout BoxNode) {
        let keysBox = keysBox(keys)
        var list = meta.child("ilst") ?? BoxNode.leaf("ilst", [])
        list.content = .container(prefix: [], children: items, trailer: [])
        if let index = meta.childIndex("keys") {
            meta.children[index] = keysBox
        } else {
            meta.insert(keysBox, at: (meta.childIndex("hdlr") ?? -1) + 1)
        }
        if let index = meta.childIndex("ilst") {
            meta.children[index] = list
        } else {
            meta.insert(list, at: (meta.childIndex("keys") ?? -1) + 1)
        }
    }

    /// A `data` atom: u32 type, u32 locale (0), value.
    public static func dataAtom(typeCode: UInt32, value: [UInt8]) -> BoxNode {
        var writer = ByteWriter(capacity: value.count + 8)
        writer.u32(typeCode)
        writer.u32(0)
        writer.append(value)
        return .leaf("data", writer.bytes)
    }

    // MARK: keys and ilst

    private struct Keys {
        var versionAndFlags: [UInt8] = [0, 0, 0, 0]
        var entries: [(namespace: FourCC, name: [UInt8])] = []
    }

    private static func readKeys(_ box: BoxNode?) throws(FormatError) -> Keys {
        guard let box else { return Keys() }
        var reader = box.payloadReader()
        var keys = Keys()
        keys.versionAndFlags = try reader.bytes(4)
        let count = try reader.u32()
        try ParseLimits.default.checkTable(UInt64(count), entrySize: 8, available: reader.remaining, context: "keys")
        for _ in 0..<count {
            let size = Int(try reader.u32())
            guard size >= 8 else { throw .invalid(context: "keys", reason: "key entry size \(size) is below 8") }
            let namespace = try reader.fourCC()
            keys.entries.append((namespace, try reader.bytes(size - 8)))
        }
        return keys
    }

    private static func keysBox(_ keys: Keys) -> BoxNode {
        var writer = ByteWriter()
        writer.append(keys.versionAndFlags)
        writer.u32(UInt32(keys.entries.count))
        for entry in keys.entries {
            writer.u32(UInt32(entry.name.count + 8))
            writer.fourCC(entry.namespace)
            writer.append(entry.name)
        }
        return .leaf("keys", writer.bytes)
    }

    private static func readItems(_ box: BoxNode?) throws(FormatError) -> [BoxNode] {
        guard let box else { return [] }
        if box.isContainer { return box.children }
        var reader = box.payloadReader()
        var items: [BoxNode] = []
        for item in try BoxParser().parseBoxes(&reader) {
            var node = try BoxNode(item)
            if !node.isContainer, let payload = node.payload {
                // An item holds `data` (and possibly other) atoms: keep them as children.
                var inner = ByteReader(payload)
                let atoms = try BoxParser().parseBoxes(&inner)
                var children: [BoxNode] = []
                for atom in atoms { children.append(try BoxNode(atom)) }
                let used = atoms.reduce(0) { $0 + Int($1.size) }
                node.content = .container(prefix: [], children: children, trailer: Array(payload[used...]))
            }
            items.append(node)
        }
        return items
    }

    private static func replacingData(of item: BoxNode, with data: BoxNode) -> BoxNode {
        var item = item
        var children = item.children.filter { $0.type != "data" }
        let position = item.children.firstIndex { $0.type == "data" } ?? children.count
        children.insert(data, at: min(position, children.count))
        item.children = children
        return item
    }
}
