/// Runs the pairing rules, in order, over one set of resources. Shared by `Pairing.pair` and
/// `PairingSession.result()`; see `Pairing` for the rules.
struct PairingEngine: Sendable {
    /// The options.
    let options: PairingOptions
    /// Compares file contents for the duplicate checks.
    let comparer: ContentComparer

    /// Pairs `resources`, whose paths are unique. The outcome does not depend on their order.
    func run(_ resources: [AssetResource]) -> PairingResult {
        var result = PairingResult()
        let sorted = Self.sortedByPath(resources)

        // 1. Unreadable files take no further part.
        var readable: [AssetResource] = []
        for resource in sorted {
            if resource.pairingCategory == .unreadable {
                let notMedia = [.unknown, .adjustmentData].contains(resource.role) && resource.identity.isComplete
                result.unpaired.append(UnpairedResource(resource: resource, reason: notMedia ? .notMedia : .unreadable))
            } else {
                readable.append(resource)
            }
        }

        // 2. Byte-identical copies: the first by path stays, the others are duplicates.
        let finder = DuplicateFinder(comparer: comparer)
        let (kept, identicalGroups) = finder.identicalFiles(readable)
        result.duplicates += identicalGroups

        let motionPhotos = kept.filter { $0.pairingCategory == .motionPhoto }
        let stills = kept.filter { $0.pairingCategory == .still }
        let allMovies = kept.filter { $0.pairingCategory == .movie }
        result.motionPhotos = motionPhotos

        // 3. Loose movies equal to a motion photo's embedded video.
        let (movies, motionGroups) = finder.motionPhotoVideos(allMovies, motionPhotos: motionPhotos)
        result.duplicates += motionGroups

        // 4. Content identifiers.
        let matched = IdentifierMatcher(captureTimeTolerance: options.captureTimeTolerance).match(
            stills: stills.filter { $0.contentIdentifier != nil }, movies: movies.filter { $0.contentIdentifier != nil })
        result.pairs += matched.pairs
        result.unpaired += matched.unpaired
        result.ambiguous += matched.ambiguous

        // 5. Files without identifier: weak name matches when asked for, otherwise alone.
        var plainStills = stills.filter { $0.contentIdentifier == nil }
        var plainMovies = movies.filter { $0.contentIdentifier == nil }
        if options.matchNames {
            let named = NameMatcher(options: options).match(stills: plainStills, movies: plainMovies)
            result.pairs += named.pairs
            plainStills = named.leftover
            plainMovies = []
        }
        result.unpaired += (plainStills + plainMovies).map { UnpairedResource(resource: $0, reason: .noContentIdentifier) }

        Self.sort(&result)
        return result
    }

    /// The resources in path order (sorting indices: resources are large values).
    static func sortedByPath(_ resources: [AssetResource]) -> [AssetResource] {
        sorted(resources, by: \.path)
    }

    /// `items` ordered by a text key computed once per item (sorting indices: the items are large values).
    static func sorted<Item>(_ items: [Item], by key: (Item) -> String) -> [Item] {
        let keys = items.map(key)
        return items.indices.sorted { keys[$0] < keys[$1] }.map { items[$0] }
    }

    /// Puts every list of `result` in its documented order.
    static func sort(_ result: inout PairingResult) {
        // A still is in at most one pair, and a path in at most one unpaired entry: the keys are unique.
        result.pairs = sorted(result.pairs, by: \.photo.path)
        result.unpaired = sorted(result.unpaired, by: \.resource.path)
        result.ambiguous.sort { IdentifierKey($0.contentIdentifier) < IdentifierKey($1.contentIdentifier) }
        result.duplicates.sort { ($0.original, $0.kind.rawValue) < ($1.original, $1.kind.rawValue) }
    }
}
