import LivePairFormats

/// `conflicting-content-identifiers`: one file carries two different content identifiers (a movie
/// with one in `moov/meta` and another in `moov/udta/meta`, as a restamp by an older tool leaves
/// it). Photos reads `moov/meta`, ffprobe and ffmpeg-based readers the other one, so the file pairs
/// differently depending on who reads it.
enum ConflictingIdentifiersRule {
    /// The finding about `identity`, if its file holds conflicting identifiers.
    static func findings(for identity: ResourceIdentity) -> [Finding] {
        guard let identifier = identity.contentIdentifier, !identity.conflictingContentIdentifiers.isEmpty else { return [] }
        let others = identity.conflictingContentIdentifiers.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        return [
            Finding(
                .conflictingContentIdentifiers, path: identity.path,
                message: "\(ValidationPlan.name(identity.path)) carries the identifier \(identifier.rawValue) "
                    + "(\(identity.contentIdentifierLocation?.rawValue ?? "maker note")) and also \(others) elsewhere in the file; "
                    + "readers disagree on which one it has")
        ]
    }
}
