/// A simple XMP property name: namespace URI plus local name.
public struct XMPPropertyName: Sendable, Equatable, Hashable {
    /// The namespace URI.
    public let namespaceURI: String
    /// The local name.
    public let localName: String

    /// Memberwise initializer.
    public init(_ namespaceURI: String, _ localName: String) {
        self.namespaceURI = namespaceURI
        self.localName = localName
    }
}
