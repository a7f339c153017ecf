import Foundation

/// Local identifiers: uppercase UUIDs, made fresh for each new asset and album.
enum LocalIdentifier {
    /// A new identifier.
    static func make() -> String { UUID().uuidString }
}
