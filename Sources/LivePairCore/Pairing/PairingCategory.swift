/// How the pairing layer sorts a resource before matching.
enum PairingCategory: Equatable {
    /// Not a media format LivePair reads, or the file could not be read at all.
    case unreadable
    /// A still with its video embedded: a pair on its own.
    case motionPhoto
    /// A still, with or without a content identifier.
    case still
    /// A movie, with or without a content identifier.
    case movie
}

extension AssetResource {
    /// The category, from the role the identity layer decided: `unknown` roles and files with a
    /// `read-failed` issue are unreadable; damaged files that were partly read keep the role of what
    /// could be read (validation reports the damage).
    var pairingCategory: PairingCategory {
        if identity.issues.contains(where: { $0.code == "read-failed" }) { return .unreadable }
        switch identity.role {
        case .unknown, .adjustmentData: return .unreadable
        case .motionPhoto: return .motionPhoto
        case .livePhotoStill, .photo: return .still
        case .livePhotoVideo, .video: return .movie
        }
    }
}

/// A content identifier as a key compared byte for byte (Swift `String` equality would treat
/// canonically equivalent Unicode as equal; Photos compares the stored bytes).
struct IdentifierKey: Hashable, Comparable {
    /// The identifier's UTF-8 bytes.
    let bytes: [UInt8]

    init(_ identifier: ContentIdentifier) { bytes = Array(identifier.rawValue.utf8) }

    static func < (lhs: IdentifierKey, rhs: IdentifierKey) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
