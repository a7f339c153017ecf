public import Foundation

/// A row of the catalog's general-purpose record table, for components that keep their own state
/// in the library's database and transactions (the ingestor keeps pending uploads here).
///
/// Records live in a `namespace` (one per component), are unique by `key` within it, and can be
/// looked up by `lookupKey` (not unique: for example owner + content identifier) and by `date`.
/// A record that names a `digest` keeps that resource file alive: recovery never removes a
/// stored file a record names.
public struct CatalogRecord: Sendable, Hashable {
    /// The owning component's namespace, for example `ingest.pending`.
    public var namespace: String
    /// The record's key, unique within the namespace.
    public var key: String
    /// A secondary key to find records by (not unique), or nil.
    public var lookupKey: String?
    /// A resource the record keeps alive, or nil.
    public var digest: ContentDigest?
    /// A date to find old records by (for example when an upload arrived), or nil.
    public var date: Date?
    /// The component's own bytes (for example JSON).
    public var payload: [UInt8]

    /// Memberwise initializer.
    public init(
        namespace: String, key: String, lookupKey: String? = nil, digest: ContentDigest? = nil, date: Date? = nil,
        payload: [UInt8] = []
    ) {
        self.namespace = namespace
        self.key = key
        self.lookupKey = lookupKey
        self.digest = digest
        self.date = date
        self.payload = payload
    }
}
