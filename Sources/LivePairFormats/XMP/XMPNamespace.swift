/// Namespace URIs of the XMP properties LivePair reads. Prefixes vary between writers
/// (Camera / GCamera, Container / Item), so properties are matched by URI.
public enum XMPNamespace {
    /// RDF syntax.
    public static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    /// The x:xmpmeta wrapper.
    public static let adobeMeta = "adobe:ns:meta/"
    /// Google camera (Camera and legacy GCamera prefixes).
    public static let googleCamera = "http://ns.google.com/photos/1.0/camera/"
    /// Google container (Container:Directory).
    public static let googleContainer = "http://ns.google.com/photos/1.0/container/"
    /// Google container item (Item:Mime, Item:Semantic, Item:Length, Item:Padding).
    public static let googleContainerItem = "http://ns.google.com/photos/1.0/container/item/"
    /// XMP note (HasExtendedXMP).
    public static let xmpNote = "http://ns.adobe.com/xmp/note/"
    /// Adobe HDR gain map (Ultra HDR).
    public static let hdrGainMap = "http://ns.adobe.com/hdr-gain-map/1.0/"
}
