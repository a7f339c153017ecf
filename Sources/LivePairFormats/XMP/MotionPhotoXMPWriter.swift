/// Writes the XMP of a Google Motion Photo 1.0 (Android developers, "Motion Photo format 1.0"):
/// `Camera:MotionPhoto` = 1, `Camera:MotionPhotoVersion` = 1 and
/// `Camera:MotionPhotoPresentationTimestampUs` as attributes of the first `rdf:Description`, and a
/// `Container:Directory` `rdf:Seq` of `rdf:li rdf:parseType="Resource"`, each holding a
/// `Container:Item` with `Item:Mime`, `Item:Semantic`, `Item:Length` and `Item:Padding`: the
/// primary image first (length 0), then any other appended items kept from the still (an Ultra
/// HDR gain map), then the video (`MotionPhoto`, its length in bytes, padding 0), which is last in
/// the file. This is the layout Pixel cameras write and what androidx, exiftool and
/// `MotionPhotoXMP` read.
///
/// An existing packet is merged, not replaced: every other property, namespace declaration,
/// comment and byte of formatting is kept; only the Camera motion-photo properties (under any
/// prefix, legacy `MicroVideo*` included) and the `Container:Directory` are removed and written
/// anew.
public struct MotionPhotoXMPWriter: Sendable {
    /// The primary item's padding in HEIC and AVIF motion photos: the 8-byte header of the `mpvd`
    /// box between the image and the video (the specification requires exactly this value).
    public static let isobmffPrimaryPadding: Int64 = 8

    /// Local names of the Camera-namespace properties that describe an embedded video; they are
    /// removed before writing and when a still is made plain.
    public static let motionPhotoPropertyNames: Set<String> = [
        "MotionPhoto", "MotionPhotoVersion", "MotionPhotoPresentationTimestampUs", "MicroVideo", "MicroVideoVersion",
        "MicroVideoOffset", "MicroVideoPresentationTimestampUs",
    ]

    /// Presentation timestamp of the still in the video, in microseconds (-1: unset).
    public var presentationTimestampUs: Int64
    /// `Item:Mime` of the primary image (`image/jpeg`, `image/heic`, `image/avif`).
    public var primaryMime: String
    /// `Item:Padding` of the primary image: 0 for JPEG, `isobmffPrimaryPadding` for HEIC and AVIF.
    public var primaryPadding: Int64
    /// Items between the primary image and the video, kept as they are (an Ultra HDR gain map).
    public var intermediateItems: [ContainerItem]
    /// `Item:Mime` of the video (`video/mp4` or `video/quicktime`).
    public var videoMime: String
    /// `Item:Length` of the video: its size in bytes.
    public var videoLength: Int64
    /// The exact still-image time (`LivePair:StillImageTime`), written when the video lost its
    /// still-image-time track; nil writes none (an old one is removed either way).
    public var stillImageTime: LivePairStillImageTime?

    /// A writer for a motion photo whose video of `videoLength` bytes ends the file.
    public init(
        presentationTimestampUs: Int64, primaryMime: String, primaryPadding: Int64 = 0,
        intermediateItems: [ContainerItem] = [], videoMime: String = "video/mp4", videoLength: Int64,
        stillImageTime: LivePairStillImageTime? = nil
    ) {
        self.stillImageTime = stillImageTime
        self.presentationTimestampUs = presentationTimestampUs
        self.primaryMime = primaryMime
        self.primaryPadding = primaryPadding
        self.intermediateItems = intermediateItems
        self.videoMime = videoMime
        self.videoLength = videoLength
    }

    /// The `Container:Directory` items in order.
    public var directory: [ContainerItem] {
        [ContainerItem(mime: primaryMime, semantic: "Primary", length: 0, padding: primaryPadding)]
            + intermediateItems
            + [ContainerItem(mime: videoMime, semantic: "MotionPhoto", length: videoLength, padding: 0)]
    }

