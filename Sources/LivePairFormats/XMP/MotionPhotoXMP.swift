/// The motion-photo facts of an XMP packet: Google Camera MotionPhoto (and legacy MicroVideo)
/// properties, the Container directory, plus every simple property by namespace URI.
///
/// Properties are accepted both as attributes of `rdf:Description` (or any element) and as child
/// elements with text. Parsing never traps: on malformed XML the properties read before the fault
/// are kept and `malformation` holds the error.
public struct MotionPhotoXMP: Sendable, Equatable {
    /// `MotionPhoto` (1 = this is a motion photo).
    public var motionPhoto: Int?
    /// `MotionPhotoVersion`.
    public var motionPhotoVersion: Int?
    /// `MotionPhotoPresentationTimestampUs` as written (-1 = unset).
    public var motionPhotoPresentationTimestampUs: Int64?
    /// Legacy `MicroVideo` (1 = has an embedded video).
    public var microVideo: Int?
    /// Legacy `MicroVideoVersion`.
    public var microVideoVersion: Int?
    /// Legacy `MicroVideoOffset`: bytes from the end of the file to the start of the video.
    public var microVideoOffset: Int64?
    /// Legacy `MicroVideoPresentationTimestampUs` as written (-1 = unset).
    public var microVideoPresentationTimestampUs: Int64?
    /// The `Container:Directory` items in order (empty when there is no directory).
    public var containerItems: [ContainerItem] = []
    /// `xmpNote:HasExtendedXMP`: the GUID of the extended packet, when announced.
    public var extendedXMPGUID: String?
    /// Every simple property (attribute or text-only element outside rdf/x), first occurrence wins.
    public var properties: [XMPPropertyName: String] = [:]
    /// The error that stopped parsing, when the XML is malformed.
    public var malformation: FormatError?

    /// An empty value.
    public init() {}

    /// Parses an XMP packet (raw bytes, UTF-8).
    public init(_ bytes: [UInt8], limits: ParseLimits = .default) {
        var builder = Builder()
        do {
            try XMLScanner(limits: limits).scan(bytes) { builder.handle($0) }
        } catch {
            malformation = error
        }
        builder.finish()
        properties = builder.properties
        containerItems = builder.items
        let camera = XMPNamespace.googleCamera
        motionPhoto = integer(camera, "MotionPhoto").map(Int.init)
        motionPhotoVersion = integer(camera, "MotionPhotoVersion").map(Int.init)
        motionPhotoPresentationTimestampUs = integer(camera, "MotionPhotoPresentationTimestampUs")
        microVideo = integer(camera, "MicroVideo").map(Int.init)
        microVideoVersion = integer(camera, "MicroVideoVersion").map(Int.init)
        microVideoOffset = integer(camera, "MicroVideoOffset")
        microVideoPresentationTimestampUs = integer(camera, "MicroVideoPresentationTimestampUs")
        extendedXMPGUID = properties[XMPPropertyName(XMPNamespace.xmpNote, "HasExtendedXMP")]
    }

    /// The value of a simple property.
    public func property(_ namespaceURI: String, _ localName: String) -> String? {
        properties[XMPPropertyName(namespaceURI, localName)]
    }

    /// A simple property parsed as an integer (surrounding whitespace allowed).
    public func integer(_ namespaceURI: String, _ localName: String) -> Int64? {
        property(namespaceURI, localName).flatMap { Int64($0.trimmingXMLWhitespace) }
    }

    /// Whether the packet claims an embedded video (MotionPhoto = 1 or MicroVideo = 1).
    public var claimsMotionPhoto: Bool { motionPhoto == 1 || microVideo == 1 }

    /// Index of the video item in `containerItems`.
    public var motionPhotoItemIndex: Int? { containerItems.firstIndex { $0.isMotionPhotoVideo } }

    /// The presentation timestamp in microseconds (MotionPhoto, else MicroVideo); nil when unset (-1) or absent.
    public var presentationTimestampUs: Int64? {
        for value in [motionPhotoPresentationTimestampUs, microVideoPresentationTimestampUs] {
            if let value, value >= 0 { return value }
        }
        return nil
    }

    /// Turns scanner events into properties and container items.
    private struct Builder {
        var properties: [XMPPropertyName: String] = [:]
        var items: [ContainerItem] = []
        private var depth = 0
        private var directoryDepth: Int?
        private var currentItem: ContainerItem?
        private var currentItemDepth = 0
        /// Open elements: name, and whether a child element was seen (then text is not a simple value).
        private var stack: [(name: XMLName, hasChild: Bool, text: String)] = []

        mutating func handle(_ event: XMLEvent) {
            switch event {
            case let .start(name, attributes):
                if !stack.isEmpty { stack[stack.count - 1].hasChild = true }
                depth += 1
                stack.append((name, false, ""))
                if name.is(XMPNamespace.googleContainer, "Directory"), directoryDepth == nil { directoryDepth = depth }
                if directoryDepth != nil, currentItem == nil,
                    name.is(XMPNamespace.rdf, "li") || name.is(XMPNamespace.googleContainer, "Item")
                {
                    currentItem = ContainerItem()
                    currentItemDepth = depth
                }
                for attribute in attributes {
                    guard let uri = attribute.name.namespaceURI, uri != XMPNamespace.rdf,
                        uri != XMPNamespace.adobeMeta, uri != XMLScanner.xmlNamespace
                    else { continue }
                    if uri == XMPNamespace.googleContainerItem, currentItem != nil {
                        assign(attribute.name.localName, attribute.value)
                    } else {
                        record(uri, attribute.name.localName, attribute.value)
                    }
                }
            case let .text(text):
                if !stack.isEmpty { stack[stack.count - 1].text += text }
            case .end:
                guard let element = stack.popLast() else { return }
                if !element.hasChild, let uri = element.name.namespaceURI, uri != XMPNamespace.rdf,
                    uri != XMPNamespace.adobeMeta
                {
                    let value = element.text.trimmingXMLWhitespace
                    if uri == XMPNamespace.googleContainerItem, currentItem != nil {
                        assign(element.name.localName, value)
                    } else if !value.isEmpty {
                        record(uri, element.name.localName, value)
                    }
                }
                if let item = currentItem, depth == currentItemDepth {
                    items.append(item)
                    currentItem = nil
                }
                if directoryDepth == depth { directoryDepth = nil }
                depth -= 1
            }
        }

        mutating func finish() {
            if let item = currentItem { items.append(item) }
            currentItem = nil
        }

        private mutating func record(_ uri: String, _ localName: String, _ value: String) {
            let key = XMPPropertyName(uri, localName)
            if properties[key] == nil { properties[key] = value }
        }

        private mutating func assign(_ localName: String, _ value: String) {
            let trimmed = value.trimmingXMLWhitespace
            switch localName {
            case "Mime": currentItem?.mime = trimmed
            case "Semantic": currentItem?.semantic = trimmed
            case "Length": currentItem?.length = Int64(trimmed)
            case "Padding": currentItem?.padding = Int64(trimmed)
            default: break
            }
        }
    }
}

extension String {
    /// The string without leading and trailing XML whitespace (space, tab, CR, LF).
    var trimmingXMLWhitespace: String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, XMLScanner.isWhitespace(bytes[start]) { start += 1 }
        while end > start, XMLScanner.isWhitespace(bytes[end - 1]) { end -= 1 }
        if start == 0 && end == bytes.count { return self }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