    /// A new XMP packet (with `<?xpacket?>` wrapper) holding only the motion-photo properties.
    public func packet(limits: ParseLimits = .default) throws(FormatError) -> [UInt8] {
        let skeleton = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="LivePair">
              <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about=""/>
              </rdf:RDF>
            </x:xmpmeta>
            """
        let body = try merged(into: Array(skeleton.utf8), limits: limits)
        return Array("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n".utf8) + body
            + Array("\n<?xpacket end=\"w\"?>".utf8)
    }

    /// `existing` with the motion-photo properties and directory of this writer: every other
    /// property kept byte for byte. Throws `invalid` when `existing` is not well-formed XML or has
    /// no `rdf:RDF`, or when the result does not read back with the values written.
    public func merged(into existing: [UInt8], limits: ParseLimits = .default) throws(FormatError) -> [UInt8] {
        let camera = Self.camera
        var attributes = [
            XMPPacketEditor.Attribute(namespace: camera, localName: "MotionPhoto", value: "1"),
            XMPPacketEditor.Attribute(namespace: camera, localName: "MotionPhotoVersion", value: "1"),
            XMPPacketEditor.Attribute(
                namespace: camera, localName: "MotionPhotoPresentationTimestampUs", value: String(presentationTimestampUs)),
        ]
        if let stillImageTime {
            attributes.append(
                XMPPacketEditor.Attribute(
                    namespace: Self.livePair, localName: LivePairStillImageTime.localName, value: stillImageTime.xmpValue))
        }
        let items = directory
        // One Description holding everything: media3 reads the first one only.
        let single = try XMPDescriptionMerger.merged(existing, limits: limits)
        let output = try XMPPacketEditor(limits: limits).edit(
            single, removing: Self.isMotionPhotoProperty, attributes: attributes,
            childNamespaces: [Self.container, Self.item], children: { Self.directoryMarkup(items, prefixes: $0) })
        let check = MotionPhotoXMP(output, limits: limits)
        guard check.malformation == nil, check.motionPhoto == 1, check.motionPhotoVersion == 1,
            check.motionPhotoPresentationTimestampUs == presentationTimestampUs, check.containerItems == items,
            LivePairStillImageTime(check) == stillImageTime
        else {
            throw .invalid(context: "XMP", reason: "the merged packet does not read back as the motion photo written")
        }
        return output
    }

    /// `existing` without motion-photo properties: the Camera motion and MicroVideo properties are
    /// removed, and the `Container:Directory` is rewritten to `keptItems` (the primary and the
    /// appended items that stay, such as a gain map) or removed when `keptItems` has no item
    /// besides the primary. Nil when no property at all is left (the packet can be dropped).
    public static func removingMotionPhoto(
        from existing: [UInt8], keeping keptItems: [ContainerItem], limits: ParseLimits = .default
    ) throws(FormatError) -> [UInt8]? {
        let children: ((XMPPacketEditor.Prefixes) -> String)? =
            keptItems.count > 1 ? { directoryMarkup(keptItems, prefixes: $0) } : nil
        let output = try XMPPacketEditor(limits: limits).edit(
            existing, removing: isMotionPhotoProperty, attributes: [],
            childNamespaces: children == nil ? [] : [container, item], children: children)
        let check = MotionPhotoXMP(output, limits: limits)
        guard check.malformation == nil, !check.claimsMotionPhoto, check.motionPhotoItemIndex == nil else {
            throw .invalid(context: "XMP", reason: "the motion-photo properties could not be removed")
        }
        if check.properties.isEmpty && check.containerItems.isEmpty { return nil }
        return output
    }

    // MARK: Markup

    static let camera = XMPPacketEditor.Namespace(uri: XMPNamespace.googleCamera, prefixes: ["Camera", "GCamera"])
    static let container = XMPPacketEditor.Namespace(uri: XMPNamespace.googleContainer, prefixes: ["Container", "GContainer"])
    static let item = XMPPacketEditor.Namespace(uri: XMPNamespace.googleContainerItem, prefixes: ["Item", "GContainerItem"])
    static let livePair = XMPPacketEditor.Namespace(
        uri: LivePairStillImageTime.namespaceURI, prefixes: [LivePairStillImageTime.prefix])

    /// Whether `name` is a property this writer owns: a Camera motion-photo property, the
    /// directory or LivePair's still-image time.
    static func isMotionPhotoProperty(_ name: XMLName) -> Bool {
        (name.namespaceURI == XMPNamespace.googleCamera && motionPhotoPropertyNames.contains(name.localName))
            || name.is(XMPNamespace.googleContainer, "Directory")
            || name.is(LivePairStillImageTime.namespaceURI, LivePairStillImageTime.localName)
    }

    /// The `Container:Directory` element for `items`, indented for a child of `rdf:Description`.
    static func directoryMarkup(_ items: [ContainerItem], prefixes: XMPPacketEditor.Prefixes) -> String {
        let rdf = prefixes(XMPNamespace.rdf), container = prefixes(XMPNamespace.googleContainer)
        let item = prefixes(XMPNamespace.googleContainerItem)
        func q(_ prefix: String, _ name: String) -> String { XMPPacketEditor.qualified(prefix, name) }
        var text = "      <\(q(container, "Directory"))>\n        <\(q(rdf, "Seq"))>\n"
        for entry in items {
            text += "          <\(q(rdf, "li")) \(q(rdf, "parseType"))=\"Resource\">\n            <\(q(container, "Item"))"
            let fields: [(String, String?)] = [
                ("Mime", entry.mime), ("Semantic", entry.semantic), ("Length", entry.length.map(String.init)),
                ("Padding", entry.padding.map(String.init)),
            ]
            for case let (name, value?) in fields {
                text += "\n              \(q(item, name))=\"\(XMPPacketEditor.escaped(value))\""
            }
            text += "/>\n          </\(q(rdf, "li"))>\n"
        }
        text += "        </\(q(rdf, "Seq"))>\n      </\(q(container, "Directory"))>"
        return text
    }
}
